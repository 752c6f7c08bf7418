package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.AbstractSandboxProvider;
import io.sandboxfactory.api.support.HostPaths;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The {@code local} provider: every session is a directory on the host, commands run through
 * {@code /bin/sh}. With {@code isolation: namespaces} (the default where bubblewrap works) every
 * process of a session runs inside one boundary of its own ({@link Bubblewrap}); with {@code none},
 * isolation is by directory and environment only.
 */
public final class LocalSandboxProvider extends AbstractSandboxProvider<LocalProviderConfig> {

    public static final String NAME = "local";

    private static final List<String> ALWAYS_PASSED = List.of("PATH", "HOME");
    private static final List<String> SETSID_CANDIDATES = List.of("/usr/bin/setsid", "/bin/setsid");
    private static final List<String> PERL_CANDIDATES = List.of("/usr/bin/perl", "/bin/perl");

    private static final Logger LOG = Logger.getLogger(LocalSandboxProvider.class.getName());

    private final String bubblewrap;

    public LocalSandboxProvider() {
        this(Bubblewrap.DEFAULT_PROGRAM);
    }

    /** @param bubblewrap the {@code bwrap} program to confine sessions with (a test gives one that does not work) */
    LocalSandboxProvider(String bubblewrap) {
        super(NAME, LocalProviderConfig.class, "Sessions as directories on the host; commands run with /bin/sh in their own process group,"
                + " inside one bubblewrap boundary per session unless isolation is none.");
        this.bubblewrap = bubblewrap;
    }

    @Override
    public FactorySandbox open(LocalProviderConfig config, ProviderContext context) {
        // The record checked root and env when the config was read; only the host-dependent default is left.
        Path root = config.root() == null
                ? context.stateDirectory().resolve("sessions")
                : HostPaths.expandHome(config.root());
        return new LocalFactorySandbox(root.normalize(), baseEnv(config, context.environment()), launchers(),
                context.stateDirectory().resolve("templates").resolve(NAME), boundaries(config));
    }

    /**
     * The boundaries sessions get: none when asked for; else bubblewrap (and perl for the fork
     * server inside) when they work here, probed once per open. Asked for explicitly, their absence
     * fails the open, before anything is made; by default it falls back to no isolation, with one
     * warning for this instance.
     */
    private Optional<LocalFactorySandbox.Boundaries> boundaries(LocalProviderConfig config) {
        if (LocalProviderConfig.NONE.equals(config.isolation())) {
            return Optional.empty();
        }
        Optional<String> perl = firstExecutable(PERL_CANDIDATES);
        if (perl.isPresent() && Bubblewrap.works(bubblewrap)) {
            return Optional.of(new LocalFactorySandbox.Boundaries(perl.get(),
                    new Bubblewrap(bubblewrap, LocalProviderConfig.HOST.equals(config.network())), HostUser.current(), config.volumes(),
                    firstExecutable(SETSID_CANDIDATES), ForkServer.fifoParent(ForkServer.SHARED_MEMORY)));
        }
        String missing = perl.isEmpty()
                ? "perl (at " + PERL_CANDIDATES + ") is missing: install the 'perl-base' package"
                : bubblewrap + " is missing or cannot make namespaces here: install the '" + Bubblewrap.PACKAGE + "' package";
        if (LocalProviderConfig.NAMESPACES.equals(config.isolation())) {
            throw new SandboxException(StandardErrorCode.PROVIDER_OPEN_FAILED, "providers.local.isolation is 'namespaces', but " + missing
                    + " (or set providers.local.isolation to 'none').");
        }
        LOG.warning("The local provider runs sessions WITHOUT isolation (isolation: none): " + missing
                + " (or set providers.local.isolation: none to silence this).");
        return Optional.empty();
    }

    static Map<String, String> baseEnv(LocalProviderConfig config, Map<String, String> host) {
        Map<String, String> env = new LinkedHashMap<>();
        if (config.inheritEnvironment()) {
            env.putAll(host);
        }
        for (String name : ALWAYS_PASSED) {
            if (host.containsKey(name)) {
                env.put(name, host.get(name));
            }
        }
        env.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String name : config.passEnv()) {
            if (host.containsKey(name)) {
                env.put(name, host.get(name));
            }
        }
        env.putAll(config.env());
        return env;
    }

    /** The fork server where there is perl (any Debian or Ubuntu has it), else the setsid program per command. */
    static Function<CommandThreads, Launcher> launchers() {
        Optional<String> perl = firstExecutable(PERL_CANDIDATES);
        if (perl.isPresent()) {
            Path fifoParent = ForkServer.fifoParent(ForkServer.SHARED_MEMORY).orElseGet(() -> Path.of(System.getProperty("java.io.tmpdir")));
            return threads -> new ForkServer(perl.get(), threads.pumps(), fifoParent);
        }
        String setsid = findSetsid();
        return threads -> new ProcessLauncher(setsid, threads.pumps());
    }

    static String findSetsid() {
        return firstExecutable(SETSID_CANDIDATES).orElseThrow(() -> new SandboxException(StandardErrorCode.PROVIDER_OPEN_FAILED, "The local provider needs perl (at " + PERL_CANDIDATES + ") or the setsid program (util-linux, at " + SETSID_CANDIDATES + ") to run commands in their own process group; found neither."));
    }

    private static Optional<String> firstExecutable(List<String> candidates) {
        return candidates.stream().filter(c -> Files.isExecutable(Path.of(c))).findFirst();
    }

    @Override
    public List<ErrorCodeSupplier> errorCodes() {
        return List.of(LocalErrorCode.values());
    }
}
