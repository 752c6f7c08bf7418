package io.sandboxfactory.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link MastraSandbox} whose physical sandbox is a field in memory. It counts every primitive,
 * logs them in order, can hold any primitive at a {@link Gate} and can fail the next call of any
 * primitive with a chosen exception. Commands are recorded with the status the sandbox had when
 * they reached {@code doExecute}, and answer with their command line as stdout.
 */
final class FakeSandbox extends MastraSandbox<String> {

    /** What reached {@code doExecute}, and in which state of the sandbox. */
    record Executed(CommandRequest request, SandboxStatus statusSeen, Thread thread) {
    }

    /** The physical sandbox: its handle, or null when none exists. */
    final AtomicReference<String> physical = new AtomicReference<>();

    final AtomicInteger finds = new AtomicInteger();
    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger creates = new AtomicInteger();
    final AtomicInteger stops = new AtomicInteger();
    final AtomicInteger destroys = new AtomicInteger();

    /** Every primitive and command in the order they ran, e.g. {@code find}, {@code create}, {@code exec ls}. */
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<Executed> executed = new CopyOnWriteArrayList<>();

    volatile Gate findGate;
    volatile Gate stopGate;
    volatile Gate destroyGate;
    volatile Gate executeGate;

    final AtomicReference<Throwable> nextFindFailure = new AtomicReference<>();
    final AtomicReference<Throwable> nextCreateFailure = new AtomicReference<>();
    final AtomicReference<Throwable> nextStopFailure = new AtomicReference<>();
    final AtomicReference<Throwable> nextDestroyFailure = new AtomicReference<>();

    FakeSandbox(String id) {
        super(id, "fake " + id);
    }

    /** Adds an entry to the event log; hooks written by tests use it too, so order is one list. */
    void record(String event) {
        events.add(event);
    }

    @Override
    protected Optional<String> find() throws Exception {
        finds.incrementAndGet();
        record("find");
        pass(findGate);
        failIfAsked(nextFindFailure);
        return Optional.ofNullable(physical.get());
    }

    @Override
    protected void connect(String handle) {
        connects.incrementAndGet();
        record("connect " + handle);
    }

    @Override
    protected String create() throws Exception {
        int number = creates.incrementAndGet();
        record("create");
        failIfAsked(nextCreateFailure);
        String handle = "phys-" + number;
        physical.set(handle);
        return handle;
    }

    @Override
    protected void doStop(String handle) throws Exception {
        stops.incrementAndGet();
        record("stop " + handle);
        pass(stopGate);
        failIfAsked(nextStopFailure);
    }

    @Override
    protected void doDestroy(String handle) throws Exception {
        destroys.incrementAndGet();
        record("destroy " + handle);
        pass(destroyGate);
        failIfAsked(nextDestroyFailure);
        physical.set(null);
    }

    @Override
    protected CommandResult doExecute(CommandRequest request) {
        executed.add(new Executed(request, status(), Thread.currentThread()));
        record("exec " + request.commandLine());
        try {
            pass(executeGate);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxExecTransportException("interrupted", false, e);
        }
        if (physical.get() == null || !physical.get().equals(handle().orElse(null))) {
            throw new SandboxDestroyedException("The physical sandbox of '" + id() + "' is gone.");
        }
        return new CommandResult(0, request.commandLine(), "", Duration.ZERO, false, false, false, request.commandLine());
    }

    /** What a file transfer of a provider does first. */
    String transferHandle() {
        return runningHandle();
    }

    @Override
    public Optional<String> workingDirectory() {
        return Optional.of("/workspace");
    }

    /** Command lines that reached {@code doExecute}, in order. */
    List<String> commandLines() {
        return executed.stream().map(e -> e.request().commandLine()).toList();
    }

    private static void pass(Gate gate) throws InterruptedException {
        if (gate != null) {
            gate.pass();
        }
    }

    private static void failIfAsked(AtomicReference<Throwable> failure) throws Exception {
        Throwable t = failure.getAndSet(null);
        if (t instanceof Exception e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }
}
