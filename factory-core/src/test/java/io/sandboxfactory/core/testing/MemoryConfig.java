package io.sandboxfactory.core.testing;

import java.time.Duration;
import java.util.List;

/** Config of the {@code test-memory} provider: one key of each kind the binder must handle. */
public record MemoryConfig(String label, String networkMode, Integer slots, Duration idle, Boolean verbose,
                           List<String> tags, Boolean failOpen) {

    public MemoryConfig {
        label = label == null ? "memory" : label;
        networkMode = networkMode == null ? "none" : networkMode;
        slots = slots == null ? 1 : slots;
        idle = idle == null ? Duration.ofMinutes(5) : idle;
        verbose = verbose != null && verbose;
        tags = tags == null ? List.of() : List.copyOf(tags);
        failOpen = failOpen != null && failOpen;
        if (slots < 1) {
            throw new IllegalArgumentException("slots " + slots + " is invalid; it must be at least 1.");
        }
    }
}
