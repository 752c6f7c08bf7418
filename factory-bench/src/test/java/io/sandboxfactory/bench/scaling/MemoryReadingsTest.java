package io.sandboxfactory.bench.scaling;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryReadingsTest {

    @Test
    void theDaemonsHeapIsTheSumOfItsGenerationsUsedAndNotItsMetaspace() {
        String serial = """
                12345:
                 def new generation   total 4928K, used 1000K [0x00000000c0000000, 0x00000000c0550000, 0x00000000d5550000)
                  eden space 4416K,  22% used [0x00000000c0000000, 0x00000000c00fa000, 0x00000000c0450000)
                 tenured generation   total 10944K, used 5000K [0x00000000d5550000, 0x00000000d6000000, 0x0000000100000000)
                 Metaspace       used 20000K, committed 20480K, reserved 1067008K
                """;
        assertThat(DaemonMemory.heapUsed(serial)).isEqualTo(6000L * 1024);
        assertThat(DaemonMemory.heapUsed(" garbage-first heap   total 262144K, used 12345K [0x0]")).isEqualTo(12345L * 1024);
        assertThatThrownBy(() -> DaemonMemory.heapUsed("12345:\nsomething else")).hasMessageContaining("no heap usage");
    }

    @Test
    void theClassHistogramIsSummedByOwnerFirstMatchingPrefixFirst() {
        String histogram = """
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:          1000          64000  [B (java.base@17.0.15)
                   2:            10            480  io.sandboxfactory.core.internal.session.SessionEntry
                   3:            10            320  io.sandboxfactory.core.session.SessionHandle
                   4:             5            200  org.sqlite.core.NativeDB
                   5:             2             96  io.sandboxfactory.core.store.SqliteSessionStore
                   6:             3            144  io.sandboxfactory.provider.local.LocalSandbox
                   7:             1             40  io.sandboxfactory.core.SandboxFactory
                Total          1031          65280
                """;
        Map<String, Long> owners = HeapProbe.byOwner(histogram);
        assertThat(owners).containsEntry("memo", 800L).containsEntry("store", 296L).containsEntry("local sandboxes", 144L)
                .containsEntry("other factory objects", 40L);
    }
}
