package io.sandboxfactory.core.hardening;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A host process for the hardening tests: builds a real {@link SandboxFactory} (local provider,
 * default SQLite store) on a shared state directory and opens one session from one or more threads.
 * Arguments are {@code key=value}: {@code state}, {@code repo}, {@code session}, {@code setup}
 * (optional), {@code threads} (default 1), {@code await} (a file to wait for before opening, so
 * several processes open at once), {@code block} (a {@link SessionPhase} at which the listener
 * stops the open forever, so the parent can kill it there), {@code hold} (keep the factory open
 * until stdin closes), {@code run} (a command to run in the session after the open), {@code root}
 * (the local provider's root, for hosts that share one provider but not a state directory), any
 * number of {@code env.NAME=value} for {@code providers.local.env} and of {@code factoryenv.NAME=value}
 * for the factory's environment (e.g. {@code FACTORY_STORE_*}, to share a PostgreSQL store), and
 * {@code passenv} (comma-separated names of this process's variables the factory's environment
 * gets too: a secret such as the store's password comes that way, never as an argument).
 *
 * <p>Stdout lines: {@code PHASE <phase>} as the machinery reports it, {@code BLOCKED <phase>} once
 * the open is parked, then {@code RESULT opens=<n> failed=<n> instances=<n> created=<n>} (how many
 * distinct sandbox instances the threads got and how many of those were {@code CREATED}), and
 * {@code FAILED <exception> <code>: <message>} per failed open, and {@code RAN exit=<code>} after {@code run}.
 */
public final class OpenSessionChild {

    private OpenSessionChild() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, String> factoryEnv = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = arg.substring(0, eq);
            String value = arg.substring(eq + 1);
            if (key.startsWith("env.")) {
                env.put(key.substring("env.".length()), value);
            } else if (key.startsWith("factoryenv.")) {
                factoryEnv.put(key.substring("factoryenv.".length()), value);
            } else {
                options.put(key, value);
            }
        }
        for (String name : options.getOrDefault("passenv", "").split(",")) {
            if (!name.isBlank() && System.getenv(name) != null) {
                factoryEnv.put(name, System.getenv(name));
            }
        }
        String block = options.getOrDefault("block", "");
        int threads = Integer.parseInt(options.getOrDefault("threads", "1"));
        Map<String, Object> local = new LinkedHashMap<>(Map.of("env", env));
        if (options.containsKey("root")) {
            local.put("root", options.get("root"));
        }
        if (options.containsKey("isolation")) {
            local.put("isolation", options.get("isolation"));
        }
        if (options.containsKey("volume")) {
            local.put("volumes", List.of(options.get("volume")));
        }
        FactoryConfig config = FactoryConfig.builder().providerSection("local", local).build();
        try (SandboxFactory factory = SandboxFactory.builder().config(config).provider("local")
                .stateDirectory(Path.of(options.get("state"))).environment(factoryEnv)
                .sessionListener(new PrintingListener(block)).build()) {
            if (options.containsKey("await")) {
                awaitFile(Path.of(options.get("await")));
            }
            SessionSpecBuilder spec = SessionSpec.builder(options.get("session")).repository(options.get("repo"))
                    .branch(options.getOrDefault("branch", "work")).baseBranch(options.getOrDefault("base", "main"));
            if (options.containsKey("setup")) {
                spec.setupCommands(options.get("setup"));
            }
            MastraSandbox<?> sandbox = open(factory, spec.build(), threads);
            if (options.containsKey("run")) {
                say("RAN exit=" + sandbox.executeCommand(options.get("run"), List.of(), CommandOptions.defaults()).exitCode());
            }
            if (Boolean.parseBoolean(options.getOrDefault("hold", "false"))) {
                say("HOLDING");
                System.in.read();
            }
        }
    }

    /** Opens from {@code threads} threads at once; returns one of the sandboxes they got. */
    private static MastraSandbox<?> open(SandboxFactory factory, SessionSpec spec, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<CompletableFuture<MastraSandbox<?>>> opens = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                opens.add(CompletableFuture.supplyAsync(() -> factory.openSession(spec).sandbox(), pool));
            }
            Set<MastraSandbox<?>> instances = Collections.newSetFromMap(new IdentityHashMap<>());
            int failed = 0;
            for (CompletableFuture<MastraSandbox<?>> open : opens) {
                try {
                    instances.add(open.get(5, TimeUnit.MINUTES));
                } catch (java.util.concurrent.ExecutionException e) {
                    failed++;
                    String code = e.getCause() instanceof SandboxException s ? " " + s.code() : "";
                    say("FAILED " + e.getCause().getClass().getSimpleName() + code + ": " + e.getCause().getMessage());
                }
            }
            long created = instances.stream().filter(s -> s.lastStartOutcome().orElse(null) == StartOutcome.CREATED).count();
            say("RESULT opens=" + threads + " failed=" + failed + " instances=" + instances.size() + " created=" + created);
            return instances.stream().findFirst().orElse(null);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void awaitFile(Path file) {
        say("READY");
        try {
            while (!Files.exists(file)) {
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** Reports phases on stdout and parks the open for good at the phase to block at. */
    private record PrintingListener(String block) implements SessionListener {
        @Override
        public void onPhase(String sessionId, SessionPhase phase, String detail) {
            say("PHASE " + phase);
            if (phase.name().equals(block)) {
                say("BLOCKED " + phase);
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
