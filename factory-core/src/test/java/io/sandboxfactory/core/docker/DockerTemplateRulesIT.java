package io.sandboxfactory.core.docker;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.StartMode;
import io.sandboxfactory.core.template.TemplateRequest;
import io.sandboxfactory.core.testing.CapturedLogs;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.RecordingListener;
import io.sandboxfactory.core.testing.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every rule of using a template (design §5.14, issue 21 point 2) on a real Docker engine: the
 * newest matching template is picked and one of another repository never is; its markers make the
 * gate skip the setup; a changed setup command runs the setup in a container of the plain image; a
 * template whose input files changed at the base is not used; one whose image cannot be started is
 * skipped with a warning and the session opens the normal way, also for a lazy open.
 */
@ExtendWith(RequiresDocker.class)
class DockerTemplateRulesIT {

    private static final String INPUT = "package-lock.json";

    @TempDir
    Path tmp;
    DockerSessionRig rig;
    RecordingListener listener = new RecordingListener();
    SandboxFactory factory;

    @BeforeEach
    void rig() throws IOException {
        rig = new DockerSessionRig(tmp);
        Git.commitToMain(rig.remote(), INPUT, "{\"lockfileVersion\": 1}\n");
        factory = rig.factory(listener, new RepositoryDefaults(null, Optional.empty(), List.of(), List.of(), List.of(), List.of(INPUT), List.of(), false, Optional.empty()));
    }

    @AfterEach
    void cleanUp() {
        try {
            factory.templates().forEach(t -> factory.removeTemplate(t.name()));
        } finally {
            rig.close();
        }
    }

    private SandboxTemplate build(String setup) {
        return factory.buildTemplate(TemplateRequest.of(rig.remote().toString()).withSetup(List.of(setup)));
    }

    private String image(SessionHandle session) {
        return rig.inspect(rig.containersOfSession(session.sessionId()).get(0).getId()).orElseThrow().getConfig().getImage();
    }

    private String branchOf(SessionHandle session) {
        return session.executeCommand("cd '" + session.checkout().orElseThrow() + "' && git rev-parse --abbrev-ref HEAD").stdout().strip();
    }

    @Test
    void theNewestMatchingTemplateIsPickedAndOneOfAnotherRepositoryNever() throws Exception {
        SandboxTemplate older = build(DockerSessionRig.SETUP_COMMAND);
        SandboxTemplate newer = build(DockerSessionRig.SETUP_COMMAND);
        Path other = Git.bareRepository(rig.remote().getParent().resolve("other.git"));
        SandboxTemplate ofOther = factory.buildTemplate(TemplateRequest.of(other.toString()).withSetup(List.of(DockerSessionRig.SETUP_COMMAND)));
        assertThat(newer.createdAt()).isAfter(older.createdAt());
        assertThat(ofOther.createdAt()).isAfter(newer.createdAt());

        SessionHandle session = factory.openSession(rig.spec(rig.sessionId("newest")).build());
        assertThat(session.template()).contains(newer.name());
        assertThat(image(session)).isEqualTo(rig.templateImage(newer.name()));
        assertThat(DockerSessionRig.setupRuns(session.sandbox())).as("the template's markers made the gate skip the setup").isEqualTo(1);
        assertThat(branchOf(session)).isEqualTo(DockerSessionRig.BRANCH);
    }

    @Test
    void aChangedSetupCommandRunsTheSetupInAContainerOfThePlainImage() {
        SandboxTemplate template = build(DockerSessionRig.SETUP_COMMAND);
        listener.clear();
        SessionHandle session = factory.openSession(rig.spec(rig.sessionId("changed"))
                .setupCommands(DockerSessionRig.SETUP_COMMAND + " && echo v2").build());
        assertThat(session.template()).isEmpty();
        assertThat(listener.phases()).contains(SessionPhase.SETUP).doesNotContain(SessionPhase.TEMPLATE);
        assertThat(DockerSessionRig.setupRuns(session.sandbox())).as("ran here, once").isEqualTo(1);
        assertThat(image(session)).isNotEqualTo(rig.templateImage(template.name()));
    }

    @Test
    void aTemplateWhoseInputFilesChangedAtTheBaseIsNotUsed() throws Exception {
        SandboxTemplate template = build(DockerSessionRig.SETUP_COMMAND);
        assertThat(factory.openSession(rig.spec(rig.sessionId("same")).build()).template()).contains(template.name());

        Git.commitToMain(rig.remote(), INPUT, "{\"lockfileVersion\": 2}\n");
        listener.clear();
        SessionHandle session = factory.openSession(rig.spec(rig.sessionId("changed-inputs")).build());
        assertThat(session.template()).isEmpty();
        assertThat(listener.phases()).contains(SessionPhase.TEMPLATE, SessionPhase.TEMPLATE_SKIPPED, SessionPhase.SETUP);
        assertThat(DockerSessionRig.setupRuns(session.sandbox())).isEqualTo(1);
        assertThat(session.executeCommand("cat '" + session.checkout().orElseThrow() + "/" + INPUT + "'").stdout()).contains("2");
        assertThat(rig.containersOfSession(session.sessionId())).as("what the template made was removed").hasSize(1);
        assertThat(image(session)).isNotEqualTo(rig.templateImage(template.name()));
    }

    @Test
    void aTemplateWhoseImageCannotBeStartedIsSkippedWithAWarningAndTheSessionOpensNormally() {
        SandboxTemplate template = build(DockerSessionRig.SETUP_COMMAND);
        // Still listed (tagged and labelled as the template), but committed again with a file where
        // every sandbox container has its working directory, so no container made from it can start.
        // (A user the image lacks no longer does it: the provider names the container's user itself.)
        String image = rig.templateImage(template.name());
        String container = rig.engine().createContainerCmd(image).withUser("0")
                .withEntrypoint("/bin/sh", "-c", "rm -rf /workspace && echo not-a-directory > /workspace").withCmd(List.of()).exec().getId();
        try {
            rig.engine().startContainerCmd(container).exec();
            assertThat(rig.engine().waitContainerCmd(container).start().awaitStatusCode()).isZero();
            rig.engine().commitCmd(container).withRepository(image.substring(0, image.lastIndexOf(':'))).withTag(template.name()).exec();
        } finally {
            rig.engine().removeContainerCmd(container).withForce(true).exec();
        }
        assertThat(factory.templates()).extracting(SandboxTemplate::name).contains(template.name());

        try (CapturedLogs logs = new CapturedLogs()) {
            SessionHandle eager = factory.openSession(rig.spec(rig.sessionId("eager")).build());
            assertThat(eager.template()).isEmpty();
            assertThat(DockerSessionRig.setupRuns(eager.sandbox())).isEqualTo(1);
            assertThat(branchOf(eager)).isEqualTo(DockerSessionRig.BRANCH);
            assertThat(logs.lines()).anyMatch(line -> line.startsWith(Level.WARNING.toString()) && line.contains(template.name())
                    && line.contains("could not be used"));

            SessionHandle lazy = factory.openSession(rig.spec(rig.sessionId("lazy")).startMode(StartMode.LAZY).build());
            assertThat(lazy.executeCommand("cat " + DockerSessionRig.SETUP_COUNT_FILE).stdout()).isEqualTo("ran\n");
            assertThat(lazy.template()).isEmpty();
            assertThat(branchOf(lazy)).isEqualTo(DockerSessionRig.BRANCH);
        }
    }
}
