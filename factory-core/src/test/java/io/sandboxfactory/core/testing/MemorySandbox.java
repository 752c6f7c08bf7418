package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;

import java.time.Duration;
import java.util.Optional;

/** A sandbox that lives in memory: commands "run" by echoing a prefix and their command line. */
public final class MemorySandbox extends MastraSandbox<String> {

    private final String prefix;

    public MemorySandbox(String id, String provider, String prefix) {
        super(id, provider + "-" + id);
        this.prefix = prefix;
    }

    @Override
    protected Optional<String> find() {
        return Optional.empty();
    }

    @Override
    protected void connect(String handle) {
    }

    @Override
    protected String create() {
        return "memory-" + id();
    }

    @Override
    protected void doStop(String handle) {
    }

    @Override
    protected void doDestroy(String handle) {
    }

    @Override
    protected CommandResult doExecute(CommandRequest request) {
        String out = prefix + ":" + request.commandLine();
        return new CommandResult(0, out, "", Duration.ZERO, false, false, false, request.commandLine());
    }

    @Override
    public Optional<String> workingDirectory() {
        return Optional.empty();
    }
}
