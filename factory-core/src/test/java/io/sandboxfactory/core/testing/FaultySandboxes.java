package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real provider so a test can make the transport fail on the next command: either before
 * the command was created ({@code opened=false}: it never runs) or after it ran ({@code
 * opened=true}: it ran, and its caller cannot know). Every command really runs in the wrapped
 * provider's sandbox otherwise. Counts the sandbox instances it made.
 */
public final class FaultySandboxes implements FactorySandbox {

    /** A transport failure to inject into the next command. */
    public enum Fault {
        /** Runs the command normally (to let earlier commands through). */
        NONE,
        /** Throws {@code SandboxExecTransportException(opened=false)} without running the command. */
        BEFORE_OPEN,
        /** Runs the command, then throws {@code SandboxExecTransportException(opened=true)}. */
        AFTER_OPEN
    }

    private final FactorySandbox real;
    private final Queue<Fault> armed = new ConcurrentLinkedQueue<>();
    private final AtomicInteger created = new AtomicInteger();

    public FaultySandboxes(FactorySandbox real) {
        this.real = real;
    }

    /** The next command any of this provider's sandboxes runs fails with {@code fault}. */
    public void arm(Fault fault) {
        armed.add(fault);
    }

    /** How many sandbox instances {@link #create} made. */
    public int created() {
        return created.get();
    }

    @Override
    public MastraSandbox<?> create(FactorySandboxContext ctx) {
        created.incrementAndGet();
        return new FaultySandbox(ctx.sessionId(), real.create(ctx));
    }

    @Override
    public Set<SandboxCapability> capabilities() {
        return real.capabilities();
    }

    private final class FaultySandbox extends MastraSandbox<MastraSandbox<?>> {
        private final MastraSandbox<?> inner;

        FaultySandbox(String id, MastraSandbox<?> inner) {
            super(id, "faulty-" + id);
            this.inner = inner;
        }

        @Override
        public Optional<String> workingDirectory() {
            return inner.workingDirectory();
        }

        @Override
        protected Optional<MastraSandbox<?>> find() {
            return Optional.empty();
        }

        @Override
        protected void connect(MastraSandbox<?> handle) {
        }

        @Override
        protected MastraSandbox<?> create() {
            inner.start();
            return inner;
        }

        @Override
        protected String sandboxIdOf(MastraSandbox<?> handle) {
            return handle.sandboxId().orElse(id());
        }

        @Override
        protected void doStop(MastraSandbox<?> handle) {
            handle.stop();
        }

        @Override
        protected void doDestroy(MastraSandbox<?> handle) {
            handle.destroy();
        }

        @Override
        protected CommandResult doExecute(CommandRequest request) {
            Fault fault = armed.poll();
            if (fault == Fault.BEFORE_OPEN) {
                throw new SandboxExecTransportException("Injected: the transport failed before the command was created.", false, null);
            }
            CommandOptions.Builder options = CommandOptions.builder().env(request.env()).maxRetainedBytes(request.maxRetainedBytes());
            request.cwd().ifPresent(options::cwd);
            request.timeout().ifPresent(options::timeout);
            request.onStdout().ifPresent(options::onStdout);
            request.onStderr().ifPresent(options::onStderr);
            CommandResult result = inner.executeCommand(request.commandLine(), List.of(), options.build());
            if (fault == Fault.AFTER_OPEN) {
                throw new SandboxExecTransportException("Injected: the transport failed after the command was opened.", true, null);
            }
            return result;
        }
    }
}
