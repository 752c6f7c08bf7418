package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.support.Sandboxes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The base class every provider's sandbox extends. It owns the lifecycle so a provider implements
 * only primitives: {@link #find()}, {@link #connect}, {@link #create()}, {@link #doStop}, {@link
 * #doDestroy} and {@link #doExecute}.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>{@link #start()} is single-flight: concurrent callers join one in-flight start and share its
 *       result or exception. It acquires the physical sandbox ({@code find} then {@code connect},
 *       outcome {@link StartOutcome#CONNECTED}; else {@code create}, outcome {@link
 *       StartOutcome#CREATED}), runs the start hook chain, then reports {@link
 *       SandboxStatus#RUNNING}. A failed start is never latched: the next call retries. {@code
 *       start()} on a running sandbox returns at once, on a destroyed one throws {@link
 *       SandboxDestroyedException}, and waits for an in-flight stop or destroy first.</li>
 *   <li>A hook failure is fatal to that start: status {@link SandboxStatus#ERROR} and a {@link
 *       SandboxStartHookException}.</li>
 *   <li>{@link #executeCommand} starts the sandbox lazily and waits for the whole start, hooks
 *       included. The hook runs its commands through {@link SandboxStartEvent#exec()}; a hook that
 *       calls {@code executeCommand} on its own thread is treated the same way.</li>
 *   <li>{@link #stop()} and {@link #destroy()} are idempotent and coalesced; they wait for an
 *       in-flight start. On an instance that never started they act on the physical sandbox that
 *       {@code find()} reports (left by an earlier process), and provision nothing; a stop that
 *       finds nothing leaves the instance {@link SandboxStatus#PENDING}.</li>
 *   <li>An onStop or onDestroy hook may run commands when the sandbox was running before the stop
 *       or destroy began. {@code start}, {@code stop} or {@code destroy} called from any hook's own
 *       thread fails with {@link SandboxNotReadyException} instead of waiting for itself (except
 *       {@code start()} from the start hook, which returns at once).</li>
 *   <li>Environment: provider base env &lt; the overlay ({@link #setEnv}) &lt; per-call env.</li>
 * </ul>
 *
 * @param <H> the provider's handle on its physical sandbox (a path, a container id, ...)
 * @since 0.1.0
 */
public abstract class MastraSandbox<H> implements ExecutableSandbox {

    private static final System.Logger LOG = System.getLogger(MastraSandbox.class.getName());

    private enum Kind { START, STOP, DESTROY }

    private record Transition(Kind kind, CompletableFuture<Void> done) {
        Transition(Kind kind) {
            this(kind, new CompletableFuture<>());
        }
    }

    /**
     * The hook running right now and its thread. A call back into the sandbox from that thread
     * must not wait for the transition the hook belongs to: it would wait for itself.
     *
     * @param canExec whether the hook may run commands: the start hook always, an onStop or
     *     onDestroy hook only when the sandbox was running before the stop or destroy began
     */
    private record ActiveHook(Thread thread, Kind kind, boolean canExec) {
        boolean onCurrentThread() {
            return thread == Thread.currentThread();
        }

        String name() {
            return switch (kind) {
                case START -> "onStart";
                case STOP -> "onStop";
                case DESTROY -> "onDestroy";
            };
        }
    }

    private final String id;
    private final String name;

    private final Object lock = new Object();
    private volatile SandboxStatus status = SandboxStatus.PENDING;
    private Transition transition;
    private volatile H handle;
    private volatile String sandboxId;
    private volatile StartOutcome lastOutcome;
    private volatile ActiveHook activeHook;

    private final AtomicReference<SandboxStartHook> onStart = new AtomicReference<>(SandboxStartHook.NONE);
    private volatile SandboxLifecycleHook onStop;
    private volatile SandboxLifecycleHook onDestroy;
    private final AtomicReference<Map<String, String>> envOverlay = new AtomicReference<>(Map.of());

    /**
     * @param id the session id ({@link FactorySandboxContext#sessionId()})
     * @param name a human-readable name, for logs and listings
     */
    protected MastraSandbox(String id, String name) {
        this.id = requireText(id, "id");
        this.name = requireText(name, "name");
    }

    private static String requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Sandbox " + what + " '" + value + "' is invalid; it must not be blank.");
        }
        return value;
    }

    // ---- acquisition and execution primitives -------------------------------------------------

    /** Looks up the physical sandbox of this session without provisioning anything. */
    protected abstract Optional<H> find() throws Exception;

    /** Makes a found physical sandbox usable (for example starts a stopped container). */
    protected abstract void connect(H handle) throws Exception;

    /** Provisions a new physical sandbox for this session. */
    protected abstract H create() throws Exception;

    /** Stops the physical sandbox, keeping its files where the provider can. */
    protected abstract void doStop(H handle) throws Exception;

    /** Removes the physical sandbox and everything in it. */
    protected abstract void doDestroy(H handle) throws Exception;

    /**
     * Runs one command. Must report timeouts as exit 124 / timedOut, throw {@link
     * SandboxDestroyedException} when the physical sandbox is gone and {@link
     * SandboxExecTransportException} on transport failures.
     */
    protected abstract CommandResult doExecute(CommandRequest request);

    /** The physical id to persist for {@code handle}; defaults to its string form. */
    protected String sandboxIdOf(H handle) {
        return String.valueOf(handle);
    }

    /** The current handle on the physical sandbox, once acquired. */
    protected final Optional<H> handle() {
        return Optional.ofNullable(handle);
    }

    /**
     * The handle on the physical sandbox, which is running or being started (its start hooks may be
     * running); unlike {@link #runningHandle()} it never starts the sandbox. For work that must not
     * bring a stopped sandbox back, such as a stream the factory keeps open in the background.
     *
     * @throws SandboxNotReadyException when no physical sandbox is acquired
     */
    protected final H acquiredHandle() {
        return handle().orElseThrow(() -> new SandboxNotReadyException("Sandbox '" + id + "' is not running; this call does not"
                + " start it."));
    }

    // ---- identity and state -----------------------------------------------------------------

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final SandboxStatus status() {
        return status;
    }

    /** The provider's physical id of the sandbox, once a start (or stop/destroy) acquired it. */
    public final Optional<String> sandboxId() {
        return Optional.ofNullable(sandboxId);
    }

    /** How the last successful acquisition went; empty before the first one. */
    public final Optional<StartOutcome> lastStartOutcome() {
        return Optional.ofNullable(lastOutcome);
    }

    // ---- hooks and environment ----------------------------------------------------------------

    /**
     * Replaces the start hook with {@code update.apply(current)}, atomically. A wrapper typically
     * runs its own work first and then calls the hook it wrapped.
     */
    public final void setOnStart(UnaryOperator<SandboxStartHook> update) {
        onStart.updateAndGet(current -> Objects.requireNonNull(update.apply(current), "start hook"));
    }

    /**
     * Runs before every stop of an acquired physical sandbox; its failure is logged and does not
     * prevent the stop. It may run commands when the sandbox was running.
     */
    public final void setOnStop(SandboxLifecycleHook hook) {
        this.onStop = hook;
    }

    /**
     * Runs before the destroy of an acquired physical sandbox; its failure is logged and does not
     * prevent the destroy. It may run commands when the sandbox was running.
     */
    public final void setOnDestroy(SandboxLifecycleHook hook) {
        this.onDestroy = hook;
    }

    /**
     * Replaces the runtime environment overlay with {@code update} applied to a mutable copy of
     * it. The overlay is merged into every later command: provider base env &lt; overlay &lt;
     * per-call env. Null names or values are rejected.
     */
    public final void setEnv(UnaryOperator<Map<String, String>> update) {
        envOverlay.updateAndGet(current -> {
            Map<String, String> next = Objects.requireNonNull(update.apply(new LinkedHashMap<>(current)),
                    "The environment update returned null; it must return the map to use.");
            Map<String, String> copy = new LinkedHashMap<>();
            next.forEach((k, v) -> {
                CommandOptions.requireVariable(k, v);
                copy.put(k, v);
            });
            return Collections.unmodifiableMap(copy);
        });
    }

    /** A copy of the current environment overlay. */
    public final Map<String, String> getEnv() {
        return new LinkedHashMap<>(envOverlay.get());
    }

    // ---- lifecycle ----------------------------------------------------------------------------

    @Override
    public final void start() {
        ActiveHook hook = activeHook;
        if (hook != null && hook.onCurrentThread()) {
            if (hook.kind() == Kind.START) {
                return; // the start hook's own thread: its start is already under way
            }
            throw refusedFromHook(hook, "start");
        }
        while (true) {
            Transition current;
            boolean mine = false;
            synchronized (lock) {
                if (status == SandboxStatus.RUNNING) {
                    return;
                }
                if (status == SandboxStatus.DESTROYED) {
                    throw destroyedError();
                }
                current = transition;
                if (current == null) {
                    current = new Transition(Kind.START);
                    transition = current;
                    status = SandboxStatus.STARTING;
                    mine = true;
                }
            }
            if (mine) {
                runStart(current);
                return;
            }
            if (current.kind() == Kind.START) {
                await(current);
                return;
            }
            awaitQuietly(current);
        }
    }

    /** Starts the sandbox unless it is running; called by {@link #executeCommand} before every command. */
    protected void ensureRunning() {
        if (status != SandboxStatus.RUNNING) {
            start();
        }
    }

    /**
     * Starts the sandbox unless it is running and returns the handle on its physical sandbox. Every
     * access that bypasses {@link #executeCommand} (a {@link FileTransferSandbox} method, for one)
     * goes through here, so it starts the sandbox lazily exactly as a command does.
     */
    protected final H runningHandle() {
        ensureRunning();
        return handle().orElseThrow(() -> new SandboxNotReadyException("Sandbox '" + id
                + "' has no physical sandbox; it was stopped while this call began."));
    }

    private void runStart(Transition transition) {
        RuntimeException failure = null;
        try {
            StartOutcome outcome = acquire();
            activeHook = new ActiveHook(Thread.currentThread(), Kind.START, true);
            try {
                onStart.get().onStart(new SandboxStartEvent(this, outcome, this::executeDuringStart));
            } catch (Exception | Error hookFailure) {
                if (hookFailure instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new SandboxStartHookException(id, hookFailure);
            } finally {
                activeHook = null;
            }
        } catch (RuntimeException e) {
            failure = e;
        } catch (Error e) {
            failure = new SandboxException(StandardErrorCode.START_FAILED, "Sandbox '" + id + "' failed to start: " + e, e);
        }
        finish(transition, failure, SandboxStatus.RUNNING);
    }

    private StartOutcome acquire() {
        try {
            Optional<H> found = find();
            StartOutcome outcome;
            H acquired;
            if (found.isPresent()) {
                acquired = found.get();
                connect(acquired);
                outcome = StartOutcome.CONNECTED;
            } else {
                acquired = create();
                outcome = StartOutcome.CREATED;
            }
            adopt(acquired);
            lastOutcome = outcome;
            return outcome;
        } catch (SandboxException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Sandbox '" + id + "' start was interrupted.", e);
        } catch (Exception e) {
            throw new SandboxException(StandardErrorCode.START_FAILED, "Sandbox '" + id + "' failed to start: " + e.getMessage(), e);
        }
    }

    private void adopt(H acquired) {
        handle = acquired;
        sandboxId = sandboxIdOf(acquired);
    }

    @Override
    public final void stop() {
        refuseFromHook("stop");
        end(Kind.STOP);
    }

    @Override
    public final void destroy() {
        refuseFromHook("destroy");
        end(Kind.DESTROY);
    }

    /**
     * Stops or destroys, coalesced with an identical transition in flight; a start, or another
     * transition that may fail, is waited for and then the decision is made again.
     */
    private void end(Kind kind) {
        SandboxStatus done = kind == Kind.STOP ? SandboxStatus.STOPPED : SandboxStatus.DESTROYED;
        while (true) {
            Transition current;
            SandboxStatus before = null;
            synchronized (lock) {
                current = transition;
                if (current == null) {
                    if (status == done || status == SandboxStatus.DESTROYED) {
                        return;
                    }
                    before = status;
                    current = new Transition(kind);
                    transition = current;
                    status = kind == Kind.STOP ? SandboxStatus.STOPPING : SandboxStatus.DESTROYING;
                }
            }
            if (before != null) {
                runEnd(current, kind, before);
                return;
            }
            if (current.kind() == kind) {
                await(current);
                return;
            }
            awaitQuietly(current);
        }
    }

    /**
     * Stops or destroys the physical sandbox.
     *
     * @param before the status when this stop or destroy began (the live status is already
     *     STOPPING or DESTROYING)
     */
    private void runEnd(Transition transition, Kind kind, SandboxStatus before) {
        RuntimeException failure = null;
        try {
            Optional<H> target = handle();
            if (target.isEmpty()) {
                target = find();
                target.ifPresent(this::adopt);
            }
            if (target.isPresent()) {
                runLifecycleHook(kind, before == SandboxStatus.RUNNING);
                if (kind == Kind.STOP) {
                    doStop(target.get());
                } else {
                    doDestroy(target.get());
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new SandboxException(StandardErrorCode.INTERRUPTED, "Sandbox '" + id + "' " + verb(kind) + " was interrupted.", e);
        } catch (Exception e) {
            failure = new SandboxException(failedCode(kind), "Sandbox '" + id + "' failed to " + verb(kind) + ": " + e.getMessage(), e);
        } catch (Error e) {
            // Caught so the transition always ends; otherwise every later call would wait forever.
            failure = new SandboxException(failedCode(kind), "Sandbox '" + id + "' failed to " + verb(kind) + ": " + e, e);
        }
        SandboxStatus success = kind == Kind.STOP ? SandboxStatus.STOPPED : SandboxStatus.DESTROYED;
        if (failure == null && kind == Kind.STOP && before == SandboxStatus.PENDING && handle == null) {
            success = SandboxStatus.PENDING;
        }
        finish(transition, failure, success);
    }

    private static StandardErrorCode failedCode(Kind kind) {
        return kind == Kind.STOP ? StandardErrorCode.STOP_FAILED : StandardErrorCode.DESTROY_FAILED;
    }

    private static String verb(Kind kind) {
        return kind == Kind.STOP ? "stop" : "destroy";
    }

    private void runLifecycleHook(Kind kind, boolean canExec) {
        SandboxLifecycleHook hook = kind == Kind.STOP ? onStop : onDestroy;
        if (hook == null) {
            return;
        }
        ActiveHook active = new ActiveHook(Thread.currentThread(), kind, canExec);
        activeHook = active;
        try {
            hook.run(this);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.log(System.Logger.Level.WARNING, "Sandbox ''" + id + "'' " + active.name() + " hook failed: " + e.getMessage(), e);
        } finally {
            activeHook = null;
        }
    }

    private void finish(Transition finished, RuntimeException failure, SandboxStatus success) {
        synchronized (lock) {
            status = failure == null ? success : SandboxStatus.ERROR;
            transition = null;
        }
        if (failure == null) {
            finished.done().complete(null);
        } else {
            finished.done().completeExceptionally(failure);
            throw failure;
        }
    }

    private void refuseFromHook(String operation) {
        ActiveHook hook = activeHook;
        if (hook != null && hook.onCurrentThread()) {
            throw refusedFromHook(hook, operation);
        }
    }

    private SandboxNotReadyException refusedFromHook(ActiveHook hook, String operation) {
        return new SandboxNotReadyException("Sandbox '" + id + "' cannot " + operation + " from its own " + hook.name() + " hook.");
    }

    private void await(Transition other) {
        try {
            other.done().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Interrupted while waiting for sandbox '" + id + "'.", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException shared) {
                throw shared;
            }
            throw new SandboxException(StandardErrorCode.SANDBOX_ERROR, "Sandbox '" + id + "' failed: " + e.getCause(), e.getCause());
        }
    }

    private void awaitQuietly(Transition other) {
        try {
            other.done().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Interrupted while waiting for sandbox '" + id + "'.", e);
        } catch (ExecutionException ignored) {
            // The owner of that transition reports its failure; this caller only needed it to end.
        }
    }

    private SandboxDestroyedException destroyedError() {
        return new SandboxDestroyedException("Sandbox '" + id + "' was destroyed; create a new instance to use the session again.");
    }

    // ---- commands -----------------------------------------------------------------------------

    @Override
    public final CommandResult executeCommand(String command, List<String> args, CommandOptions options) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(options, "options");
        ActiveHook hook = activeHook;
        if (hook != null && hook.onCurrentThread()) {
            if (!hook.canExec()) {
                throw new SandboxNotReadyException("Sandbox '" + id + "' was not running when its " + hook.name()
                        + " hook began, so the hook cannot run commands in it.");
            }
            return doExecute(request(command, args, options));
        }
        ensureRunning();
        try {
            return doExecute(request(command, args, options));
        } catch (SandboxDestroyedException gone) {
            forgetVanishedSandbox(gone);
            throw gone;
        }
    }

    /**
     * The physical sandbox vanished under a running instance (a container removed from outside, a
     * deleted session directory, a deleted pod). A running instance would otherwise stay {@code
     * RUNNING} on a dead handle and every later command would fail the same way; it is stopped here
     * (the provider releases what it holds on the handle: exec channels, running commands) and the
     * handle dropped, so the next command or {@code start()} acquires a fresh one through the start
     * hooks. The instance is then {@link SandboxStatus#STOPPED}; a failed stop is added to {@code
     * gone} and leaves it {@link SandboxStatus#ERROR}. During a transition the transition itself ends the running state.
     */
    private void forgetVanishedSandbox(SandboxDestroyedException gone) {
        synchronized (lock) {
            if (status != SandboxStatus.RUNNING || transition != null) {
                return;
            }
        }
        try {
            stop();
        } catch (RuntimeException e) {
            gone.addSuppressed(e);
        }
        synchronized (lock) {
            if (transition == null && (status == SandboxStatus.STOPPED || status == SandboxStatus.ERROR)) {
                handle = null;
            }
        }
    }

    private CommandResult executeDuringStart(String command, List<String> args, CommandOptions options) {
        return doExecute(request(command, args, options));
    }

    private CommandRequest request(String command, List<String> args, CommandOptions options) {
        Map<String, String> env = new LinkedHashMap<>(envOverlay.get());
        env.putAll(options.env());
        return new CommandRequest(Sandboxes.join(command, args), env, options.cwd(), options.timeout(),
                options.onStdout(), options.onStderr(), options.maxRetainedBytes());
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[id=" + id + ", status=" + status + "]";
    }
}
