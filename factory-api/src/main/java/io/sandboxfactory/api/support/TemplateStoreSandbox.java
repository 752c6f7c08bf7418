package io.sandboxfactory.api.support;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.capability.SandboxTemplate;

import java.util.List;

/**
 * A {@link FactorySandbox} that keeps its templates ({@link SandboxCapability#TEMPLATES}) in a
 * {@link Store} of their own: listing and removal go to the store, so the provider writes only
 * {@link #buildTemplate}, which needs its own sandbox type.
 *
 * @since 0.1.0
 */
public interface TemplateStoreSandbox extends FactorySandbox {

    /** Where this provider instance keeps its templates. */
    Store templates();

    @Override
    default List<SandboxTemplate> listTemplates() {
        return templates().list();
    }

    @Override
    default void removeTemplate(String name) {
        templates().remove(name);
    }

    /**
     * The templates a provider instance holds.
     *
     * @since 0.1.0
     */
    interface Store {

        /** Every complete template, in no particular order (see {@link FactorySandbox#listTemplates}). */
        List<SandboxTemplate> list();

        /** Removes template {@code name}; idempotent (see {@link FactorySandbox#removeTemplate}). */
        void remove(String name);
    }
}
