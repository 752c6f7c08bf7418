package io.sandboxfactory.tck;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * What happened when the kit ran against one provider, collected with the JUnit Platform's
 * {@link EngineTestKit}: cases keyed {@code Group.method} (e.g. {@code IdKeyed.twoInstancesReachOneSandbox}).
 *
 * @param failed failed cases with the failure's message
 * @param aborted cases skipped by an assumption, with its message
 * @param succeeded cases that passed
 * @param containerFailures failures outside any case (setup of a whole group, for example)
 * @param summary the summary the kit published after its last case
 */
record KitOutcome(Map<String, String> failed, Map<String, String> aborted, Set<String> succeeded, Map<String, String> containerFailures,
                  String summary) {

    static KitOutcome run(Class<? extends ProviderContractTest<?>> kitRun) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(kitRun)).execute();
        Map<String, String> failed = new TreeMap<>();
        Map<String, String> aborted = new TreeMap<>();
        Set<String> succeeded = new TreeSet<>();
        for (Event event : results.testEvents().finished().list()) {
            TestExecutionResult result = event.getRequiredPayload(TestExecutionResult.class);
            String key = key(event);
            String message = result.getThrowable().map(Throwable::getMessage).orElse("");
            switch (result.getStatus()) {
                case SUCCESSFUL -> succeeded.add(key);
                case ABORTED -> aborted.put(key, message);
                case FAILED -> failed.put(key, message);
            }
        }
        Map<String, String> containerFailures = new TreeMap<>();
        for (Event event : results.containerEvents().failed().list()) {
            containerFailures.put(event.getTestDescriptor().getDisplayName(),
                    event.getRequiredPayload(TestExecutionResult.class).getThrowable().map(String::valueOf).orElse(""));
        }
        String summary = results.allEvents().reportingEntryPublished().stream()
                .map(event -> event.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get("conformance kit summary"))
                .filter(java.util.Objects::nonNull)
                .findFirst().orElse("");
        return new KitOutcome(failed, aborted, succeeded, containerFailures, summary);
    }

    private static String key(Event event) {
        return event.getTestDescriptor().getSource()
                .filter(MethodSource.class::isInstance)
                .map(MethodSource.class::cast)
                .map(source -> source.getClassName().substring(source.getClassName().lastIndexOf('$') + 1) + "." + source.getMethodName())
                .orElse(event.getTestDescriptor().getDisplayName());
    }
}
