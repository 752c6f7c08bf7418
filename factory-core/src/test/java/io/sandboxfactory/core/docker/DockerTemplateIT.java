package io.sandboxfactory.core.docker;

import com.github.dockerjava.api.exception.NotFoundException;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.template.TemplateRequest;
import io.sandboxfactory.core.testing.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Templates on a real Docker engine: {@code docker commit} of the set-up build container, an
 * image tagged from the key and labelled with it and the owner; a cold open of the same repository
 * and setup starts its container from that image with the setup already done, another setup does
 * not use it, and removal deletes the image.
 */
@ExtendWith(RequiresDocker.class)
class DockerTemplateIT {

    @TempDir
    Path tmp;
    DockerSessionRig rig;
    SandboxFactory factory;

    @BeforeEach
    void rig() throws IOException {
        rig = new DockerSessionRig(tmp);
        factory = rig.factory();
    }

    @AfterEach
    void cleanUp() {
        try {
            factory.templates().forEach(t -> factory.removeTemplate(t.name()));
        } finally {
            rig.close();
        }
    }

    @Test
    void aCommittedTemplateCarriesTheSetupIntoANewContainerAndIsRemovedWithItsImage() {
        SandboxTemplate template = factory.buildTemplate(TemplateRequest.of(rig.remote().toString())
                .withSetup(List.of(DockerSessionRig.SETUP_COMMAND)));
        assertThat(factory.templates()).containsExactly(template);
        Map<String, String> labels = rig.engine().inspectImageCmd(rig.templateImage(template.name())).exec()
                .getConfig().getLabels();
        assertThat(labels).containsEntry("io.sandboxfactory.template", template.name())
                .containsEntry(DockerSessionRig.OWNER_LABEL, rig.owner())
                .containsEntry("io.sandboxfactory.template.setup", template.setupHash());
        assertThat(rig.containersOfSession("template-build-" + template.name())).as("the build container is gone").isEmpty();

        SessionHandle session = factory.openSession(rig.spec(rig.sessionId("from-template")).build());
        assertThat(session.template()).contains(template.name());
        assertThat(DockerSessionRig.setupRuns(session.sandbox())).as("the setup ran once, in the build").isEqualTo(1);
        assertThat(session.executeCommand("cd '" + session.checkout().orElseThrow() + "' && git rev-parse --abbrev-ref HEAD").stdout().strip()).isEqualTo(DockerSessionRig.BRANCH);
        String image = rig.inspect(rig.containersOfSession(rig.sessionId("from-template")).get(0).getId()).orElseThrow()
                .getConfig().getImage();
        assertThat(image).isEqualTo(rig.templateImage(template.name()));

        SessionHandle other = factory.openSession(rig.spec(rig.sessionId("other-setup")).setupCommands("echo other").build());
        assertThat(other.template()).isEmpty();
        assertThat(DockerSessionRig.setupRuns(other.sandbox())).isZero();
        String templateImage = rig.templateImage(template.name());

        factory.retire(rig.sessionId("from-template"), io.sandboxfactory.core.retire.RetireMode.DESTROY);
        factory.removeTemplate(template.name());
        assertThat(factory.templates()).isEmpty();
        assertThatThrownBy(() -> rig.engine().inspectImageCmd(templateImage).exec())
                .isInstanceOf(NotFoundException.class);
    }

    /**
     * A template removed while a session runs on it: the engine keeps the image for that session's
     * container, untagged. It is no longer listed, the session goes on, and the image goes with the
     * session's container instead of staying behind untagged for good.
     */
    @Test
    void aTemplateRemovedWhileASessionRunsOnItIsNoLongerListedAndItsImageGoesWithTheSession() {
        SandboxTemplate template = factory.buildTemplate(TemplateRequest.of(rig.remote().toString())
                .withSetup(List.of(DockerSessionRig.SETUP_COMMAND)));
        String imageId = rig.engine().inspectImageCmd(rig.templateImage(template.name())).exec().getId();
        SessionHandle session = factory.openSession(rig.spec(rig.sessionId("on-template")).build());
        assertThat(session.template()).contains(template.name());

        factory.removeTemplate(template.name());
        assertThat(factory.templates()).as("a removed template is not listed").isEmpty();
        assertThat(rig.engine().inspectImageCmd(imageId).exec().getRepoTags()).as("the session's container keeps the image, untagged")
                .isNullOrEmpty();
        assertThat(session.executeCommand("echo still here").stdout()).isEqualTo("still here\n");

        factory.retire(rig.sessionId("on-template"), io.sandboxfactory.core.retire.RetireMode.DESTROY);
        assertThatThrownBy(() -> rig.engine().inspectImageCmd(imageId).exec()).as("the image went with the session's container")
                .isInstanceOf(NotFoundException.class);
    }
}
