package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.core.internal.config.InputText;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The syntax of a repository reference (see {@link RepositoryLocator} for what each form means):
 * an {@code owner/name} slug, a clone URL of an allowed scheme without credentials, or a local
 * path; never git's {@code ::} remote-helper syntax, an option-like leading {@code -}, whitespace or
 * control characters. Messages name the reference with any credentials masked.
 */
public final class RepositorySyntax {

    /** Longest accepted repository reference. */
    public static final int MAX_LENGTH = 2048;
    /** The URL schemes git may be pointed at. */
    public static final List<String> ALLOWED_SCHEMES = List.of("https", "http", "ssh", "git", "file", "git+ssh", "ssh+git");

    static final Pattern SLUG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*");
    static final Pattern URL = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://(.+)");
    private static final Pattern SCP = Pattern.compile("[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):.+");
    private static final Pattern HELPER_TRANSPORT = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)::.*", Pattern.DOTALL);

    private RepositorySyntax() {
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
    static String masked(String value) {
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

    enum Kind { SLUG, URL, PATH }

    static Optional<Kind> kind(String repository) {
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
}
