package io.sandboxfactory.store.postgres;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The codes only the PostgreSQL session store raises (any store's failure to read or write is
 * {@code StandardErrorCode.SESSION_STORE}); {@code PostgresStoreProvider.errorCodes()} lists them.
 */
public enum PostgresErrorCode implements ErrorCodeSupplier {
    STORE_BUSY(ErrorKind.INFRASTRUCTURE,
            "The PostgreSQL store answers, but all `store.poolSize` connections of this process stayed in use"
            + " while an operation waited for one (6 times `store.connectTimeout`): more concurrent commands "
            + "than the pool holds, or a host too loaded to finish them. Raise `store.poolSize` (default 8) or "
            + "`store.connectTimeout`, or run fewer commands at once; nothing was written.");

    private final ErrorCode code;

    PostgresErrorCode(ErrorKind kind, String meaning) {
        this.code = new ErrorCode(name(), kind, meaning);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }
}
