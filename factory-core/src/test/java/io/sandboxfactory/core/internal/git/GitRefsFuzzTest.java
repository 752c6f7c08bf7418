package io.sandboxfactory.core.internal.git;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property: every branch name {@link GitRefs#isValidGitRef} accepts is also accepted by the real
 * {@code git check-ref-format --branch}. Names are generated from a fixed seed (reproducible),
 * biased toward near-valid names — valid names with one or two risky edits, risky pieces glued
 * together, names at the length limit — and the accepted ones are checked by git in one shell loop.
 */
class GitRefsFuzzTest {

    private static final long SEED = 0x5AFE_BA5EL;
    private static final int NAMES = 12_000;

    /** Pieces git (or a shell, or a terminal) treats specially. */
    private static final List<String> RISKY = List.of(".", "/", "-", "_", "@", "{", "}", "~", "^", ":", "\\", " ", "*", "?", "[",
            "]", ".lock", ".LOCK", ".Lock", "..", "//", "@{", "@{-1}", "HEAD", "é", "ß", "中", "\u202E", "\u200B", "\uD83D\uDE00", "\t", "\u0001",
            "\u007F", "\r", "!", "#", "$", "%", "'", "\"", "`", "|", ";", "<", ">", "=", "+", ",", "&", "\u00A0");
    private static final String WORD_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

    @TempDir
    Path tmp;

    @Test
    void everyNameGitRefsAcceptsIsAcceptedByGitCheckRefFormat() throws Exception {
        Random random = new Random(SEED);
        List<String> generated = new ArrayList<>(NAMES);
        for (int i = 0; i < NAMES; i++) {
            generated.add(switch (i % 10) {
                case 0, 1, 2, 3 -> mutate(validName(random), random);
                case 4, 5, 6 -> glued(random);
                case 7, 8 -> validName(random);
                default -> nearLimit(random);
            });
        }
        Set<String> accepted = new LinkedHashSet<>();
        int rejected = 0;
        for (String name : generated) {
            if (GitRefs.isValidGitRef(name)) {
                accepted.add(name);
            } else {
                rejected++;
            }
        }

        Map<String, Boolean> verdicts = gitVerdicts(accepted);
        List<String> gitRejected = verdicts.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        System.out.printf("GitRefs fuzz (seed %d): generated %d, accepted %d (%d distinct), rejected %d, cross-checked with git %d,"
                + " git rejected %d%n", SEED, generated.size(), generated.size() - rejected, accepted.size(), rejected,
                verdicts.size(), gitRejected.size());

        assertThat(generated).hasSizeGreaterThanOrEqualTo(10_000);
        assertThat(accepted).as("the generator must reach plenty of accepted names").hasSizeGreaterThan(2_000);
        assertThat(rejected).as("and plenty of rejected ones").isGreaterThan(2_000);
        assertThat(verdicts).as("every accepted name was cross-checked").hasSize(accepted.size());
        assertThat(gitRejected).as("names GitRefs accepts but git check-ref-format --branch rejects").isEmpty();
    }

    /**
     * Stricter than git on purpose: a component ending in {@code .lock} in any mix of case is
     * refused (on a case-insensitive file system {@code a.LOCK} is the lock file of {@code a}),
     * while the same names with another suffix are accepted.
     */
    @Test
    void aComponentEndingInLockIsRefusedInEveryMixOfCase() {
        Random random = new Random(SEED);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder suffix = new StringBuilder(".");
            for (char c : "lock".toCharArray()) {
                suffix.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
            }
            String valid = validName(random);
            while (!GitRefs.isValidGitRef(valid)) {
                valid = validName(random);
            }
            String[] components = valid.split("/");
            int at = random.nextInt(components.length);
            String base = components[at];
            components[at] = base + suffix;
            String locked = String.join("/", components);
            components[at] = base + suffix + "s";
            String notLocked = String.join("/", components);
            assertThat(GitRefs.isValidGitRef(locked)).as(locked).isFalse();
            assertThat(GitRefs.isValidGitRef(notLocked)).as(notLocked).isTrue();
        }
    }

    /** The same pipeline reports git's rejections, so an empty list above is meaningful. */
    @Test
    void theGitPipelineReportsRejections() throws Exception {
        Map<String, Boolean> verdicts = gitVerdicts(List.of("main", "a..b", "x.lock", "a b", "feature/x", "a/.b", "HEAD", "a//b"));
        assertThat(verdicts).containsEntry("main", true).containsEntry("feature/x", true)
                .containsEntry("a..b", false).containsEntry("x.lock", false).containsEntry("a b", false)
                .containsEntry("a/.b", false).containsEntry("HEAD", false).containsEntry("a//b", false);
    }

    /** 1–4 components of word characters, sometimes with inner dots. */
    private static String validName(Random random) {
        int components = 1 + random.nextInt(4);
        StringBuilder name = new StringBuilder();
        for (int c = 0; c < components; c++) {
            if (c > 0) {
                name.append('/');
            }
            int length = 1 + random.nextInt(12);
            for (int i = 0; i < length; i++) {
                boolean dot = i > 0 && i < length - 1 && random.nextInt(8) == 0;
                name.append(dot ? '.' : WORD_CHARS.charAt(random.nextInt(WORD_CHARS.length())));
            }
        }
        return name.toString();
    }

    /** One or two risky pieces inserted, appended or prepended. */
    private static String mutate(String name, Random random) {
        StringBuilder out = new StringBuilder(name);
        int edits = 1 + random.nextInt(2);
        for (int e = 0; e < edits; e++) {
            String piece = RISKY.get(random.nextInt(RISKY.size()));
            switch (random.nextInt(3)) {
                case 0 -> out.insert(0, piece);
                case 1 -> out.append(piece);
                default -> out.insert(random.nextInt(out.length() + 1), piece);
            }
        }
        return out.toString();
    }

    /** Word runs and risky pieces glued in any order. */
    private static String glued(Random random) {
        StringBuilder out = new StringBuilder();
        int pieces = 1 + random.nextInt(7);
        for (int p = 0; p < pieces; p++) {
            if (random.nextBoolean()) {
                out.append(RISKY.get(random.nextInt(RISKY.size())));
            } else {
                int length = 1 + random.nextInt(4);
                for (int i = 0; i < length; i++) {
                    out.append(WORD_CHARS.charAt(random.nextInt(WORD_CHARS.length())));
                }
            }
        }
        return out.toString();
    }

    /** Names of 250–260 characters, around the 255 limit. */
    private static String nearLimit(Random random) {
        StringBuilder out = new StringBuilder(validName(random));
        int target = 250 + random.nextInt(11);
        while (out.length() < target) {
            out.append(random.nextInt(10) == 0 ? '/' : WORD_CHARS.charAt(random.nextInt(26)));
        }
        String name = out.substring(0, target).replace("//", "/a");
        return name.endsWith("/") ? name.substring(0, name.length() - 1) + "z" : name;
    }

    /**
     * git's verdict per name, from one {@code sh} loop over a file of names (one git process per
     * name, no JVM process per name). Names starting with '-' would read as options: they are
     * skipped by the loop and so missing from the result.
     */
    private Map<String, Boolean> gitVerdicts(Iterable<String> names) throws IOException, InterruptedException {
        List<String> list = new ArrayList<>();
        names.forEach(name -> {
            if (name.indexOf('\n') >= 0 || name.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("cannot pass a name with a newline or NUL through a line file");
            }
            list.add(name);
        });
        Path input = Files.write(tmp.resolve("names-" + System.nanoTime() + ".txt"), list, StandardCharsets.UTF_8);
        String loop = "while IFS= read -r n; do case \"$n\" in -*) echo skip; continue;; esac; "
                + "if git check-ref-format --branch \"$n\" >/dev/null 2>&1; then echo 1; else echo 0; fi; done < \"$1\"";
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", loop, "sh", input.toString()).directory(tmp.toFile());
        builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        builder.environment().put("HOME", tmp.toString());
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        List<String> out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException("the git check-ref-format loop failed");
        }
        assertThat(out).as("one verdict per name").hasSameSizeAs(list);
        Map<String, Boolean> verdicts = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            if (!out.get(i).equals("skip")) {
                verdicts.put(list.get(i), out.get(i).equals("1"));
            }
        }
        return verdicts;
    }
}
