package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.core.config.ConfigValue;
import io.sandboxfactory.core.config.EffectiveConfig;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code factory config}: the effective configuration, every key with its value and where it came
 * from, secrets masked. Validates like any command (every error at once) but opens nothing.
 */
@Command(mixinStandardHelpOptions = true, name = "config",
        description = "Print the effective configuration: every key, its value and its source (default, file, environment, flag); secrets masked.",
        footerHeading = "%nExamples:%n", footer = {"  factory config", "  FACTORY_PROVIDER=docker factory --json config"})
public final class ConfigCommand implements Callable<Integer> {

    /** The flags that set config keys, by key. */
    private static final Map<String, String> FLAGS = Map.of("provider", "--provider", "stateDir", "--state-dir");

    @ParentCommand
    FactoryCommand root;

    @Override
    public Integer call() {
        Console console = root.console;
        EffectiveConfig config = new FactoryLauncher(console, root.global).builder(SessionListener.NONE, "cli")
                .effectiveConfig(key -> "flag " + FLAGS.getOrDefault(key, key));
        if (root.global.json) {
            List<Map<String, Object>> values = new ArrayList<>();
            for (ConfigValue value : config.values()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("key", value.key());
                row.put("value", value.value());
                row.put("source", value.source());
                values.add(row);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("origin", config.origin());
            doc.put("values", values);
            Json.print(console, doc);
            return ExitCodes.OK;
        }
        int width = config.values().stream().mapToInt(v -> v.key().length()).max().orElse(0);
        for (ConfigValue value : config.values()) {
            console.out().printf("%-" + width + "s = %s  (%s)%n", value.key(), shown(value.value()), value.source());
        }
        return ExitCodes.OK;
    }

    private static String shown(Object value) {
        if (value == null) {
            return "(unset)";
        }
        return value instanceof String text ? text : Json.compact(value);
    }
}
