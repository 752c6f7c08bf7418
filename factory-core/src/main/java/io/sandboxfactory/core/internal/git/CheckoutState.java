package io.sandboxfactory.core.internal.git;

import java.util.Map;
import java.util.Optional;

/**
 * What a probe saw in a checkout directory inside the sandbox.
 *
 * @param gitDirectory {@code <checkout>/.git} exists
 * @param nonEmpty the directory exists and holds something
 * @param originUrl {@code remote.origin.url}, when set
 * @param managed the checkout was cloned by this framework ({@code sandboxfactory.managed=true})
 * @param currentBranch the checked-out branch; empty when detached or not a checkout
 * @param upstream the remote branch the current branch tracks ({@code origin/x}); empty when none
 */
public record CheckoutState(boolean gitDirectory, boolean nonEmpty, Optional<String> originUrl, boolean managed,
                            Optional<String> currentBranch, Optional<String> upstream) {

    /** The git config key marking a checkout as cloned (and so removable) by the framework. */
    public static final String MANAGED_KEY = "sandboxfactory.managed";

    /** A directory that does not exist. */
    public static CheckoutState absent() {
        return new CheckoutState(false, false, Optional.empty(), false, Optional.empty(), Optional.empty());
    }

    /**
     * Shell code printing {@code @@<key>.<field>=<value>} lines about the directory in shell
     * variable {@code dirVariable}. Parse them with {@link #parse}.
     */
    public static String probeScript(String dirVariable, String key) {
        String d = "\"$" + dirVariable + "\"";
        return "if [ -e " + d + "/.git ]; then echo \"@@" + key + ".git=1\"; "
                + "echo \"@@" + key + ".origin=$(git -C " + d + " config --get remote.origin.url 2>/dev/null)\"; "
                + "echo \"@@" + key + ".managed=$(git -C " + d + " config --get " + MANAGED_KEY + " 2>/dev/null)\"; "
                + "echo \"@@" + key + ".head=$(git -C " + d + " symbolic-ref -q --short HEAD 2>/dev/null)\"; "
                + "echo \"@@" + key + ".upstream=$(git -C " + d + " rev-parse -q --abbrev-ref --symbolic-full-name '@{u}' 2>/dev/null)\"; fi\n"
                + "if [ -n \"$(ls -A " + d + " 2>/dev/null)\" ]; then echo \"@@" + key + ".nonempty=1\"; fi\n";
    }

    /** Reads what {@link #probeScript} printed, from {@code key=value} pairs without the {@code @@}. */
    public static CheckoutState parse(Map<String, String> values, String key) {
        return new CheckoutState(
                "1".equals(values.get(key + ".git")),
                "1".equals(values.get(key + ".nonempty")),
                nonBlank(values.get(key + ".origin")),
                "true".equals(values.get(key + ".managed")),
                nonBlank(values.get(key + ".head")),
                nonBlank(values.get(key + ".upstream")));
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
