package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.api.support.HostPaths;
import io.sandboxfactory.core.internal.input.InputText;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    /** Longest accepted repository reference. */
    public static final int MAX_LENGTH = 2048;
    /** The URL schemes git may be pointed at. */
    public static final List<String> ALLOWED_SCHEMES = List.of("https", "http", "ssh", "git", "file", "git+ssh", "ssh+git");

    private static final Pattern SLUG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*");
    private static final Pattern URL = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://(.+)");
    private static final Pattern SCP = Pattern.compile("[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):.+");
    private static final Pattern HELPER_TRANSPORT = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)::.*", Pattern.DOTALL);

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
        this.template = requireValidTemplate(cloneUrlTemplate);
        this.allowedFileRoots = Objects.requireNonNull(allowedFileRoots, "allowedFileRoots").stream()
                .map(RepositoryLocator::requireRoot).map(RepositoryLocator::real).toList();
    }

    public static RepositoryLocator github() {
        return new RepositoryLocator(DEFAULT_TEMPLATE);
    }

    /** Fails with one sentence naming {@code repository} unless it is a slug, a clone URL or a path (see the class rules). */
    public static String requireValid(String repository) {
        problem(repository).ifPresent(rule -> {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Repository '" + masked(repository) + "' is invalid; " + rule + ".");
        });
        return repository;
    }

    /**
     * Fails with one sentence naming {@code template} and the rule unless it holds {@code {name}}
     * or {@code {repo}} and expands to a valid clone URL or absolute path.
     */
    public static String requireValidTemplate(String template) {
        Objects.requireNonNull(template, "cloneUrlTemplate");
        Optional<String> rule;
        if (!template.contains("{name}") && !template.contains("{repo}")) {
            rule = Optional.of("it must contain {name} or {repo}");
        } else {
            String sample = template.replace("{owner}", "owner").replace("{name}", "name").replace("{repo}", "owner/name");
            rule = problem(sample).or(() -> kind(sample).filter(k -> k == Kind.SLUG)
                    .map(k -> "it must expand to a clone URL or an absolute path"));
        }
        rule.ifPresent(r -> {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Clone URL template '" + masked(template) + "' is invalid; " + r + ".");
        });
        return template;
    }

    /** The first rule {@code repository} breaks, if any. */
    private static Optional<String> problem(String repository) {
        if (repository == null || repository.isBlank()) {
            return Optional.of("name an owner/name slug, a clone URL or a local path");
        }
        if (repository.length() > MAX_LENGTH) {
            return Optional.of("it must be at most " + MAX_LENGTH + " characters long");
        }
        if (InputText.containsHidden(repository) || repository.chars().anyMatch(Character::isWhitespace)) {
            return Optional.of("it must not contain whitespace or control characters");
        }
        if (repository.startsWith("-")) {
            return Optional.of("it must not start with '-'");
        }
        Matcher helper = HELPER_TRANSPORT.matcher(repository);
        if (helper.matches()) {
            return Optional.of("git's '" + helper.group(1) + "::' remote-helper syntax is not allowed, because it runs programs");
        }
        Matcher url = URL.matcher(repository);
        if (url.matches()) {
            String scheme = url.group(1).toLowerCase(Locale.ROOT);
            if (!ALLOWED_SCHEMES.contains(scheme)) {
                return Optional.of("URL scheme '" + url.group(1) + "' is not allowed; use one of " + ALLOWED_SCHEMES);
            }
            if (credentialsEnd(repository, scheme, url.start(2)) >= 0) {
                return Optional.of("it must not contain credentials (supply a token through the repository access instead)");
            }
            if (host(url.group(2)).startsWith("-")) {
                return Optional.of("its host must not start with '-'");
            }
            return Optional.empty();
        }
        Matcher scp = SCP.matcher(repository);
        if (scp.matches()) {
            return scp.group(1).startsWith("-") ? Optional.of("its host must not start with '-'") : Optional.empty();
        }
        if (kind(repository).isEmpty()) {
            return Optional.of("name an owner/name slug, a clone URL (https://..., file://..., user@host:path) or a local path"
                    + " (/..., ./..., ../..., ~/...)");
        }
        if (kind(repository).get() == Kind.SLUG) {
            String name = repository.substring(repository.indexOf('/') + 1);
            if (name.equals(".") || name.equals("..")) {
                return Optional.of("its name must not be '.' or '..'");
            }
        }
        return Optional.empty();
    }

    /** The host of {@code rest}, the part of a URL after {@code scheme://}. */
    private static String host(String rest) {
        int end = 0;
        while (end < rest.length() && "/?#".indexOf(rest.charAt(end)) < 0) {
            end++;
        }
        String authority = rest.substring(0, end);
        return authority.substring(authority.lastIndexOf('@') + 1);
    }

    /**
     * Where the credentials in {@code url} end, or -1 when it has none. A bare login name on an ssh
     * URL ({@code ssh://git@host/...}) is not a secret; anything else before an '@' is.
     */
    private static int credentialsEnd(String url, String scheme, int authorityStart) {
        int authorityEnd = authorityStart;
        while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        int at = url.substring(authorityStart, authorityEnd).lastIndexOf('@');
        if (at >= 0) {
            boolean sshLogin = scheme.contains("ssh") && url.substring(authorityStart, authorityStart + at).indexOf(':') < 0;
            return sshLogin ? -1 : authorityStart + at;
        }
        // A password holding '/', '?' or '#' ends the authority early ("user:pa/ss@host"): that leaves
        // a port that is not a number, and an '@' further on. Hide everything up to the last '@'
        // (the rule RepositoryAccess applies too; an '@' in the path of an ordinary URL is fine).
        int lastAt = url.lastIndexOf('@');
        return lastAt > authorityEnd && !hasNumericPortOrNone(url.substring(authorityStart, authorityEnd)) ? lastAt : -1;
    }

    private static boolean hasNumericPortOrNone(String hostPort) {
        int hostEnd = hostPort.startsWith("[") ? Math.max(hostPort.indexOf(']'), 0) : 0;
        int colon = hostPort.indexOf(':', hostEnd);
        return colon < 0 || hostPort.substring(colon + 1).chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** {@code value} for a message: escaped, with any credentials of a URL replaced by {@code ***}. */
    private static String masked(String value) {
        if (value == null) {
            return "null";
        }
        Matcher url = URL.matcher(value);
        if (url.matches()) {
            int end = credentialsEnd(value, url.group(1).toLowerCase(Locale.ROOT), url.start(2));
            if (end >= 0) {
                return InputText.shown(value.substring(0, url.start(2)) + "***" + value.substring(end));
            }
        }
        return InputText.shown(value);
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

    /**
     * The clean clone URL (or absolute path) for {@code repository}. Fails like {@link
     * #requireValid}, and when allowed file roots are configured, for a local path or {@code
     * file://} URL outside them.
     */
    public String cloneUrl(String repository) {
        requireValid(repository);
        String url = switch (kind(repository).orElseThrow()) {
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
        requireValid(cloneUrl);
        if (kind(cloneUrl).filter(k -> k == Kind.URL || cloneUrl.startsWith("/")).isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Repository '" + masked(cloneUrl) + "' is invalid; a minted clone URL must be a"
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
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Repository '" + masked(repository) + "' is invalid; " + rule
                    + " (repository.allowedFileRoots).");
        });
    }

    private static boolean isFileUrl(String url) {
        Matcher matcher = URL.matcher(url);
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
        boolean slug = kind(repository).filter(k -> k == Kind.SLUG).isPresent();
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
