package io.sandboxfactory.tck;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.ServiceLoader;
import java.util.regex.Pattern;

import static io.sandboxfactory.tck.ContractRule.CREATE_SIDE_EFFECT_FREE;
import static io.sandboxfactory.tck.ContractRule.DISCOVERABLE;
import static io.sandboxfactory.tck.ContractRule.PROVIDER_NAME;
import static io.sandboxfactory.tck.ContractRule.SANDBOX_ID_IS_SESSION_ID;

/** The provider's identity, its registration, and that {@code create(ctx)} provisions nothing. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class CreationCases {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

    abstract ContractBench bench();

    @Test
    @Order(1)
    @DisplayName("the provider's name is valid")
    void providerName() {
        String name = bench().providerName();
        PROVIDER_NAME.require(name != null && NAME.matcher(name).matches(),
                () -> "SandboxProvider.name() returned '" + name + "', which does not match [a-z][a-z0-9-]*");
        PROVIDER_NAME.require(bench().provider().configType() != null, () -> "SandboxProvider.configType() returned null");
        PROVIDER_NAME.require(bench().capabilities() != null, () -> "FactorySandbox.capabilities() returned null");
    }

    @Test
    @Order(2)
    @DisplayName("the provider is registered in META-INF/services")
    @SuppressWarnings("rawtypes")
    void discoverable() {
        Class<?> type = bench().provider().getClass();
        boolean listed = ServiceLoader.load(SandboxProvider.class, type.getClassLoader()).stream()
                .anyMatch(provider -> provider.type().equals(type));
        DISCOVERABLE.require(listed, () -> "ServiceLoader does not find " + type.getName()
                + " among the SandboxProvider implementations on the class path");
    }

    @Test
    @Order(3)
    @DisplayName("create(ctx) returns a sandbox whose id is the session id")
    void sandboxIdIsTheSessionId() {
        String session = bench().newSessionId("identity");
        MastraSandbox<?> sandbox = SANDBOX_ID_IS_SESSION_ID.attempt("create(ctx) for session '" + session + "'",
                () -> bench().create(session));
        SANDBOX_ID_IS_SESSION_ID.require(sandbox != null, () -> "create(ctx) returned null for session '" + session + "'");
        SANDBOX_ID_IS_SESSION_ID.requireEquals(session, sandbox.id(), "the id of the sandbox created for session '" + session + "'");
    }

    @Test
    @Order(4)
    @DisplayName("create(ctx) provisions nothing: PENDING, no physical id, nothing listed, the first start creates")
    void createProvisionsNothing() {
        String session = bench().newSessionId("create");
        int listedBefore = bench().listingsOf(session).size();

        MastraSandbox<?> first = bench().create(session);
        MastraSandbox<?> second = bench().create(session);

        CREATE_SIDE_EFFECT_FREE.requireEquals(SandboxStatus.PENDING, first.status(), "the status of a sandbox right after create(ctx)");
        CREATE_SIDE_EFFECT_FREE.require(first.sandboxId().isEmpty(),
                () -> "a sandbox right after create(ctx) already reports the physical id '" + first.sandboxId().orElseThrow() + "'");
        int listedAfter = bench().listingsOf(session).size();
        CREATE_SIDE_EFFECT_FREE.require(listedAfter == listedBefore, () -> "listSandboxes() shows " + listedAfter
                + " sandboxes of session '" + session + "' after two create(ctx) calls without start(), " + listedBefore + " before");

        CREATE_SIDE_EFFECT_FREE.perform("the first start() of session '" + session + "'", second::start);
        CREATE_SIDE_EFFECT_FREE.requireEquals(StartOutcome.CREATED, second.lastStartOutcome().orElse(null),
                "the outcome of the first start() of a new session (two instances had been created, none started)");
        CREATE_SIDE_EFFECT_FREE.requireEquals(SandboxStatus.PENDING, first.status(),
                "the status of an unstarted instance after another instance of its session started");
    }
}
