package io.sandboxfactory.core.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes secrets out of text before it leaves the factory (a journal entry, a tool result, a
 * {@code --json} document, an error message): every value it was given, and every value of a
 * well-known token shape ({@code ghp_…}, {@code github_pat_…}, {@code gho_…}, {@code glpat-…},
 * {@code xoxb-…}/{@code xoxp-…}, AWS access key ids), becomes {@value #MASK}. Longer secrets are
 * replaced first, so one that contains another is masked whole. Immutable.
 */
public final class Redaction implements UnaryOperator<String> {

    /** What a secret becomes. */
    public static final String MASK = "****";

    /** Values shorter than this are not treated as secrets: masking "1" or "ab" would mangle any text. */
    static final int MIN_SECRET_LENGTH = 4;

    private static final Pattern TOKEN_SHAPES = Pattern.compile(String.join("|",
            "\\bgh[pousr]_[A-Za-z0-9]{20,}",
            "\\bgithub_pat_[A-Za-z0-9_]{20,}",
            "\\bglpat-[A-Za-z0-9_-]{20,}",
            "\\bxox[bp]-[A-Za-z0-9-]{10,}",
            "\\b(?:AKIA|ASIA)[A-Z0-9]{16}\\b"));

    /**
     * An environment variable whose value is a secret by its name; one ending in {@code _ENV}
     * ({@code FACTORY_STORE_PASSWORD_ENV}) names another variable and holds no secret itself.
     */
    private static final Pattern SECRET_NAME = Pattern.compile("(?i)(?!.*_ENV$).*(token|secret|pass|credential|private|api_?key|auth).*");

    /** A variable that names the variable holding a secret ({@code FACTORY_STORE_PASSWORD_ENV}). */
    private static final Pattern NAMES_SECRET = Pattern.compile("(?i).*(token|secret|pass|credential|private|api_?key|auth).*_ENV");

    /** Immutable, so one serves every caller that knows no secret values. */
    private static final Redaction SHAPES = new Redaction(List.of());

    private final List<String> secrets;

    private Redaction(Collection<String> secrets) {
        List<String> kept = new ArrayList<>();
        for (String secret : secrets) {
            // A flag (FACTORY_REPOSITORY_EXPOSE_TOKEN=true) holds no secret, and masking every "true" would break any document.
            if (secret != null && secret.length() >= MIN_SECRET_LENGTH && !kept.contains(secret) && !secret.equalsIgnoreCase("true")
                    && !secret.equalsIgnoreCase("false")) {
                kept.add(secret);
            }
        }
        kept.sort(Comparator.comparingInt(String::length).reversed());
        this.secrets = List.copyOf(kept);
    }

    /** Masks token shapes only. */
    public static Redaction shapes() {
        return SHAPES;
    }

    /** Masks {@code secrets} and token shapes. */
    public static Redaction of(Collection<String> secrets) {
        return new Redaction(secrets);
    }

    /**
     * Masks the values of {@code environment}'s variables whose names say they are secrets ({@code
     * GH_TOKEN}, {@code *_PASSWORD}, …), the value of the variable one named so but ending in {@code
     * _ENV} names ({@code FACTORY_STORE_PASSWORD_ENV=PGPW}: {@code $PGPW}), and token shapes.
     */
    public static Redaction ofEnvironment(Map<String, String> environment) {
        List<String> values = new ArrayList<>();
        environment.forEach((name, value) -> {
            if (SECRET_NAME.matcher(name).matches()) {
                values.add(value);
            } else if (NAMES_SECRET.matcher(name).matches() && value != null) {
                values.add(environment.get(value));
            }
        });
        return new Redaction(values);
    }

    /** This redaction and {@code other}'s secrets too. */
    public Redaction and(Redaction other) {
        List<String> both = new ArrayList<>(secrets);
        both.addAll(other.secrets);
        return new Redaction(both);
    }

    /**
     * Masks what passes through to {@code sink} in chunks (a command's streamed output), also a
     * secret split across two chunks; {@link RedactedStream#flush()} once the stream ended.
     */
    public RedactedStream streamTo(Consumer<String> sink) {
        return new RedactedStream(this, sink);
    }

    /** The secret values, longest first. */
    List<String> secrets() {
        return secrets;
    }

    /** {@code text} with every secret masked; null stays null. */
    @Override
    public String apply(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, MASK);
        }
        Matcher shapes = TOKEN_SHAPES.matcher(out);
        return shapes.find() ? shapes.replaceAll(MASK) : out;
    }

    /** Never shows a secret. */
    @Override
    public String toString() {
        return "Redaction[" + secrets.size() + " secrets and token shapes]";
    }
}
