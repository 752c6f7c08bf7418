package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code factory providers}: what discovery found, where from, and what each one's config section takes. */
@Command(mixinStandardHelpOptions = true, name = "providers", description = "List every discovered sandbox provider, the jar it came from and its config keys (providers.<name>.<key>).",
        footerHeading = "%nExamples:%n", footer = {"  factory providers", "  FACTORY_PLUGINS=./plugins factory --json providers"})
public final class ProvidersCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Override
    public Integer call() {
        Console console = root.console;
        try (SandboxFactory factory = new FactoryLauncher(console, root.global).open(SessionListener.NONE)) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (DiscoveredProvider provider : factory.providers()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", provider.name());
                boolean selected = provider.name().equals(factory.providerName());
                row.put("selected", selected);
                // Only the selected provider is configured here, so only its isolation is known.
                row.put("isolation", selected ? factory.factorySandbox().isolation() : null);
                row.put("class", provider.providerClass().getName());
                row.put("jar", provider.location());
                row.put("configKeys", configKeys(provider.configType()));
                row.put("description", provider.description());
                rows.add(row);
            }
            if (root.global.json) {
                Json.print(console, Map.of("providers", rows));
            } else {
                for (Map<String, Object> row : rows) {
                    console.out().printf("%s%s  %s%n", row.get("name"), Boolean.TRUE.equals(row.get("selected")) ? " (selected)" : "",
                            row.get("description"));
                    if (row.get("isolation") != null) {
                        console.out().printf("    isolation: %s%n", row.get("isolation"));
                    }
                    console.out().printf("    class:     %s%n    jar:       %s%n    config:    %s%n", row.get("class"), row.get("jar"),
                            ((List<?>) row.get("configKeys")).isEmpty() ? "(none)" : String.join(", ", castStrings(row.get("configKeys"))));
                }
            }
            return ExitCodes.OK;
        }
    }

    static List<String> configKeys(Class<?> configType) {
        if (configType.isRecord()) {
            return Arrays.stream(configType.getRecordComponents()).map(RecordComponent::getName).toList();
        }
        return Arrays.stream(configType.getDeclaredFields())
                .filter(f -> !java.lang.reflect.Modifier.isStatic(f.getModifiers()))
                .map(java.lang.reflect.Field::getName).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<String> castStrings(Object list) {
        return (List<String>) list;
    }
}
