package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.store.api.StoreSettings;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code store:} section: which {@code SessionStore} keeps sessions, leases and generations.
 * {@code sqlite} (the default) is a file in the state directory; any other type is a {@code
 * SessionStoreProvider} found on the class path ({@code postgres} in the {@code store-postgres} jar,
 * which the {@code factory} command includes). The password is never a value here: {@code
 * passwordEnv} names the environment variable that holds it. A store reads it as the SPI's
 * {@link StoreSettings}, the rules below already checked.
 *
 * @param type the store type ({@code sqlite}, {@code postgres}, a plugin's)
 * @param url the JDBC URL of a server store, without credentials
 * @param user the database user
 * @param passwordEnv the environment variable holding the user's password
 * @param schema the database schema the store's tables live in (created when missing)
 * @param poolSize at most this many connections per factory
 * @param leaseTtl how long a session lease lives without a heartbeat (renewed every third of it)
 * @param connectTimeout how long an operation waits for a connection before it fails (database down); a
 *     PostgreSQL store whose connections are all in use waits six times it before it reports itself busy
 */
public record StoreConfig(String type, Optional<String> url, Optional<String> user, Optional<String> passwordEnv,
                          Optional<String> schema, Optional<Integer> poolSize, Duration leaseTtl, Duration connectTimeout)
        implements StoreSettings {

    public static final String SQLITE = "sqlite";
    /** The keys of the section, in the order environment overrides apply. */
    public static final List<String> KEYS = List.of("type", "url", "user", "passwordEnv", "schema", "poolSize", "leaseTtl",
            "connectTimeout");
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9-]*");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final Pattern CREDENTIALS_IN_URL = Pattern.compile("(?i)(//[^/@?]*:[^/@?]*@|[?&;](password|sslpassword)=)");

    public StoreConfig {
        type = Objects.requireNonNullElse(type, SQLITE).trim();
        url = Objects.requireNonNullElse(url, Optional.<String>empty()).filter(u -> !u.isBlank());
        user = Objects.requireNonNullElse(user, Optional.<String>empty()).filter(u -> !u.isBlank());
        passwordEnv = Objects.requireNonNullElse(passwordEnv, Optional.<String>empty()).filter(u -> !u.isBlank());
        schema = Objects.requireNonNullElse(schema, Optional.<String>empty()).filter(u -> !u.isBlank());
        poolSize = Objects.requireNonNullElse(poolSize, Optional.empty());
        leaseTtl = Objects.requireNonNullElse(leaseTtl, DEFAULT_LEASE_TTL);
        connectTimeout = Objects.requireNonNullElse(connectTimeout, DEFAULT_CONNECT_TIMEOUT);
        // Keys are relative to store, which the config reader prefixes.
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        if (!TYPE.matcher(type).matches()) {
            problems.reject("type", type, "it must match " + TYPE.pattern());
        }
        if (url.filter(u -> CREDENTIALS_IN_URL.matcher(u).find()).isPresent()) {
            // Not echoed: it holds a secret.
            problems.reject("url", null, "it holds a password; put the password in an environment variable and name it in"
                    + " store.passwordEnv");
        }
        passwordEnv.filter(name -> !name.matches("[A-Za-z_][A-Za-z0-9_]*"))
                .ifPresent(name -> problems.reject("passwordEnv", name, "it must be an environment variable name"));
        schema.filter(s -> !IDENTIFIER.matcher(s).matches())
                .ifPresent(s -> problems.reject("schema", s, "it must match " + IDENTIFIER.pattern()));
        poolSize.filter(n -> n < 1 || n > 64).ifPresent(n -> problems.reject("poolSize", n, "it must be between 1 and 64"));
        if (leaseTtl.toMillis() < 300) {
            problems.reject("leaseTtl", leaseTtl, "it must be at least 300 ms");
        }
        if (connectTimeout.toMillis() < 250) {
            problems.reject("connectTimeout", connectTimeout, "it must be at least 250 ms");
        }
        problems.throwIfAny();
        schema = schema.map(s -> s.toLowerCase(Locale.ROOT));
    }

    /** A copy with {@code key} (one of {@link #KEYS}) set from its text form, as an environment variable gives it. */
    public StoreConfig with(String key, String text) {
        Optional<String> value = Optional.of(text);
        return switch (key) {
            case "type" -> new StoreConfig(text, url, user, passwordEnv, schema, poolSize, leaseTtl, connectTimeout);
            case "url" -> new StoreConfig(type, value, user, passwordEnv, schema, poolSize, leaseTtl, connectTimeout);
            case "user" -> new StoreConfig(type, url, value, passwordEnv, schema, poolSize, leaseTtl, connectTimeout);
            case "passwordEnv" -> new StoreConfig(type, url, user, value, schema, poolSize, leaseTtl, connectTimeout);
            case "schema" -> new StoreConfig(type, url, user, passwordEnv, value, poolSize, leaseTtl, connectTimeout);
            case "poolSize" -> new StoreConfig(type, url, user, passwordEnv, schema, Optional.of(wholeNumber(key, text)), leaseTtl,
                    connectTimeout);
            case "leaseTtl" -> new StoreConfig(type, url, user, passwordEnv, schema, poolSize, DurationFormat.parse(text), connectTimeout);
            case "connectTimeout" -> new StoreConfig(type, url, user, passwordEnv, schema, poolSize, leaseTtl, DurationFormat.parse(text));
            default -> throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Unknown store key '" + key + "'; known keys: " + KEYS + ".");
        };
    }

    private static int wholeNumber(String key, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidConfigValueException(key, text, "it must be a whole number");
        }
    }

    /** The embedded default: SQLite in the state directory, ten-second leases. */
    public static StoreConfig defaults() {
        return new StoreConfig(null, null, null, null, null, null, null, null);
    }

    /** No password here; the variable holding it is named, never read. */
    @Override
    public String toString() {
        return "StoreConfig[type=" + type + ", url=" + url.orElse("<none>") + ", user=" + user.orElse("<none>") + ", passwordEnv="
                + passwordEnv.orElse("<none>") + ", schema=" + schema.orElse("<default>") + ", poolSize=" + poolSize.map(String::valueOf)
                .orElse("<default>") + ", leaseTtl=" + leaseTtl + ", connectTimeout=" + connectTimeout + "]";
    }
}
