package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.internal.git.RetryPolicy;
import io.sandboxfactory.core.internal.session.RepositoryLocator;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionTimeouts;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.core.testing.FaultySandboxes;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Hostile values at every entry point — session specs and configuration — are refused with one
 * sentence naming the value (escaped, credentials masked) and the rule, before anything exists: no
 * session directory, no store row, no call to the provider, and for configuration no state
 * directory at all. Paths in values use {@code {allowed}} (the one allowed file root) and {@code
 * {outside}} (a directory outside it) as placeholders.
 */
class HostileInputTest {

    /** Repositories shared by every case (read only). */
    @TempDir
    static Path repositories;
    static Path allowed;
    static Path outside;
    static Path remote;

    /** Each case's own state directory and config file. */
    @TempDir
    Path tmp;

    @BeforeAll
    static void fixtures() throws IOException {
        allowed = Files.createDirectories(repositories.resolve("allowed"));
        outside = Files.createDirectories(repositories.resolve("outside"));
        remote = Git.bareRepository(allowed.resolve("app.git"));
        Git.bareRepository(outside.resolve("secret.git"));
        Files.createSymbolicLink(allowed.resolve("link.git"), outside.resolve("secret.git"));
    }

    static Stream<Arguments> hostileSpecs() {
        String longId = "x".repeat(201);
        String wideId = "é".repeat(128);
        String longRepo = "acme/" + "b".repeat(2050);
        return Stream.of(
                // field, value, the value as the message must show it (null: as given), the rule
                arguments("sessionId", "../escape", null, "it must not contain '/' or '\\'"),
                arguments("sessionId", "a\\b", null, "it must not contain '/' or '\\'"),
                arguments("sessionId", ".", null, "it must not start with '.'"),
                arguments("sessionId", "..", null, "it must not start with '.'"),
                arguments("sessionId", ".hidden", null, "it must not start with '.'"),
                arguments("sessionId", "-rf", null, "it must not start with '-'"),
                arguments("sessionId", "id\u0000nul", "id\\u0000nul", "it must not contain control or invisible formatting characters"),
                arguments("sessionId", "tab\tid", "tab\\u0009id", "it must not contain control or invisible formatting characters"),
                arguments("sessionId", "new\nline", "new\\u000aline", "it must not contain control or invisible formatting characters"),
                arguments("sessionId", "rtl\u202Etxt.exe", "rtl\\u202etxt.exe", "it must not contain control or invisible formatting characters"),
                arguments("sessionId", "zero\u200Bwidth", "zero\\u200bwidth", "it must not contain control or invisible formatting characters"),
                arguments("sessionId", "line\u2028sep", "line\\u2028sep", "it must not contain control or invisible formatting characters"),
                arguments("sessionId", "bad\uD800half", "bad\\ud800half", "it must be valid Unicode text"),
                arguments("sessionId", longId, "x".repeat(80) + "…", "it must be at most 200 characters long"),
                arguments("sessionId", wideId, "é".repeat(80) + "…", "it must be at most 255 bytes long in UTF-8"),
                arguments("sessionId", " lead", null, "it must not start or end with whitespace"),
                arguments("sessionId", "", null, "it must not be blank"),

                arguments("repository", "ext::sh -c touch% /tmp/pwned", null, "it must not contain whitespace or control characters"),
                arguments("repository", "ext::sh%20-c%20id", null, "git's 'ext::' remote-helper syntax is not allowed"),
                arguments("repository", "fd::17", null, "git's 'fd::' remote-helper syntax is not allowed"),
                arguments("repository", "--upload-pack=touch${IFS}pwned", null, "it must not start with '-'"),
                arguments("repository", "-uevil", null, "it must not start with '-'"),
                arguments("repository", "ssh://-oProxyCommand=touch%20x/repo", null, "its host must not start with '-'"),
                arguments("repository", "git@-oevil:repo", null, "its host must not start with '-'"),
                arguments("repository", "gopher://host/x.git", null, "URL scheme 'gopher' is not allowed"),
                arguments("repository", "https://user:tok-secret@host/x.git", "https://***@host/x.git", "it must not contain credentials"),
                arguments("repository", "acme/..", null, "its name must not be '.' or '..'"),
                arguments("repository", "owner", null, "name an owner/name slug"),
                arguments("repository", longRepo, longRepo.substring(0, 80) + "…", "it must be at most 2048 characters long"),
                arguments("repository", "repo\u0000nul", "repo\\u0000nul", "it must not contain whitespace or control characters"),
                arguments("repository", "https://host/\u202Egit", "https://host/\\u202egit", "it must not contain whitespace or control characters"),
                arguments("repository", "{outside}/secret.git", null, "is outside the allowed file roots"),
                arguments("repository", "file://{outside}/secret.git", null, "is outside the allowed file roots"),
                arguments("repository", "{allowed}/../outside/secret.git", null, "is outside the allowed file roots"),
                arguments("repository", "{allowed}/link.git", null, "is outside the allowed file roots"),
                arguments("repository", "file://otherhost/srv/x.git", null, "a file:// URL that names no local path is outside the allowed file roots"),

                arguments("branch", "-x", null, "it must not start with '-'"),
                arguments("branch", "a..b", null, "it must not contain '..'"),
                arguments("branch", "foo.lock", null, "no path component may end with '.lock'"),
                arguments("branch", "HEAD", null, "'HEAD' is reserved"),
                arguments("branch", "a b", null, "it may contain only letters, digits"),
                arguments("branch", "a\u0000b", "a\\u0000b", "it may contain only letters, digits"),
                arguments("branch", "feat\u202Eure", "feat\\u202eure", "it may contain only letters, digits"),
                arguments("branch", "@{-1}", null, "it may contain only letters, digits"),
                arguments("branch", "a//b", null, "it must not contain '//'"),
                arguments("branch", "/a", null, "it must not start with '/'"),
                arguments("branch", "a/", null, "it must not end with '/'"),
                arguments("branch", "a.", null, "it must not end with '.'"),
                arguments("branch", "a/.b", null, "no path component may start with '.'"),
                arguments("branch", "b".repeat(256), "b".repeat(80) + "…", "it must be at most 255 characters long"),
                arguments("base", "--orphan", null, "it must not start with '-'"),
                arguments("base", "main..x", null, "it must not contain '..'"),

                arguments("setup", "echo x\u0000; rm -rf ~", "echo x\\u0000; rm -rf ~", "it must not contain NUL characters"),
                arguments("teardown", "echo \u0000", "echo \\u0000", "it must not contain NUL characters"),
                arguments("workdir", "relative/dir", null, "it must be an absolute path inside the sandbox"),
                arguments("workdir", "/x\u0007y", "/x\\u0007y", "it must not contain control or invisible formatting characters"));
    }

    private String resolve(String value) {
        return value.replace("{allowed}", allowed.toString()).replace("{outside}", outside.toString());
    }

    private SessionSpec spec(String field, String value) {
        SessionSpecBuilder spec = SessionSpec.builder(field.equals("sessionId") ? value : "s1")
                .repository(field.equals("repository") ? value : remote.toString())
                .branch(field.equals("branch") ? value : "work");
        switch (field) {
            case "base" -> spec.baseBranch(value);
            case "setup" -> spec.setupCommands(value);
            case "teardown" -> spec.teardownCommands(value);
            case "workdir" -> spec.workingDirectory(value);
            default -> { }
        }
        return spec.build();
    }

    private SessionHarness harness(FaultySandboxes[] provider) {
        SessionDefaults defaults = new SessionDefaults(Optional.of("main"), List.of(), List.of(),
                new RepositoryLocator(RepositoryLocator.DEFAULT_TEMPLATE, List.of(allowed)), Optional.empty(),
                SessionTimeouts.defaults(), new RetryPolicy(0, Duration.ZERO));
        return new SessionHarness(tmp.resolve("state"), defaults, real -> provider[0] = new FaultySandboxes(real));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("hostileSpecs")
    void aHostileSpecValueIsRefusedBeforeAnythingIsCreated(String field, String value, String shown, String rule) throws IOException {
        String hostile = resolve(value);
        String expectedShown = shown != null ? shown : hostile;
        FaultySandboxes[] provider = new FaultySandboxes[1];
        try (SessionHarness factory = harness(provider)) {
            assertThatThrownBy(() -> factory.open(spec(field, hostile)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertOneSentenceNaming(e.getMessage(), expectedShown, rule))
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("tok-secret"));

            assertThat(provider[0].created()).as("sandboxes the provider was asked for").isZero();
            assertThat(factory.store.list()).as("store rows").isEmpty();
            assertThat(entries(factory.state.resolve("sessions"))).as("session directories").isEmpty();
        }
    }

    @Test
    void theSameEntryPointOpensAValidSpecInsideTheAllowedRoot() throws IOException {
        FaultySandboxes[] provider = new FaultySandboxes[1];
        try (SessionHarness factory = harness(provider)) {
            factory.open(spec("branch", "work"));
            assertThat(provider[0].created()).isEqualTo(1);
            assertThat(factory.store.list()).hasSize(1);
            // Beside the session, the local provider keeps its record of running commands.
            // Besides the session: the provider's bookkeeping (records of running commands, or an isolated session's private directory).
            assertThat(entries(factory.state.resolve("sessions"))).contains("s1")
                    .allMatch(entry -> entry.equals("s1") || entry.equals(".sandbox-factory-running") || entry.equals(".sandbox-factory-private"));
        }
    }

    @Test
    void aRepositoryAccessSourceCannotLeadASessionOutsideTheAllowedRootsItsSpecCouldNotName() throws IOException {
        FaultySandboxes[] provider = new FaultySandboxes[1];
        try (SessionHarness factory = harness(provider)) {
            SessionSpec spec = SessionSpec.builder("s1").repository(remote.toString()).branch("work")
                    .repositoryAccess(() -> RepositoryAccess.anonymous(outside.resolve("secret.git").toString())).build();

            assertThatThrownBy(() -> factory.open(spec))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertOneSentenceNaming(e.getMessage(), outside.resolve("secret.git").toString(),
                            "is outside the allowed file roots"));
            assertThat(factory.listener.commands()).as("commands run in the sandbox").noneMatch(c -> c.contains(" clone "));
            assertThat(factory.sessionDirectory("s1").resolve("secret")).doesNotExist();
        }
    }

    static Stream<Arguments> hostileConfig() {
        return Stream.of(
                // YAML, environment, the value as the message must show it, the rule
                arguments("repository:\n  defaultBaseBranch: \"--orphan\"\n", Map.of(), "--orphan", "it must not start with '-'"),
                arguments("repository:\n  defaultBaseBranch: \"main..x\"\n", Map.of(), "main..x", "it must not contain '..'"),
                arguments("repository:\n  cloneUrlTemplate: \"ext::sh -c x{name}\"\n", Map.of(), "ext::sh -c x{name}",
                        "it must not contain whitespace or control characters"),
                arguments("repository:\n  cloneUrlTemplate: \"ext::x{name}\"\n", Map.of(), "ext::x{name}",
                        "git's 'ext::' remote-helper syntax is not allowed"),
                arguments("repository:\n  cloneUrlTemplate: \"https://tok-secret@host/{owner}/{name}.git\"\n", Map.of(),
                        "https://***@host/{owner}/{name}.git", "it must not contain credentials"),
                arguments("repository:\n  cloneUrlTemplate: \"--upload-pack=x{name}\"\n", Map.of(), "--upload-pack=x{name}",
                        "it must not start with '-'"),
                arguments("repository:\n  cloneUrlTemplate: \"gopher://h/{name}\"\n", Map.of(), "gopher://h/{name}",
                        "URL scheme 'gopher' is not allowed"),
                arguments("repository:\n  cloneUrlTemplate: \"https://h/{owner}\"\n", Map.of(), "https://h/{owner}",
                        "it must contain {name} or {repo}"),
                arguments("repository:\n  allowedFileRoots: [\"relative/dir\"]\n", Map.of(), "relative/dir", "it must be an absolute path"),
                arguments("repository:\n  setup: [\"echo \\0x\"]\n", Map.of(), "echo \\u0000x", "it must not contain NUL characters"),
                arguments("", Map.of("FACTORY_REPOSITORY_DEFAULT_BASE_BRANCH", "-x"), "-x", "it must not start with '-'"),
                arguments("", Map.of("FACTORY_REPOSITORY_ALLOWED_FILE_ROOTS", "/srv/git:rel"), "rel", "it must be an absolute path"),
                arguments("", Map.of("FACTORY_REPOSITORY_ALLOWED_FILE_ROTS", "/srv"), "FACTORY_REPOSITORY_ALLOWED_FILE_ROTS",
                        "Unknown configuration key"),
                arguments("owner: \"two words\"\n", Map.of(), "two words", "it must match"),
                arguments("provider: \"no-such\"\n", Map.of(), "no-such", "available: ["),
                arguments("timeouts:\n  setup: \"0s\"\n", Map.of(), "'0s'", "it must be positive"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("hostileConfig")
    void aHostileConfigValueIsRefusedBeforeTheStateDirectoryExists(String yaml, Map<String, String> environment, String shown,
                                                                  String rule) throws IOException {
        Path config = Files.writeString(tmp.resolve("factory.yaml"), yaml);
        Path state = tmp.resolve("state");

        assertThatThrownBy(() -> SandboxFactory.builder().config(config).environment(environment).stateDirectory(state).build())
                .isInstanceOf(FactoryConfigurationException.class)
                .satisfies(e -> assertOneSentenceNaming(e.getMessage(), shown, rule))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("tok-secret"));

        assertThat(state).as("the state directory").doesNotExist();
    }

    @Test
    void validConfigWithAllowedFileRootsBuildsAndEnforcesThem() throws IOException {
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "repository:\n  allowedFileRoots: [\"" + allowed + "\"]\n");
        try (SandboxFactory factory = SandboxFactory.builder().config(config).environment(Map.of()).stateDirectory(tmp.resolve("state")).build()) {
            assertThat(factory.config().repository().allowedFileRoots()).containsExactly(allowed.toString());
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("s1").repository(outside.resolve("secret.git").toString())
                    .branch("work").build()))
                    .hasMessageContaining("is outside the allowed file roots");
            assertThat(factory.sessionStore().list()).isEmpty();
            factory.openSession(SessionSpec.builder("s2").repository(remote.toString()).branch("work").build());
            assertThat(factory.sessionStore().list()).hasSize(1);
        }
    }

    private static void assertOneSentenceNaming(String message, String shown, String rule) {
        assertThat(message).contains(shown).contains(rule);
        assertThat(InputText.containsHidden(message)).as("message holds no control or invisible characters: %s", message).isFalse();
        // One sentence: a single line ending like one (the design's unknown-provider text ends with its list;
        // a mistyped variable's with "did you mean ...?").
        assertThat(message).as("one sentence").doesNotContain("\n").satisfiesAnyOf(m -> assertThat(m).endsWith("."),
                m -> assertThat(m).endsWith("]"), m -> assertThat(m).endsWith("?"));
    }

    private static List<String> entries(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.map(p -> p.getFileName().toString()).toList();
        }
    }
}
