package io.sandboxfactory.core.egress;

/** Where the proxy reports each decision: the session journal in a factory, a list in tests. */
@FunctionalInterface
public interface EgressEvents {

    /** Records {@code event}; must not throw (a journal that fails only loses the record). */
    void record(EgressEvent event);
}
