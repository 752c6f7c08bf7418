package io.sandboxfactory.tck;

import org.opentest4j.AssertionFailedError;

/**
 * A failed case that knows which rule it broke, so {@link RootCauses} can tell a root cause from
 * a failure that merely follows from an earlier, more basic one.
 */
final class RuleViolation extends AssertionFailedError {

    private static final long serialVersionUID = 1L;

    private final transient ContractRule rule;
    private final String whatHappened;

    RuleViolation(ContractRule rule, String whatHappened, String message, Throwable cause) {
        super(message, cause);
        this.rule = rule;
        this.whatHappened = whatHappened;
    }

    RuleViolation(ContractRule rule, String whatHappened, String message, Object expected, Object actual) {
        super(message, expected, actual);
        this.rule = rule;
        this.whatHappened = whatHappened;
    }

    ContractRule rule() {
        return rule;
    }

    /** The sentence describing what happened, without the rule's fix. */
    String whatHappened() {
        return whatHappened;
    }
}
