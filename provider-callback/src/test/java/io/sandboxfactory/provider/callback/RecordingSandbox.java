package io.sandboxfactory.provider.callback;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;

import java.time.Duration;
import java.util.Optional;

/** A host-style sandbox that lives in memory and echoes the command line it was asked to run. */
final class RecordingSandbox extends MastraSandbox<String> {

    RecordingSandbox(String id) {
        super(id, "host-" + id);
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
        return "host-" + id();
    }

    @Override
    protected void doStop(String handle) {
    }

    @Override
    protected void doDestroy(String handle) {
    }

    @Override
    protected CommandResult doExecute(CommandRequest request) {
        return new CommandResult(0, request.commandLine(), "", Duration.ZERO, false, false, false, request.commandLine());
    }

    @Override
    public Optional<String> workingDirectory() {
        return Optional.empty();
    }
}
