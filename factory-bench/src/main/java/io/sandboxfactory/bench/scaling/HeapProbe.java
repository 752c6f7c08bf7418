package io.sandboxfactory.bench.scaling;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * This JVM's live heap: the bytes in use after full collections, and the live objects' shallow
 * bytes by owner (the session memo, the session store, the local provider's sandboxes, the rest of
 * the factory), from the JVM's own class histogram (which collects first).
 */
public final class HeapProbe {

    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    /** Class-name prefixes and the owner they are counted under, first match wins. */
    private static final List<Owner> OWNERS = List.of(
            new Owner("io.sandboxfactory.core.session.", "memo"),
            new Owner("io.sandboxfactory.core.internal.session.", "memo"),
            new Owner("io.sandboxfactory.core.store.", "store"),
            new Owner("io.sandboxfactory.core.internal.store.", "store"),
            new Owner("io.sandboxfactory.store.", "store"),
            new Owner("org.sqlite.", "store"),
            new Owner("io.sandboxfactory.provider.local.", "local sandboxes"),
            new Owner("io.sandboxfactory.", "other factory objects"));

    private record Owner(String prefix, String name) {
    }

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    /** Heap bytes in use after two full collections (the second frees what the first's finalization released). */
    public long liveBytes() {
        memory.gc();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Shallow bytes of live objects by owner. */
    public Map<String, Long> shallowBytesByOwner() throws Exception {
        String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        return byOwner(histogram);
    }

    static Map<String, Long> byOwner(String histogram) {
        Map<String, Long> out = new LinkedHashMap<>();
        OWNERS.forEach(owner -> out.putIfAbsent(owner.name(), 0L));
        for (String line : histogram.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                String type = row.group(3);
                OWNERS.stream().filter(owner -> type.startsWith(owner.prefix())).findFirst()
                        .ifPresent(owner -> out.merge(owner.name(), Long.parseLong(row.group(2)), Long::sum));
            }
        }
        return out;
    }
}
