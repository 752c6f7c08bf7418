package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.OtherProviders;
import io.sandboxfactory.cli.session.SessionStates;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;

/** {@code factory list}: every session the store knows. */
@Command(mixinStandardHelpOptions = true, name = "list", description = "List sessions: provider, status, branch, created and last-used times.",
        footerHeading = "%nExamples:%n", footer = {"  factory list", "  factory --json list"})
public final class ListCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Override
    public Integer call() {
        Console console = root.console;
        FactoryLauncher launcher = new FactoryLauncher(console, root.global);
        try (FactorySource.Use use = console.factories().use(launcher, SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            List<Map<String, Object>> rows = new ArrayList<>();
            try (SessionStates states = new SessionStates(factory, OtherProviders.of(launcher))) {
                for (SessionRecord record : factory.sessionStore().list()) {
                    rows.add(states.describe(record));
                }
            }
            if (root.global.json) {
                Json.print(console, Map.of("sessions", rows));
            } else {
                String format = "%-24s %-9s %-11s %-12s %-24s %-20s %-20s%n";
                console.out().printf(format, "SESSION", "PROVIDER", "STATUS", "ISOLATION", "BRANCH", "CREATED", "LAST USED");
                for (Map<String, Object> row : rows) {
                    console.out().printf(format, row.get("session"), row.get("provider"), row.get("status"), Objects.requireNonNullElse(row.get("isolation"), "-"), row.get("branch"),
                            shortTime(row.get("createdAt")), shortTime(row.get("lastUsedAt")));
                }
            }
            return ExitCodes.OK;
        }
    }

    private static String shortTime(Object instant) {
        String text = String.valueOf(instant);
        return text.length() > 19 ? text.substring(0, 19).replace('T', ' ') : text;
    }
}
