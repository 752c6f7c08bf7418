package io.sandboxfactory.cli;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.store.SessionRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code factory retire}: teardown, then stop (default) or destroy the session. */
@Command(mixinStandardHelpOptions = true, name = "retire", description = "Retire a session: run its teardown, then stop its sandbox (files kept) or, with --delete, destroy it and forget the session.",
        footerHeading = "%nExamples:%n", footer = {"  factory retire fix-42", "  factory retire fix-42 --delete"})
final class RetireCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Option(names = "--delete", description = "Destroy the sandbox with its files and delete the session record.")
    boolean delete;

    /**
     * Teardown runs in the sandbox, so a session opened by another process is started first (a warm
     * start: no clone, no setup) when it has teardown commands and its sandbox still exists.
     */
    private void startForTeardown(SandboxFactory factory, SessionRecord record, SessionHandle handle, PhaseReporter reporter) {
        boolean hasTeardown = !record.definition().teardownCommands().isEmpty() || !factory.config().repository().teardown().isEmpty();
        String state = new SandboxStates(factory).of(sessionId, record.definition().provider().orElse(null), factory.providerName());
        if (!hasTeardown || state.equals("missing")) {
            return;
        }
        try {
            handle.awaitStarted();
        } catch (RuntimeException e) {
            reporter.detail("factory: warning: session " + sessionId + " could not be started, so its teardown is skipped: "
                    + ErrorReporter.message(e) + System.lineSeparator());
        }
    }

    @Override
    public Integer call() {
        Console console = root.console;
        PhaseReporter reporter = new PhaseReporter(console.err(), root.global.quiet || root.global.json);
        try (SandboxFactory factory = new FactoryLauncher(console, root.global).open(new ProgressListener(reporter))) {
            SessionRecord record = StoredSessions.record(factory, sessionId);
            SessionHandle handle = StoredSessions.resume(factory, record);
            startForTeardown(factory, record, handle, reporter);
            RetireMode mode = delete ? RetireMode.DESTROY : RetireMode.STOP;
            reporter.begin((delete ? "destroying" : "stopping") + " session " + sessionId);
            factory.retire(sessionId, mode);
            reporter.done("retired");
            if (root.global.json) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("session", sessionId);
                doc.put("mode", mode.name());
                doc.put("phases", reporter.phases().stream().map(PhaseReporter.Phase::toJson).toList());
                Json.print(console.out(), doc);
            }
            return ExitCodes.OK;
        }
    }
}
