package io.sandboxfactory.core.internal.discovery;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which module owns each error code name, so that a code's name in {@code --json} output says one
 * thing: the framework's {@link StandardErrorCode}s first, then each discovered provider or store
 * that declares codes of its own. One instance per factory, shared by the discovery of providers
 * and of stores, so that a provider's code and a store's cannot share a name either.
 */
public final class ErrorCodeOwners {

    private static final String FRAMEWORK = "the framework (StandardErrorCode)";

    private final Map<String, String> ownerByName = new HashMap<>();

    public ErrorCodeOwners() {
        this(Map.of());
    }

    /**
     * The framework's codes, then the host's own by owner (the {@code factory} command's), which no
     * provider or store may reuse either.
     */
    public ErrorCodeOwners(Map<String, List<ErrorCodeSupplier>> hostCodes) {
        List<String> clashes = new ArrayList<>(claim(FRAMEWORK, List.of(StandardErrorCode.values())));
        hostCodes.forEach((owner, codes) -> clashes.addAll(claim(owner, codes)));
        if (!clashes.isEmpty()) {
            throw new IllegalStateException(String.join(" ", clashes));
        }
    }

    /** Records {@code owner}'s codes; returns one sentence for each that is null or whose name another owner has. */
    public List<String> claim(String owner, Collection<? extends ErrorCodeSupplier> codes) {
        List<String> problems = new ArrayList<>();
        for (ErrorCodeSupplier supplier : codes == null ? List.<ErrorCodeSupplier>of() : codes) {
            ErrorCode code = supplier == null ? null : supplier.toErrorCode();
            if (code == null) {
                problems.add(owner + " declares a null error code.");
                continue;
            }
            String earlier = ownerByName.putIfAbsent(code.name(), owner);
            if (earlier != null) {
                problems.add("Error code " + code.name() + " is declared by " + earlier + " and by " + owner
                        + (earlier.equals(owner) ? " twice" : "") + "; a module's codes need names no other module uses.");
            }
        }
        return problems;
    }
}
