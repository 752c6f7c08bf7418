package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * A passive view ({@link PeekFilesystem}) was asked to read a session whose sandbox is not running
 * in this process, so its files are not there to read without starting it, which a passive reader
 * never does. Code {@code NOT_MATERIALIZED}.
 */
public class NotMaterializedException extends SandboxFileException {
    private static final long serialVersionUID = 1L;

    public NotMaterializedException(String sessionId, String path) {
        super(StandardErrorCode.NOT_MATERIALIZED, path, "Session '" + sessionId + "' is not materialized in this process (its sandbox is not running here),"
                + " so '" + path + "' cannot be read without starting it; open the session first.");
    }
}
