package io.sandboxfactory.provider.callback;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.EnumSet;
import java.util.Set;

/**
 * Capabilities a host declares for the sandboxes its callback returns, registered as a host object
 * ({@code SandboxFactory.builder().hostObject(CallbackCapabilities.class, CallbackCapabilities.of(...))}).
 *
 * <p>The {@code custom} provider declares the ones declared here. {@link SandboxCapability#INVENTORY} cannot be declared: the
 * callback factory cannot list or remove the host's sandboxes.
 *
 * @param declared what the host's sandboxes can do beyond running commands
 */
public record CallbackCapabilities(Set<SandboxCapability> declared) {

    public CallbackCapabilities {
        declared = declared.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(declared));
        if (declared.contains(SandboxCapability.INVENTORY)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Capability INVENTORY cannot be declared for the 'custom' sandbox provider;"
                    + " its factory cannot list or remove the host's sandboxes.");
        }
    }

    /** Declares {@code capabilities}. */
    public static CallbackCapabilities of(SandboxCapability... capabilities) {
        return new CallbackCapabilities(Set.of(capabilities));
    }


}
