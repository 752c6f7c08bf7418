package io.sandboxfactory.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What a hung CLI command was doing when a test gave up on it: the thread dumps of its JVM, of the
 * JVMs it started and of the state directory's daemons (a daemon is detached, so not a descendant),
 * and the end of each daemon log. Taken before the command is killed, since a hang that shows once
 * in many loaded runs cannot be reproduced afterwards.
 */
final class HangReport {

    private static final int LOG_TAIL_LINES = 200;

    private HangReport() {
    }

    static String of(ProcessHandle command, Optional<Path> stateDir) {
        Map<Long, ProcessHandle> jvms = new LinkedHashMap<>();
        command.descendants().forEach(p -> jvms.put(p.pid(), p));
        jvms.put(command.pid(), command);
        Optional<Daemons> daemons = stateDir.map(Daemons::new);
        daemons.ifPresent(d -> d.processes().forEach(p -> jvms.put(p.pid(), p)));
        StringBuilder report = new StringBuilder();
        jvms.values().stream().filter(HangReport::isJava).forEach(p -> report.append("\n--- threads of pid ").append(p.pid())
                .append(" (").append(p.info().commandLine().orElse("?")).append(") ---\n").append(threadDump(p.pid())));
        daemons.ifPresent(d -> d.logs().forEach(log -> report.append("\n--- last ").append(LOG_TAIL_LINES).append(" lines of ")
                .append(log).append(" ---\n").append(tail(log))));
        return report.toString();
    }

    private static boolean isJava(ProcessHandle process) {
        return process.isAlive() && process.info().command().filter(c -> Path.of(c).getFileName().toString().equals("java")).isPresent();
    }

    private static String threadDump(long pid) {
        Path jcmd = Path.of(CliProcess.javaBin()).resolveSibling("jcmd");
        try {
            // A file, not a pipe: nothing is left blocked on a full pipe when jcmd itself hangs.
            Path out = Files.createTempFile("hang-report-", ".txt");
            try {
                Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print").redirectErrorStream(true)
                        .redirectOutput(out.toFile()).start();
                if (!dump.waitFor(60, TimeUnit.SECONDS)) {
                    dump.destroyForcibly();
                    return "(jcmd did not answer within 60 s)\n" + Files.readString(out, StandardCharsets.UTF_8);
                }
                return Files.readString(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            return "(no thread dump: " + e + ")\n";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)\n";
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())) + "\n";
        } catch (IOException e) {
            return "(unreadable: " + e + ")\n";
        }
    }
}
