package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Image;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.TemplateStoreSandbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The docker provider's templates: images made by {@code docker commit} of a set-up session
 * container, tagged {@code sandbox-factory-template-<tenant key>:<name>} (so two {@link Tenant}s may
 * each have template {@code main}) and labelled (in the manner of Testcontainers' {@code
 * org.testcontainers.*} labels) with the key, the provider, the owner and the tenant, so they can
 * be listed and cleaned up by label. Images made before the tenant key was in the repository name
 * ({@code sandbox-factory-template:<name>}) are no templates any more: rebuild them. Names are validated by {@link
 * SandboxTemplate#requireValidName}, which also makes them valid image tags.
 */
final class DockerTemplates implements TemplateStoreSandbox.Store {

    static final String REPOSITORY = "sandbox-factory-template";
    /** The label holding the template's name; those of its other fields are named under it. */
    static final String NAME = "io.sandboxfactory.template";
    static final String SUBJECT = NAME + ".subject";
    static final String SETUP = NAME + ".setup";
    static final String INPUTS = NAME + ".inputs";
    static final String BASE = NAME + ".base";
    static final String CREATED = NAME + ".created";

    private final DockerConnection connection;
    private final Tenant tenant;

    DockerTemplates(DockerConnection connection, Tenant tenant) {
        this.connection = connection;
        this.tenant = tenant;
    }

    /** The image of this tenant's template {@code name}. */
    String image(String name) {
        return repository() + ":" + SandboxTemplate.requireValidName(name);
    }

    private String repository() {
        return REPOSITORY + "-" + tenant.key();
    }

    /** Commits the (stopped) container {@code containerId} as the template's image. */
    SandboxTemplate commit(SandboxTemplate template, String containerId) {
        Map<String, String> labels = new LinkedHashMap<>(SandboxLabels.ownedBy(tenant));
        labels.put(NAME, template.name());
        labels.put(SUBJECT, template.subject());
        labels.put(SETUP, template.setupHash());
        labels.put(INPUTS, template.inputsHash());
        labels.put(BASE, template.baseCommit());
        labels.put(CREATED, template.createdAt().toString());
        try {
            connection.client().commitCmd(containerId).withRepository(repository()).withTag(SandboxTemplate.requireValidName(template.name()))
                    .withLabels(labels).withMessage("sandbox-factory template of " + template.subject()).exec();
        } catch (RuntimeException e) {
            throw new SandboxException(StandardErrorCode.TEMPLATE_BUILD_FAILED, "Could not commit container " + containerId + " as template "
                    + template.name() + ": " + DockerFailures.message(e), e);
        }
        return template;
    }

    @Override
    public List<SandboxTemplate> list() {
        List<Image> images;
        try {
            Map<String, String> filter = new LinkedHashMap<>(SandboxLabels.ownedBy(tenant));
            images = connection.client().listImagesCmd().withLabelFilter(filter).exec();
        } catch (RuntimeException e) {
            throw new SandboxException(StandardErrorCode.LIST_FAILED, "Could not list the templates of owner '" + tenant.owner() + "' on the Docker engine at "
                    + connection.host() + ": " + DockerFailures.message(e), e);
        }
        List<SandboxTemplate> templates = new ArrayList<>();
        for (Image image : images) {
            read(image.getLabels()).filter(template -> tagged(image, template.name())).ifPresent(templates::add);
        }
        return templates;
    }

    /**
     * Whether the image still carries its template's tag. Removing a template whose image a
     * session's container still uses only takes the tag away (the engine keeps the image for the
     * container), and an untagged image is no template any more.
     */
    private boolean tagged(Image image, String name) {
        return image.getRepoTags() != null && Arrays.asList(image.getRepoTags()).contains(image(name));
    }

    @Override
    public void remove(String name) {
        DockerClient client = connection.client();
        try {
            client.removeImageCmd(image(name)).withForce(true).exec();
        } catch (RuntimeException e) {
            if (!DockerFailures.isNotFound(e)) {
                throw new SandboxException(StandardErrorCode.REMOVE_FAILED, "Could not remove template image " + image(name) + ": "
                        + DockerFailures.message(e), e);
            }
        }
        try {
            removeUntaggedUnused(client, tenant);
        } catch (RuntimeException e) {
            throw new SandboxException(StandardErrorCode.REMOVE_FAILED, "Removed template image " + image(name) + " but could not delete the"
                    + " untagged template images of owner '" + tenant.owner() + "': " + DockerFailures.message(e), e);
        }
    }

    /**
     * {@link #removeUntaggedUnused} after a container's removal, which has already done what was
     * asked: a failure here leaves the images to the next removal or template removal.
     */
    static void removeUntaggedUnusedQuietly(DockerClient client, Tenant tenant) {
        try {
            removeUntaggedUnused(client, tenant);
        } catch (RuntimeException e) {
            // Best effort, see above.
        }
    }

    /**
     * Deletes the owner's template images that lost their tag and that no container uses any more:
     * a template removed while a session ran on it leaves its image to that session's container, and
     * the engine would keep it, untagged, after the container is gone. Called after a template's
     * removal and after a sandbox's container is removed; an image still in use stays for a later call.
     */
    static void removeUntaggedUnused(DockerClient client, Tenant tenant) {
        List<Image> untagged = client.listImagesCmd().withDanglingFilter(true).withLabelFilter(SandboxLabels.ownedBy(tenant)).exec();
        for (Image image : untagged) {
            if (image.getLabels() == null || image.getLabels().get(NAME) == null) {
                continue;
            }
            try {
                client.removeImageCmd(image.getId()).exec();
            } catch (RuntimeException e) {
                // In use by another container (a conflict), or removed by another caller meanwhile.
                if (!DockerFailures.isConflict(e) && !DockerFailures.isNotFound(e)) {
                    throw e;
                }
            }
        }
    }

    /** An image without every label of ours, or of another tenant, is no template of this provider instance. */
    private Optional<SandboxTemplate> read(Map<String, String> labels) {
        if (labels == null || !SandboxLabels.isOwnedBy(labels, tenant) || labels.get(NAME) == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SandboxTemplate(labels.get(NAME), DockerSandboxProvider.NAME, labels.getOrDefault(SUBJECT, ""),
                    labels.getOrDefault(SETUP, ""), labels.getOrDefault(INPUTS, ""), labels.getOrDefault(BASE, ""),
                    Instant.parse(labels.get(CREATED))));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
