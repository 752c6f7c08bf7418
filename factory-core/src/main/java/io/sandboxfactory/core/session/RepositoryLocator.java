package io.sandboxfactory.core.session;

import io.sandboxfactory.api.RepositoryAccess;
import io.sandboxfactory.api.RepositoryAccessSource;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Turns the repository a host names — an {@code owner/name} slug, a clone URL or a local path —
 * into a clean clone URL and a checkout directory name. Slugs expand through the clone URL
 * template ({@code {owner}}, {@code {name}} and {@code {repo}} = {@code owner/name}); URLs and
 * absolute paths are used as they are; a relative path ({@code ./x}, {@code ../x}) or {@code ~/x}
 * is made absolute on the host.
 */
public final class RepositoryLocator {

    /** GitHub over HTTPS. */
    public static final String DEFAULT_TEMPLATE = "https://github.com/{owner}/{name}.git";

    private static final Pattern SLUG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*");
    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://.+");
    private static final Pattern SCP = Pattern.compile("[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:.+");
    private static final Pattern CREDENTIALS = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^/@]*@.*");

    private final String template;

    public RepositoryLocator(String cloneUrlTemplate) {
        this.template = Objects.requireNonNull(cloneUrlTemplate, "cloneUrlTemplate");
        if (!template.contains("{name}") && !template.contains("{repo}")) {
            throw new IllegalArgumentException("Clone URL template '" + template + "' is invalid; it must contain {name} or {repo}.");
        }
    }

    public static RepositoryLocator github() {
        return new RepositoryLocator(DEFAULT_TEMPLATE);
    }

    /** Fails with one sentence naming {@code repository} unless it is a slug, a clone URL or a path. */
    public static String requireValid(String repository) {
        if (repository == null || repository.isBlank()) {
            throw new IllegalArgumentException("Repository '" + repository + "' is invalid; name an owner/name slug, a clone URL or a local path.");
        }
        if (repository.chars().anyMatch(c -> Character.isISOControl(c) || Character.isWhitespace(c))) {
            throw new IllegalArgumentException("Repository '" + repository.strip() + "' is invalid; it must not contain whitespace or control characters.");
        }
        if (CREDENTIALS.matcher(repository).matches()) {
            throw new IllegalArgumentException("Repository URL '" + repository.replaceFirst("://[^/@]*@", "://***@")
                    + "' is invalid; it must not contain credentials (supply a token through the repository access instead).");
        }
        if (repository.startsWith("-")) {
            throw new IllegalArgumentException("Repository '" + repository + "' is invalid; it must not start with '-'.");
        }
        if (kind(repository).isEmpty()) {
            throw new IllegalArgumentException("Repository '" + repository + "' is invalid; name an owner/name slug, a clone URL"
                    + " (https://..., file://..., user@host:path) or a local path (/..., ./..., ../..., ~/...).");
        }
        return repository;
    }

    private enum Kind { SLUG, URL, PATH }

    private static Optional<Kind> kind(String repository) {
        if (URL.matcher(repository).matches() || SCP.matcher(repository).matches()) {
            return Optional.of(Kind.URL);
        }
        if (repository.startsWith("/") || repository.startsWith("./") || repository.startsWith("../") || repository.startsWith("~/")) {
            return Optional.of(Kind.PATH);
        }
        if (SLUG.matcher(repository).matches()) {
            return Optional.of(Kind.SLUG);
        }
        return Optional.empty();
    }

    /** The clean clone URL (or absolute path) for {@code repository}. */
    public String cloneUrl(String repository) {
        requireValid(repository);
        return switch (kind(repository).orElseThrow()) {
            case URL -> repository;
            case PATH -> hostPath(repository);
            case SLUG -> {
                int slash = repository.indexOf('/');
                yield template.replace("{owner}", repository.substring(0, slash))
                        .replace("{name}", repository.substring(slash + 1)).replace("{repo}", repository);
            }
        };
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
        boolean slug = kind(repository).filter(k -> k == Kind.SLUG).isPresent();
        if (!slug && name.endsWith(".git")) {
            name = name.substring(0, name.length() - 4);
        }
        name = name.replaceAll("[^A-Za-z0-9._-]", "-").replaceFirst("^\\.+", "");
        return name.isEmpty() ? "repo" : name;
    }

    private static String hostPath(String path) {
        if (path.startsWith("~/")) {
            return Path.of(System.getProperty("user.home")).resolve(path.substring(2)).normalize().toString();
        }
        return Path.of(path).toAbsolutePath().normalize().toString();
    }
}
