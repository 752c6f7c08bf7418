package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.api.support.HostPaths;
import io.sandboxfactory.core.internal.config.InputText;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;

/**
 * Turns the repository a host names — an {@code owner/name} slug, a clone URL or a local path —
 * into a clean clone URL and a checkout directory name. Slugs expand through the clone URL
 * template ({@code {owner}}, {@code {name}} and {@code {repo}} = {@code owner/name}); URLs and
 * absolute paths are used as they are; a relative path ({@code ./x}, {@code ../x}) or {@code ~/x}
 * is made absolute on the host.
 *
 * <p>Guarantees: {@link #requireValid} refuses, with one sentence naming the value (escaped, with
 * credentials masked) and the rule, anything git could read as something other than a repository:
 * option-looking values ({@code -u...}, {@code --upload-pack=...}), git's {@code <transport>::}
 * remote-helper syntax ({@code ext::sh -c ...}), URL schemes other than {@code https}, {@code http},
 * {@code ssh}, {@code git} and {@code file}, hosts starting with {@code -}, credentials in URLs,
 * whitespace, control and invisible characters, and values over {@value #MAX_LENGTH} characters.
 * When allowed file roots are configured, {@link #cloneUrl} also refuses a local path or {@code
 * file://} URL outside them (symbolic links resolved), so a host can keep sessions from cloning
 * arbitrary repositories of the machine.
 */
public final class RepositoryLocator {

    /** GitHub over HTTPS. */
    public static final String DEFAULT_TEMPLATE = "https://github.com/{owner}/{name}.git";
    private final String template;
    private final List<Path> allowedFileRoots;

    /** A locator expanding slugs through {@code cloneUrlTemplate}, allowing every local path. */
    /** The locator of a configuration's {@code repository:} section: its clone URL template and allowed file roots. */
    public static RepositoryLocator of(RepositoryDefaults defaults) {
        return new RepositoryLocator(defaults.cloneUrlTemplate(), defaults.allowedFileRoots().stream().map(Path::of).toList());
    }

    public RepositoryLocator(String cloneUrlTemplate) {
        this(cloneUrlTemplate, List.of());
    }

    /**
     * @param cloneUrlTemplate how slugs expand; validated like a repository URL
     * @param allowedFileRoots host directories local paths and {@code file://} URLs must lie under;
     *     empty allows every local path
     */
    public RepositoryLocator(String cloneUrlTemplate, List<Path> allowedFileRoots) {
        this.template = RepositorySyntax.requireValidTemplate(cloneUrlTemplate);
        this.allowedFileRoots = Objects.requireNonNull(allowedFileRoots, "allowedFileRoots").stream()
                .map(RepositoryLocator::requireRoot).map(RepositoryLocator::real).toList();
    }

    public static RepositoryLocator github() {
        return new RepositoryLocator(DEFAULT_TEMPLATE);
    }


    /**
     * The clean clone URL (or absolute path) for {@code repository}. Fails like {@link
     * #requireValid}, and when allowed file roots are configured, for a local path or {@code
     * file://} URL outside them.
     */
    public String cloneUrl(String repository) {
        RepositorySyntax.requireValid(repository);
        String url = switch (RepositorySyntax.kind(repository).orElseThrow()) {
            case URL -> repository;
            case PATH -> hostPath(repository);
            case SLUG -> {
                int slash = repository.indexOf('/');
                yield template.replace("{owner}", repository.substring(0, slash))
                        .replace("{name}", repository.substring(slash + 1)).replace("{repo}", repository);
            }
        };
        requireAllowedLocation(repository, url);
        return url;
    }

    /**
     * The host path {@code repository} is cloned from when it is a local path or a {@code file://}
     * URL on this machine (the directory a sandbox must see to clone it); empty for a remote.
     */
    public Optional<Path> localHostPath(String repository) {
        return localPath(cloneUrl(repository)).map(path -> path.toAbsolutePath().normalize());
    }

    /**
     * Fails like {@link #requireValid} unless {@code cloneUrl} — as a {@code RepositoryAccessSource}
     * minted it, at each start — is a clone URL or an absolute path, inside the allowed file roots
     * when they are configured: a host's source must not lead a session where its spec could not.
     */
    public String requireAllowedCloneUrl(String cloneUrl) {
        RepositorySyntax.requireValid(cloneUrl);
        if (RepositorySyntax.kind(cloneUrl).filter(k -> k == RepositorySyntax.Kind.URL || cloneUrl.startsWith("/")).isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Repository '" + RepositorySyntax.masked(cloneUrl) + "' is invalid; a minted clone URL must be a"
                    + " clone URL or an absolute path.");
        }
        requireAllowedLocation(cloneUrl, cloneUrl);
        return cloneUrl;
    }

    private void requireAllowedLocation(String repository, String url) {
        if (allowedFileRoots.isEmpty()) {
            return;
        }
        Optional<String> rejected = localPath(url).map(RepositoryLocator::real)
                .filter(path -> allowedFileRoots.stream().noneMatch(path::startsWith))
                .map(path -> InputText.shown(path.toString()) + " is outside the allowed file roots " + allowedFileRoots);
        if (localPath(url).isEmpty() && isFileUrl(url)) {
            rejected = Optional.of("a file:// URL that names no local path is outside the allowed file roots " + allowedFileRoots);
        }
        rejected.ifPresent(rule -> {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Repository '" + RepositorySyntax.masked(repository) + "' is invalid; " + rule
                    + " (repository.allowedFileRoots).");
        });
    }

    private static boolean isFileUrl(String url) {
        Matcher matcher = RepositorySyntax.URL.matcher(url);
        return matcher.matches() && matcher.group(1).equalsIgnoreCase("file");
    }

    /**
     * The host path a clone URL points at: an absolute path, or the path of a {@code file://} URL
     * on this machine. Empty for other URLs, and for a {@code file://} URL naming another host.
     */
    private static Optional<Path> localPath(String url) {
        if (url.startsWith("/")) {
            return Optional.of(Path.of(url));
        }
        if (!isFileUrl(url)) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(url);
            String authority = uri.getRawAuthority();
            if (authority != null && !authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
                return Optional.empty();
            }
            return Optional.of(Path.of(Objects.requireNonNullElse(uri.getPath(), "/")));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Path requireRoot(Path root) {
        Objects.requireNonNull(root, "allowed file root");
        if (!root.isAbsolute() || InputText.containsHidden(root.toString())) {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Allowed file root '" + InputText.shown(root.toString())
                    + "' is invalid; it must be an absolute path without control characters.");
        }
        return root;
    }

    /** {@code path} normalized, with symbolic links of its longest existing prefix resolved. */
    private static Path real(Path path) {
        Path normal = path.toAbsolutePath().normalize();
        Path existing = normal;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return normal;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(normal)).normalize();
        } catch (IOException e) {
            return normal;
        }
    }

    /** A source minting anonymous access, or bearer access with a fresh token from {@code token} per call. */
    public RepositoryAccessSource defaultSource(String repository, Optional<Supplier<String>> token) {
        String url = cloneUrl(repository);
        return () -> token.map(Supplier::get)
                .map(t -> new RepositoryAccess(url, Optional.of(RepositoryAccess.Authorization.bearer(t))))
                .orElseGet(() -> RepositoryAccess.anonymous(url));
    }

    /**
     * The checkout directory name of {@code repository}: the slug's name, or the last segment of a
     * URL or path without {@code .git}; characters outside {@code [A-Za-z0-9._-]} become {@code -},
     * leading dots are stripped, and an empty result becomes {@code repo}.
     */
    public static String repoDir(String repository) {
        String name = repository;
        while (name.endsWith("/")) {
            name = name.substring(0, name.length() - 1);
        }
        int cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf(':'));
        name = name.substring(cut + 1);
        boolean slug = RepositorySyntax.kind(repository).filter(k -> k == RepositorySyntax.Kind.SLUG).isPresent();
        if (!slug && name.endsWith(".git")) {
            name = name.substring(0, name.length() - 4);
        }
        name = name.replaceAll("[^A-Za-z0-9._-]", "-").replaceFirst("^\\.+", "");
        return name.isEmpty() ? "repo" : name;
    }

    private static String hostPath(String path) {
        return HostPaths.expandHome(path).toAbsolutePath().normalize().toString();
    }
}
