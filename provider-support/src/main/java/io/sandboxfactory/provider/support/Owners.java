package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The owner a remote provider labels its objects with: the objects of one owner are found, listed
 * and removed by that label, so a blank one would claim every unlabelled object.
 */
public final class Owners {

    private Owners() {
    }

    /**
     * {@link ProviderContext#owner()}, refused when blank.
     *
     * @param provider the provider's name, for the message
     * @param objects what the owner labels (such as "container"), for the message
     */
    public static String require(ProviderContext context, String provider, String objects) {
        String owner = context.owner();
        if (owner == null || owner.isBlank()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Owner '" + owner + "' is invalid for the " + provider
                    + " provider; it labels every " + objects + " and must not be blank.");
        }
        return owner;
    }
}
