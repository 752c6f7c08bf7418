package io.sandboxfactory.core.internal.template;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.capability.SandboxTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.Optional;

/** Picks the newest template of the provider that matches a key; a provider that cannot list them has none. */
public final class TemplateSelector {

    private static final Logger LOG = LoggerFactory.getLogger(TemplateSelector.class);

    private final String providerName;
    private final FactorySandbox provider;

    public TemplateSelector(String providerName, FactorySandbox provider) {
        this.providerName = providerName;
        this.provider = provider;
    }

    public boolean supported() {
        return provider.capabilities().contains(SandboxCapability.TEMPLATES);
    }

    public Optional<SandboxTemplate> newest(TemplateKey key) {
        if (!supported()) {
            return Optional.empty();
        }
        try {
            return provider.listTemplates().stream().filter(key::matches).max(Comparator.comparing(SandboxTemplate::createdAt));
        } catch (RuntimeException e) {
            LOG.warn("Listing the templates of provider '{}' failed, so this open makes its sandbox without one: {}", providerName,
                    e.getMessage());
            return Optional.empty();
        }
    }
}
