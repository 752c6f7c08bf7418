package io.sandboxfactory.tck;

import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one run of the kit against one provider has seen so far: which rules broke at the root,
 * in which case, and which later failures follow from them. One instance per kit run, kept in
 * the JUnit store of the kit's outermost class (see {@link RootCauses}), never in a static.
 */
final class KitRun {

    /** A root cause: the first case that broke a rule on its own. */
    record Root(ContractRule rule, String caseName, String message) {
    }

    private final Map<ContractRule, Root> rootOfRule = new EnumMap<>(ContractRule.class);
    private final Map<Root, List<String>> consequences = new LinkedHashMap<>();
    private final List<String> unattributed = new ArrayList<>();
    /** Cases an assumption skipped, by the assumption's message (which names the capability missing). */
    private final Map<String, List<String>> skippedByReason = new LinkedHashMap<>();
    private int finished;
    private int failed;
    private int skipped;

    /**
     * Records a failed case and returns what to report: the failure itself when it is a root
     * cause, or a failure that names the root cause first when a foundation broke earlier.
     */
    synchronized Throwable attribute(String caseName, Throwable failure) {
        if (!(failure instanceof RuleViolation violation)) {
            return failure;
        }
        ContractRule rule = violation.rule();
        Optional<Root> root = earlierRoot(rule);
        if (root.isEmpty() || root.get().rule() == rule) {
            Root own = rootOfRule.computeIfAbsent(rule, r -> new Root(r, caseName, violation.getMessage()));
            consequences.computeIfAbsent(own, r -> new ArrayList<>());
            if (!own.caseName().equals(caseName)) {
                consequences.get(own).add(caseName);
            }
            return failure;
        }
        Root cause = root.get();
        rootOfRule.putIfAbsent(rule, cause);
        consequences.get(cause).add(caseName);
        String symptom = Foundations.symptom(cause.rule()).orElse("rule '" + cause.rule().title() + "' is broken");
        return new AssertionFailedError("Likely a consequence of: " + symptom + " — see case '" + cause.caseName()
                + "'; fix that first. Here rule '" + rule.title() + "' broke as well: " + violation.whatHappened(), failure);
    }

    private Optional<Root> earlierRoot(ContractRule rule) {
        for (ContractRule foundation : Foundations.of(rule)) {
            Root root = rootOfRule.get(foundation);
            if (root != null) {
                return Optional.of(root);
            }
        }
        return Optional.ofNullable(rootOfRule.get(rule));
    }

    synchronized void finished(boolean success, String caseName, Optional<Throwable> failure) {
        finished++;
        if (!success && failure.isPresent()) {
            failed++;
            if (!(failure.get() instanceof RuleViolation) && !(failure.get().getCause() instanceof RuleViolation)) {
                unattributed.add(caseName + ": " + failure.get());
            }
        }
    }

    /** A case an assumption skipped, saying {@code reason}. */
    synchronized void skipped(String caseName, String reason) {
        skipped++;
        skippedByReason.computeIfAbsent(reason, r -> new ArrayList<>()).add(caseName);
    }

    /** Cases that ran to an end: passed, failed or skipped. */
    synchronized int finishedCases() {
        return finished + skipped;
    }

    /**
     * The one-screen summary: how many cases ran, failed and were skipped; the rules broken, in the
     * order the kit found their root causes; then why cases were skipped.
     */
    synchronized String summary(String kitRun) {
        StringBuilder text = new StringBuilder("Conformance kit run '" + kitRun + "': " + finished + " cases run, " + failed
                + " failed, " + skipped + " skipped");
        if (consequences.isEmpty() && unattributed.isEmpty()) {
            text.append("; every rule holds.");
        } else {
            text.append("; rules broken, root causes first:");
            int n = 0;
            for (Map.Entry<Root, List<String>> entry : consequences.entrySet()) {
                Root root = entry.getKey();
                text.append("\n").append(++n).append(". ").append(root.rule().title()).append(" — case '").append(root.caseName())
                        .append("'");
                if (!entry.getValue().isEmpty()) {
                    text.append("; ").append(entry.getValue().size()).append(" later failure(s) follow from it");
                }
                text.append("\n   fix: ").append(root.rule().fix());
            }
            for (String other : unattributed) {
                text.append("\n").append(++n).append(". not attributed to a rule — ").append(other);
            }
        }
        if (!skippedByReason.isEmpty()) {
            text.append("\nSkipped, and why:");
            skippedByReason.forEach((reason, cases) -> text.append("\n- ").append(reason).append(" (").append(cases.size())
                    .append(cases.size() == 1 ? " case: " : " cases: ").append(String.join(", ", cases)).append(")"));
        }
        return text.toString();
    }
}
