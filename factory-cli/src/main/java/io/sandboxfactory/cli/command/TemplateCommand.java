package io.sandboxfactory.cli.command;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.output.PhaseReporter;
import io.sandboxfactory.cli.output.ProgressListener;
import io.sandboxfactory.cli.session.SessionOptions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.template.TemplateRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code factory template}: build, list and remove the selected provider's templates (design §5.14). */
@Command(mixinStandardHelpOptions = true, name = "template",
        description = "Templates: snapshots of a sandbox after clone and setup. An open that makes a new sandbox starts from the newest"
                + " template of its repository and setup commands, so the setup does not run again.",
        subcommands = {TemplateCommand.Build.class, TemplateCommand.ListTemplates.class, TemplateCommand.Remove.class,
                TemplateCommand.Prune.class},
        footerHeading = "%nExamples:%n",
        footer = {"  factory template build --repo octo/app --setup 'npm ci'", "  factory template build --environment web",
                "  factory template list",
                "  factory template rm t0123456789abcdef-m1abc", "  factory template prune --older-than 7d"})
public final class TemplateCommand implements Runnable {

    @ParentCommand
    FactoryCommand root;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(root.console.err());
    }

    private FactorySource.Use factory() {
        return root.console.factories().use(new FactoryLauncher(root.console, root.global), SessionListener.NONE);
    }

    private static Map<String, Object> json(SandboxTemplate template) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", template.name());
        doc.put("provider", template.provider());
        doc.put("repository", template.subject());
        doc.put("setupHash", template.setupHash());
        doc.put("inputsHash", template.inputsHash());
        doc.put("baseCommit", template.baseCommit());
        doc.put("createdAt", template.createdAt().toString());
        return doc;
    }

    private void print(List<SandboxTemplate> templates) {
        if (root.global.json) {
            Json.print(root.console, Map.of("templates", templates.stream().map(TemplateCommand::json).toList()));
            return;
        }
        for (SandboxTemplate t : templates) {
            root.console.out().println(t.name() + " " + t.subject() + " " + t.createdAt());
        }
    }

    @Command(mixinStandardHelpOptions = true, name = "build", description = "Clone the repository, run the setup and keep the result as a template.")
    static final class Build implements Callable<Integer> {
        @ParentCommand
        TemplateCommand parent;

        @Option(names = "--repo", paramLabel = "R", description = "Repository: owner/name, a clone URL or a local path.")
        String repo;

        @Option(names = "--environment", paramLabel = "NAME", description = "Build a template of the environment 'environments.NAME' of the"
                + " config instead of one repository (its repositories' and workspace setup).")
        String environment;

        @Option(names = "--setup", paramLabel = "CMD", description = "Setup command (default: repository.setup of the config); repeatable.")
        List<String> setup = new ArrayList<>();

        @Option(names = "--base", paramLabel = "X", description = "Branch to build at (default: the configured or the remote's default branch).")
        String base;

        @Override
        public Integer call() {
            requireOneSubject();
            FactoryCommand root = parent.root;
            PhaseReporter reporter = new PhaseReporter(root.console.err(), root.global.quiet || root.global.json);
            try (FactorySource.Use use = root.console.factories().use(new FactoryLauncher(root.console, root.global),
                    new ProgressListener(reporter))) {
                TemplateRequest request = request(use.factory());
                reporter.begin("building a template of " + request.describe());
                SandboxTemplate template = use.factory().buildTemplate(request);
                reporter.end();
                if (root.global.json) {
                    Json.print(root.console, json(template));
                } else {
                    root.console.out().println(template.name());
                }
                return ExitCodes.OK;
            }
        }

        /** Checked before a factory is made. */
        private void requireOneSubject() {
            if ((repo == null) == (environment == null)) {
                throw new BadInputException("Give 'template build' either --repo R or --environment NAME, not " + (repo == null ? "neither" : "both")
                        + ".");
            }
            if (environment != null && !setup.isEmpty()) {
                throw new BadInputException("--setup does not go with --environment " + environment
                        + "; the environment's repositories and workspace carry their setup commands.");
            }
        }

        private TemplateRequest request(SandboxFactory factory) {
            if (environment != null) {
                TemplateRequest of = TemplateRequest.of(factory.environment(environment));
                return base == null ? of : of.withBase(base);
            }
            return new TemplateRequest(SessionOptions.repository(repo, parent.root.console.workingDirectory()),
                    setup.isEmpty() ? Optional.empty() : Optional.of(setup), Optional.ofNullable(base), Optional.empty());
        }
    }

    @Command(mixinStandardHelpOptions = true, name = "list", description = "List the templates of the selected provider, newest first.")
    static final class ListTemplates implements Callable<Integer> {
        @ParentCommand
        TemplateCommand parent;

        @Override
        public Integer call() {
            try (FactorySource.Use use = parent.factory()) {
                parent.print(use.factory().templates());
                return ExitCodes.OK;
            }
        }
    }

    @Command(mixinStandardHelpOptions = true, name = "rm", description = "Remove templates by name; a name that is not there is no error.")
    static final class Remove implements Callable<Integer> {
        @ParentCommand
        TemplateCommand parent;

        @Parameters(arity = "1..*", paramLabel = "NAME", description = "Template name, as 'template list' shows it.")
        List<String> names;

        @Override
        public Integer call() {
            names.forEach(SandboxTemplate::requireValidName);
            try (FactorySource.Use use = parent.factory()) {
                names.forEach(use.factory()::removeTemplate);
                return ExitCodes.OK;
            }
        }
    }

    @Command(mixinStandardHelpOptions = true, name = "prune", description = "Remove the templates built longer ago than D.")
    static final class Prune implements Callable<Integer> {
        @ParentCommand
        TemplateCommand parent;

        @Option(names = "--older-than", paramLabel = "D", required = true, description = "Age (30m, 7d, PT2H).")
        String olderThan;

        @Override
        public Integer call() {
            Duration age = DurationFormat.parse(olderThan);
            try (FactorySource.Use use = parent.factory()) {
                SandboxFactory factory = use.factory();
                Instant cutoff = Instant.now().minus(age);
                List<SandboxTemplate> old = factory.templates().stream().filter(t -> t.createdAt().isBefore(cutoff)).toList();
                old.forEach(t -> factory.removeTemplate(t.name()));
                parent.print(old);
                return ExitCodes.OK;
            }
        }
    }
}
