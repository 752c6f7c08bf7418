package io.sandboxfactory.provider.callback;

/**
 * The {@code providers.custom} config section. It has no keys: everything the provider needs comes
 * from host objects (the {@link io.sandboxfactory.api.host.SandboxCallback} and, optionally, {@link
 * CallbackCapabilities}). Any key in the section is therefore an error.
 */
public record CallbackConfig() {
}
