import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads the JUnit XML reports of a Maven build (surefire: {@code <module>/target/surefire-reports/TEST-*.xml},
 * failsafe: {@code <module>/target/failsafe-reports*}{@code /TEST-*.xml}, every execution's directory) and
 * prints either a table of test time per module, unit tests and integration tests apart, or the tests that
 * failed. JDK only, run as a single-file program: {@code java scripts/TestTimes.java [options] [ROOT]}
 * (scripts/test-times.sh is the wrapper the other scripts call).
 *
 * <pre>
 *   (no option)        the table (default ROOT: the current directory)
 *   --failed           one failed test per line: "Class.method", with " [execution]" for a failsafe
 *                      execution other than the default one (provider-docker's exec-per-command)
 *   --since EPOCH_MS   ignore report files last modified before this instant (stale reports)
 * </pre>
 *
 * "s" columns sum the {@code time} attribute of every {@code testsuite} (one per test class); "span" is
 * the wall time from the earliest class start (file time minus class time) to the last report written,
 * which stays meaningful when classes run in parallel (then the sum exceeds the span).
 */
public class TestTimes {

    private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");

    /** Totals of one kind (unit or IT) in one module. */
    static final class Kind {
        double seconds;
        int tests;
        int failed;
        int skipped;
        long firstStartMillis = Long.MAX_VALUE;
        long lastEndMillis = Long.MIN_VALUE;

        void add(Kind other) {
            seconds += other.seconds;
            tests += other.tests;
            failed += other.failed;
            skipped += other.skipped;
        }

        String span() {
            return lastEndMillis == Long.MIN_VALUE ? "-" : String.format(Locale.ROOT, "%.1f", (lastEndMillis - firstStartMillis) / 1000.0);
        }
    }

    static final class Module {
        final Kind unit = new Kind();
        final Kind it = new Kind();
    }

    public static void main(String[] args) throws IOException {
        boolean failedOnly = false;
        long since = Long.MIN_VALUE;
        Path root = Path.of(".");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--failed" -> failedOnly = true;
                case "--since" -> since = Long.parseLong(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("usage: java scripts/TestTimes.java [--failed] [--since EPOCH_MS] [ROOT]");
                    return;
                }
                default -> root = Path.of(args[i]);
            }
        }
        root = root.toAbsolutePath().normalize();

        Map<String, Module> modules = new TreeMap<>();
        Set<String> failures = new LinkedHashSet<>();
        for (Path dir : reportDirectories(root)) {
            Path target = dir.getParent();
            String module = root.relativize(target.getParent()).toString();
            if (module.isEmpty()) {
                module = ".";
            }
            String dirName = dir.getFileName().toString();
            boolean it = dirName.startsWith("failsafe-reports");
            String execution = dirName.startsWith("failsafe-reports-") ? dirName.substring("failsafe-reports-".length()) : null;
            List<Path> reports;
            try (Stream<Path> files = Files.list(dir)) {
                reports = files.filter(p -> p.getFileName().toString().startsWith("TEST-") && p.getFileName().toString().endsWith(".xml"))
                        .sorted().toList();
            }
            for (Path report : reports) {
                long modified = Files.getLastModifiedTime(report).toMillis();
                if (modified < since) {
                    continue;
                }
                Module entry = modules.computeIfAbsent(module, m -> new Module());
                Kind kind = it ? entry.it : entry.unit;
                try {
                    read(report, kind, modified, execution, failures);
                } catch (XMLStreamException | RuntimeException e) {
                    System.err.println("test-times: cannot read " + root.relativize(report) + ": " + e.getMessage());
                }
            }
        }

        if (failedOnly) {
            failures.forEach(System.out::println);
            return;
        }
        printTable(order(root, modules));
    }

    /** target/surefire-reports and target/failsafe-reports* directories, at most a few levels down. */
    static List<Path> reportDirectories(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root, 5)) {
            return paths.filter(Files::isDirectory)
                    .filter(p -> p.getParent() != null && p.getParent().getFileName() != null
                            && p.getParent().getFileName().toString().equals("target"))
                    .filter(p -> {
                        String name = p.getFileName().toString();
                        return name.equals("surefire-reports") || name.startsWith("failsafe-reports");
                    })
                    .filter(p -> !root.relativize(p).toString().contains("/src/"))
                    .sorted().toList();
        }
    }

    static void read(Path report, Kind kind, long modified, String execution, Set<String> failures)
            throws IOException, XMLStreamException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        try (InputStream in = Files.newInputStream(report)) {
            XMLStreamReader xml = factory.createXMLStreamReader(in);
            String testcase = null;
            boolean testcaseFailed = false;
            int depth = 0;
            while (xml.hasNext()) {
                int event = xml.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    depth++;
                    String name = xml.getLocalName();
                    if (depth == 1 && name.equals("testsuite")) {
                        double seconds = number(xml.getAttributeValue(null, "time"));
                        kind.seconds += seconds;
                        kind.tests += (int) number(xml.getAttributeValue(null, "tests"));
                        kind.skipped += (int) number(xml.getAttributeValue(null, "skipped"));
                        kind.failed += (int) number(xml.getAttributeValue(null, "failures"))
                                + (int) number(xml.getAttributeValue(null, "errors"));
                        kind.firstStartMillis = Math.min(kind.firstStartMillis, modified - Math.round(seconds * 1000));
                        kind.lastEndMillis = Math.max(kind.lastEndMillis, modified);
                    } else if (depth == 2 && name.equals("testcase")) {
                        String className = String.valueOf(xml.getAttributeValue(null, "classname"));
                        testcase = className.substring(className.lastIndexOf('.') + 1) + "." + xml.getAttributeValue(null, "name")
                                + (execution == null ? "" : " [" + execution + "]");
                        testcaseFailed = false;
                    } else if (depth == 3 && testcase != null && (name.equals("failure") || name.equals("error"))) {
                        testcaseFailed = true;
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    if (depth == 2 && testcase != null) {
                        if (testcaseFailed) {
                            failures.add(testcase);
                        }
                        testcase = null;
                    }
                    depth--;
                }
            }
        }
    }

    static double number(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        return Double.parseDouble(value.replace(",", ""));
    }

    /** The modules in reactor order (the root pom's modules), the rest after them by name. */
    static Map<String, Module> order(Path root, Map<String, Module> modules) {
        Map<String, Module> ordered = new LinkedHashMap<>();
        try {
            Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
            while (m.find()) {
                Module module = modules.get(m.group(1));
                if (module != null) {
                    ordered.put(m.group(1), module);
                }
            }
        } catch (IOException e) {
            // No root pom: by name.
        }
        modules.forEach(ordered::putIfAbsent);
        return ordered;
    }

    static void printTable(Map<String, Module> modules) {
        System.out.println("Test time per module (seconds; from target/surefire-reports and target/failsafe-reports*/TEST-*.xml)");
        if (modules.isEmpty()) {
            System.out.println("  no test reports found");
            return;
        }
        int width = Math.max("module".length(), modules.keySet().stream().mapToInt(String::length).max().orElse(0));
        String format = "%-" + width + "s  %6s %8s %8s  %6s %8s %8s  %8s  %7s %6s%n";
        String header = String.format(Locale.ROOT, format, "module", "unit", "unit s", "span", "IT", "IT s", "span", "total s", "skipped", "failed");
        System.out.print(header);
        Module all = new Module();
        List<String> rows = new ArrayList<>();
        modules.forEach((name, module) -> {
            all.unit.add(module.unit);
            all.it.add(module.it);
            rows.add(row(format, name, module));
        });
        rows.forEach(System.out::print);
        System.out.println("-".repeat(header.strip().length()));
        System.out.print(row(format, "all", all));
        System.out.println("unit/IT: test count; s: sum of the test classes' times; span: first class start to last class end");
    }

    static String row(String format, String name, Module m) {
        return String.format(Locale.ROOT, format, name,
                m.unit.tests, String.format(Locale.ROOT, "%.1f", m.unit.seconds), m.unit.span(),
                m.it.tests, String.format(Locale.ROOT, "%.1f", m.it.seconds), m.it.span(),
                String.format(Locale.ROOT, "%.1f", m.unit.seconds + m.it.seconds),
                m.unit.skipped + m.it.skipped, m.unit.failed + m.it.failed);
    }
}
