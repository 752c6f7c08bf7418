package io.sandboxfactory.api;

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
 *       {@code find()} reports (left by an earlier process), and provision nothing.</li>
 *   <li>Environment: provider base env &lt; the overlay ({@link #setEnv}) &lt; per-call env.</li>
 * </ul>
 *
 * @param <H> the provider's handle on its physical sandbox (a path, a container id, ...)
 */
public abstract class MastraSandbox<H> implements ExecutableSandbox {

    private static final System.Logger LOG = System.getLogger(MastraSandbox.class.getName());

    private enum Kind { START, STOP, DESTROY }

    private record Transition(Kind kind, CompletableFuture<Void> done) {
        Transition(Kind kind) {
            this(kind, new CompletableFuture<>());
        }
    }

    private final String id;
    private final String name;
    private final String provider;

    private final Object lock = new Object();
    private volatile SandboxStatus status = SandboxStatus.PENDING;
    private Transition transition;
    private volatile H handle;
    private volatile String sandboxId;
    private volatile StartOutcome lastOutcome;
    private volatile Thread hookThread;

    private final AtomicReference<SandboxStartHook> onStart = new AtomicReference<>(SandboxStartHook.NONE);
    private volatile SandboxLifecycleHook onStop;
    private volatile SandboxLifecycleHook onDestroy;
    private final AtomicReference<Map<String, String>> envOverlay = new AtomicReference<>(Map.of());

    protected MastraSandbox(String id, String name, String provider) {
        this.id = requireText(id, "id");
        this.name = requireText(name, "name");
        this.provider = requireText(provider, "provider");
    }

    private static String requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("Sandbox " + what + " '" + value + "' is invalid; it must not be blank.");
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

    /** Whether this sandbox can run commands; a provider without exec overrides this to return false. */
    protected boolean supportsExec() {
        return true;
    }

    /** The current handle on the physical sandbox, once acquired. */
    protected final Optional<H> handle() {
        return Optional.ofNullable(handle);
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
    public final String provider() {
        return provider;
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

    /** Runs before every stop; its failure is logged and does not prevent the stop. */
    public final void setOnStop(SandboxLifecycleHook hook) {
        this.onStop = hook;
    }

    /** Runs before destroy; its failure is logged and does not prevent the destroy. */
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
            Map<String, String> next = update.apply(new LinkedHashMap<>(current));
            Map<String, String> copy = new LinkedHashMap<>();
            next.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "environment variable name"),
                    Objects.requireNonNull(v, () -> "value of environment variable " + k)));
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
        if (Thread.currentThread() == hookThread) {
            return;
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

    private void runStart(Transition transition) {
        RuntimeException failure = null;
        try {
            StartOutcome outcome = acquire();
            hookThread = Thread.currentThread();
            try {
                onStart.get().onStart(new SandboxStartEvent(this, outcome, this::executeDuringStart));
            } catch (Exception | Error hookFailure) {
                throw new SandboxStartHookException(id, hookFailure);
            } finally {
                hookThread = null;
            }
        } catch (RuntimeException e) {
            failure = e;
        } catch (Error e) {
            failure = new SandboxException("START_FAILED", "Sandbox '" + id + "' failed to start: " + e, e);
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
            throw new SandboxException("INTERRUPTED", "Sandbox '" + id + "' start was interrupted.", e);
        } catch (Exception e) {
            throw new SandboxException("START_FAILED", "Sandbox '" + id + "' failed to start: " + e.getMessage(), e);
        }
    }

    private void adopt(H acquired) {
        handle = acquired;
        sandboxId = sandboxIdOf(acquired);
    }

    @Override
    public final void stop() {
        refuseFromHook("stop");
        while (true) {
            Transition current;
            boolean mine = false;
            synchronized (lock) {
                current = transition;
                if (current == null) {
                    if (status == SandboxStatus.STOPPED || status == SandboxStatus.DESTROYED) {
                        return;
                    }
                    current = new Transition(Kind.STOP);
                    transition = current;
                    status = SandboxStatus.STOPPING;
                    mine = true;
                }
            }
            if (mine) {
                runEnd(current, Kind.STOP);
                return;
            }
            if (current.kind() == Kind.STOP) {
                await(current);
                return;
            }
            if (current.kind() == Kind.DESTROY) {
                awaitQuietly(current);
                return;
            }
            awaitQuietly(current);
        }
    }

    @Override
    public final void destroy() {
        refuseFromHook("destroy");
        while (true) {
            Transition current;
            boolean mine = false;
            synchronized (lock) {
                current = transition;
                if (current == null) {
                    if (status == SandboxStatus.DESTROYED) {
                        return;
                    }
                    current = new Transition(Kind.DESTROY);
                    transition = current;
                    status = SandboxStatus.DESTROYING;
                    mine = true;
                }
            }
            if (mine) {
                runEnd(current, Kind.DESTROY);
                return;
            }
            if (current.kind() == Kind.DESTROY) {
                await(current);
                return;
            }
            awaitQuietly(current);
        }
    }

    private void runEnd(Transition transition, Kind kind) {
        RuntimeException failure = null;
        SandboxStatus previous = status;
        try {
            Optional<H> target = handle();
            if (target.isEmpty()) {
                target = find();
                target.ifPresent(this::adopt);
            }
            if (target.isPresent()) {
                runLifecycleHook(kind == Kind.STOP ? onStop : onDestroy, kind);
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
            failure = new SandboxException("INTERRUPTED", "Sandbox '" + id + "' " + verb(kind) + " was interrupted.", e);
        } catch (Exception e) {
            failure = new SandboxException(kind + "_FAILED", "Sandbox '" + id + "' failed to " + verb(kind) + ": " + e.getMessage(), e);
        }
        SandboxStatus success = kind == Kind.STOP ? SandboxStatus.STOPPED : SandboxStatus.DESTROYED;
        if (failure == null && kind == Kind.STOP && previous == SandboxStatus.PENDING && handle == null) {
            success = SandboxStatus.PENDING;
        }
        finish(transition, failure, success);
    }

    private static String verb(Kind kind) {
        return kind == Kind.STOP ? "stop" : "destroy";
    }

    private void runLifecycleHook(SandboxLifecycleHook hook, Kind kind) {
        if (hook == null) {
            return;
        }
        try {
            hook.run(this);
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "Sandbox ''" + id + "'' on" + (kind == Kind.STOP ? "Stop" : "Destroy")
                    + " hook failed: " + e.getMessage(), e);
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
        if (Thread.currentThread() == hookThread) {
            throw new SandboxNotReadyException("Sandbox '" + id + "' cannot " + operation + " from its own start hook.");
        }
    }

    private void await(Transition other) {
        try {
            other.done().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("INTERRUPTED", "Interrupted while waiting for sandbox '" + id + "'.", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException shared) {
                throw shared;
            }
            throw new SandboxException("SANDBOX_ERROR", "Sandbox '" + id + "' failed: " + e.getCause(), e.getCause());
        }
    }

    private void awaitQuietly(Transition other) {
        try {
            other.done().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("INTERRUPTED", "Interrupted while waiting for sandbox '" + id + "'.", e);
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
        if (!supportsExec()) {
            throw Sandboxes.execUnsupported(provider);
        }
        if (Thread.currentThread() != hookThread) {
            ensureRunning();
        }
        return doExecute(request(command, args, options));
    }

    private CommandResult executeDuringStart(String command, List<String> args, CommandOptions options) {
        if (!supportsExec()) {
            throw Sandboxes.execUnsupported(provider);
        }
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
        return getClass().getSimpleName() + "[id=" + id + ", provider=" + provider + ", status=" + status + "]";
    }
}
