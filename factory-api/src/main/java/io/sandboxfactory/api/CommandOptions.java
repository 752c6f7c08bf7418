package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.DurationText;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Options for one command: working directory, extra environment, timeout, streaming callbacks and
 * the output cap. Immutable; build with {@link #builder()}.
 *
 * <p>Environment precedence is provider base environment &lt; the sandbox's overlay ({@link
 * MastraSandbox#setEnv}) &lt; {@link #env()}. A timeout kills the whole process tree and reports
 * exit code 124 with {@code timedOut=true}. Output beyond {@link #maxRetainedBytes()} keeps the
 * newest bytes and sets the truncation flag; callbacks still see every chunk.
 *
 * @since 0.1.0
 */
public final class CommandOptions {

    /** Output retained per stream unless configured otherwise: 16 MiB. */
    public static final long DEFAULT_MAX_RETAINED_BYTES = 16L * 1024 * 1024;

    private static final CommandOptions DEFAULTS = builder().build();

    private final Optional<String> cwd;
    private final Map<String, String> env;
    private final Optional<Duration> timeout;
    private final Optional<Consumer<String>> onStdout;
    private final Optional<Consumer<String>> onStderr;
    private final long maxRetainedBytes;

    private CommandOptions(Builder b) {
        this.cwd = Optional.ofNullable(b.cwd);
        this.env = Collections.unmodifiableMap(new LinkedHashMap<>(b.env));
        this.timeout = Optional.ofNullable(b.timeout);
        this.onStdout = Optional.ofNullable(b.onStdout);
        this.onStderr = Optional.ofNullable(b.onStderr);
        this.maxRetainedBytes = b.maxRetainedBytes;
    }

    /** No cwd, no extra env, no timeout, no callbacks, the default cap. */
    public static CommandOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.cwd = cwd.orElse(null);
        b.env.putAll(env);
        b.timeout = timeout.orElse(null);
        b.onStdout = onStdout.orElse(null);
        b.onStderr = onStderr.orElse(null);
        b.maxRetainedBytes = maxRetainedBytes;
        return b;
    }

    /** Working directory inside the sandbox; empty means the sandbox's default. */
    public Optional<String> cwd() {
        return cwd;
    }

    /** Per-call environment; wins over the sandbox overlay and the provider base env. */
    public Map<String, String> env() {
        return env;
    }

    public Optional<Duration> timeout() {
        return timeout;
    }

    public Optional<Consumer<String>> onStdout() {
        return onStdout;
    }

    public Optional<Consumer<String>> onStderr() {
        return onStderr;
    }

    public long maxRetainedBytes() {
        return maxRetainedBytes;
    }

    /** Rejects a null name or value with a sentence naming the variable (never its value). */
    static void requireVariable(String name, String value) {
        if (name == null) {
            throw new NullPointerException("An environment variable name is null; names must not be null.");
        }
        if (value == null) {
            throw new NullPointerException("Environment variable '" + name
                    + "' has a null value; values must not be null (use \"\" for an empty value).");
        }
    }

    /** Shows env keys only: values may hold secrets. */
    @Override
    public String toString() {
        return "CommandOptions[cwd=" + cwd.orElse("<default>") + ", envKeys=" + env.keySet()
                + ", timeout=" + timeout.map(Duration::toString).orElse("none")
                + ", maxRetainedBytes=" + maxRetainedBytes + "]";
    }

    /** Builder for {@link CommandOptions}. Not thread-safe. */
    public static final class Builder {
        private String cwd;
        private final Map<String, String> env = new LinkedHashMap<>();
        private Duration timeout;
        private Consumer<String> onStdout;
        private Consumer<String> onStderr;
        private long maxRetainedBytes = DEFAULT_MAX_RETAINED_BYTES;

        private Builder() {
        }

        public Builder cwd(String cwd) {
            this.cwd = cwd;
            return this;
        }

        /** Adds these variables to the per-call environment. Null keys or values are rejected. */
        public Builder env(Map<String, String> env) {
            env.forEach(this::env);
            return this;
        }

        public Builder env(String name, String value) {
            requireVariable(name, value);
            env.put(name, value);
            return this;
        }

        /** Kills the command after this long; must be positive. */
        public Builder timeout(Duration timeout) {
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Command timeout " + DurationText.of(timeout) + " is invalid; it must be positive.");
            }
            this.timeout = timeout;
            return this;
        }

        public Builder onStdout(Consumer<String> onStdout) {
            this.onStdout = onStdout;
            return this;
        }

        public Builder onStderr(Consumer<String> onStderr) {
            this.onStderr = onStderr;
            return this;
        }

        /** Newest bytes kept per stream; must be at least 0. */
        public Builder maxRetainedBytes(long maxRetainedBytes) {
            if (maxRetainedBytes < 0) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "maxRetainedBytes " + maxRetainedBytes + " is invalid; it must be at least 0.");
            }
            this.maxRetainedBytes = maxRetainedBytes;
            return this;
        }

        public CommandOptions build() {
            return new CommandOptions(this);
        }
    }
}
