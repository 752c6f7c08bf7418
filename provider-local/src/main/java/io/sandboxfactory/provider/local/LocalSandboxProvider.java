package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.ErrorCode;
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

/**
 * The {@code local} provider: every session is a directory on the host, commands run through
 * {@code /bin/sh}. Isolation is by directory and environment only (no containment), which makes it
 * the fast default for trusted work and tests.
 */
public final class LocalSandboxProvider extends AbstractSandboxProvider<LocalProviderConfig> {

    public static final String NAME = "local";

    private static final List<String> ALWAYS_PASSED = List.of("PATH", "HOME");
    private static final List<String> SETSID_CANDIDATES = List.of("/usr/bin/setsid", "/bin/setsid");
    private static final List<String> PERL_CANDIDATES = List.of("/usr/bin/perl", "/bin/perl");

    public LocalSandboxProvider() {
        super(NAME, LocalProviderConfig.class, "Sessions as directories on the host; commands run with /bin/sh in their own process group.");
    }

    @Override
    public FactorySandbox open(LocalProviderConfig config, ProviderContext context) {
        // The record checked root and env when the config was read; only the host-dependent default is left.
        Path root = config.root() == null
                ? context.stateDirectory().resolve("sessions")
                : HostPaths.expandHome(config.root());
        return new LocalFactorySandbox(root.normalize(), baseEnv(config, context.environment()), launchers(),
                context.stateDirectory().resolve("templates").resolve(NAME));
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
            return threads -> new ForkServer(perl.get(), threads.pumps());
        }
        String setsid = findSetsid();
        return threads -> new ProcessLauncher(setsid, threads.pumps());
    }

    static String findSetsid() {
        return firstExecutable(SETSID_CANDIDATES).orElseThrow(() -> new SandboxException(ErrorCode.PROVIDER_OPEN_FAILED, "The local provider needs perl (at " + PERL_CANDIDATES + ") or the setsid program (util-linux, at " + SETSID_CANDIDATES + ") to run commands in their own process group; found neither."));
    }

    private static Optional<String> firstExecutable(List<String> candidates) {
        return candidates.stream().filter(c -> Files.isExecutable(Path.of(c))).findFirst();
    }
}
