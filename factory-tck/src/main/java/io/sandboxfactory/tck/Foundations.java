package io.sandboxfactory.tck;

import java.util.List;
import java.util.Optional;

import static io.sandboxfactory.tck.ContractRule.*;

/**
 * Which rules rest on which: when a foundational rule is broken, the rules built on it usually
 * break too, and their own fixes would send the author the wrong way. The kit runs the
 * foundations first ({@code @Order} on the groups and cases) so their failures are known when a
 * dependent case fails.
 */
final class Foundations {

    private Foundations() {
    }

    /** The rules {@code rule} rests on, most basic first; empty for a rule that rests on nothing checked. */
    static List<ContractRule> of(ContractRule rule) {
        return switch (rule) {
            case FILES_KEPT, STOP, DESTROY, INVENTORY_LISTING, ATTACH_NO_SECRET, STREAM_ROUND_TRIP, START_SINGLE_FLIGHT, START_HOOKS,
                 HOOK_FAILURE ->
                    List.of(DISCOVERABLE, ID_KEYED, EXIT_CODES);
            case RECONNECT -> List.of(DISCOVERABLE, ID_KEYED, EXIT_CODES, FILES_KEPT);
            case VANISHED_SANDBOX -> List.of(DISCOVERABLE, ID_KEYED, EXIT_CODES, DESTROY);
            case SESSION_MATERIALIZE, SESSION_SETUP_ONCE, SESSION_WARM_RESTART, CONFIG_BINDS ->
                    List.of(PROVIDER_NAME, DISCOVERABLE, ID_KEYED, EXIT_CODES, TIMEOUT, FILES_KEPT, DESTROY, ENV_PRECEDENCE);
            case OUTPUT_STREAMS, STREAMING, OUTPUT_CAP, ARGUMENT_QUOTING, CWD, CWD_MISSING, WORKING_DIRECTORY, TIMEOUT -> List.of(EXIT_CODES);
            case ENV_PER_CALL, ENV_VERBATIM -> List.of(EXIT_CODES, ENV_PRECEDENCE);
            case ENV_PRECEDENCE -> List.of(EXIT_CODES);
            default -> List.of();
        };
    }

    /** How a consequence names its root cause, in a few words; empty for a rule that is no foundation. */
    static Optional<String> symptom(ContractRule foundation) {
        return Optional.ofNullable(switch (foundation) {
            case PROVIDER_NAME -> "the provider's name is invalid";
            case DISCOVERABLE -> "the provider is not registered for ServiceLoader";
            case ID_KEYED -> "the sandbox is not id-keyed";
            case EXIT_CODES -> "commands do not run or report their exit codes";
            case TIMEOUT -> "command timeouts do not kill the command";
            case FILES_KEPT -> "files do not survive stop()";
            case DESTROY -> "destroy() does not remove the session's sandbox";
            case ENV_PRECEDENCE -> "the command environment drops request.env()";
            default -> null;
        });
    }
}
