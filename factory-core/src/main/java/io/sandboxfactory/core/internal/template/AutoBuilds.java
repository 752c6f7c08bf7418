package io.sandboxfactory.core.internal.template;

import io.sandboxfactory.core.template.TemplateRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * {@code templates.autoBuild}: builds a template in the background after an open's setup when none
 * matches, at most one build per key at a time in this factory. {@link #close} waits for a build
 * in flight (bounded), so a short-lived process such as {@code factory open} still leaves the
 * template behind instead of a half-built one.
 */
public final class AutoBuilds implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AutoBuilds.class);

    private final TemplateBuilder builder;
    private final boolean enabled;
    private final Duration closeWait;
    private final Set<TemplateKey> building = ConcurrentHashMap.newKeySet();
    /** Only when {@code templates.autoBuild} is on: a factory without it holds no executor. */
    private final ExecutorService executor;

    /**
     * @param enabled {@code templates.autoBuild}; when false, {@link #request} builds nothing
     * @param closeWait how long {@link #close} waits for a build in flight
     */
    public AutoBuilds(TemplateBuilder builder, boolean enabled, Duration closeWait) {
        this.builder = enabled ? Objects.requireNonNull(builder, "builder") : builder;
        this.enabled = enabled;
        this.executor = enabled ? Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "template-auto-build");
            t.setDaemon(true);
            return t;
        }) : null;
        this.closeWait = Objects.requireNonNull(closeWait, "closeWait");
    }

    /** Builds nothing: {@code templates.autoBuild} off. */
    public static AutoBuilds disabled() {
        return new AutoBuilds(null, false, Duration.ZERO);
    }

    /** Whether {@code templates.autoBuild} is on. */
    public boolean enabled() {
        return enabled;
    }

    /** Builds {@code request}'s template in the background unless one for {@code key} is being built here already. */
    public void request(TemplateKey key, TemplateRequest request) {
        if (!enabled || !building.add(key)) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    LOG.info("Building a template of {} in the background (templates.autoBuild).", request.describe());
                    builder.build(request);
                } catch (RuntimeException e) {
                    LOG.warn("The background template build of {} failed: {}", request.describe(), e.getMessage());
                } finally {
                    building.remove(key);
                }
            });
        } catch (RuntimeException rejected) {
            building.remove(key);
        }
    }

    @Override
    public void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(closeWait.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("A background template build was still running when the factory closed; it was abandoned.");
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
