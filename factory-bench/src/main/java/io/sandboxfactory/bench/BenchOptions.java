package io.sandboxfactory.bench;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** The command line of {@code factory bench}. */
/** {@code markdown}: the file whose section between the bench markers gets the table ({@code --markdown [FILE]}), if any. */
public record BenchOptions(Plan plan, Path out, Path factory, String image, boolean docker, boolean cli, boolean scaling,
                           Optional<Path> markdown) {

    public static final String USAGE = """
            usage: factory bench [--help] [--quick] [--rounds N] [--out DIR] [--markdown [FILE]] [--no-docker] [--no-cli] [--no-scaling] [--image IMAGE] [--factory PATH]
              --quick       fewer rounds, curves up to 100 sessions (two or three minutes)
              --rounds N    rounds of the exec groups (default 100, --quick 15)
              --out DIR     where bench.json and bench.svg go (default ./bench-results)
              --markdown [FILE]  also write the table between <!-- bench:start --> and <!-- bench:end --> in FILE
                            (default: this repository's docs/performance.md)
              --no-docker   leave out the Docker provider, docker exec/cp and Testcontainers
              --no-cli      leave out factory exec/run/open through the factory command
              --no-scaling  leave out the scaling curves
              --image IMAGE the Docker image (default sandbox-factory/test-base:latest)
              --factory P   the factory command to run (default: this repository's ./factory)""";

    public static BenchOptions parse(String[] args, Path defaultFactory, Path defaultMarkdown) {
        Plan plan = Plan.full();
        Integer rounds = null;
        Path out = Path.of("bench-results");
        Path factory = defaultFactory;
        String image = "sandbox-factory/test-base:latest";
        boolean docker = true;
        boolean cli = true;
        boolean scaling = true;
        Optional<Path> markdown = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> plan = Plan.quick();
                case "--rounds" -> rounds = number(args, ++i);
                case "--out" -> out = Path.of(value(args, ++i));
                case "--factory" -> factory = Path.of(value(args, ++i));
                case "--image" -> image = value(args, ++i);
                case "--no-docker" -> docker = false;
                case "--no-cli" -> cli = false;
                case "--no-scaling" -> scaling = false;
                case "--markdown" -> {
                    // The file is optional: the next argument is it unless it is another option.
                    boolean given = i + 1 < args.length && !args[i + 1].startsWith("--");
                    markdown = Optional.of(given ? Path.of(args[++i]) : defaultMarkdown);
                }
                default -> throw new IllegalArgumentException("Unknown option '" + args[i] + "'.\n" + USAGE);
            }
        }
        return new BenchOptions(rounds == null ? plan : plan.withExecRounds(rounds), out, factory, image, docker, cli, scaling, markdown);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException("Option '" + args[i - 1] + "' needs a value.\n" + USAGE);
        }
        return args[i];
    }

    private static int number(String[] args, int i) {
        String text = value(args, i);
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "Option '%s' value '%s' is invalid; it must be a whole number.",
                    args[i - 1], text));
        }
    }
}
