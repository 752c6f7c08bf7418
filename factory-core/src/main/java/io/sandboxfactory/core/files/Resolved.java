package io.sandboxfactory.core.files;

/**
 * A path resolved inside the sandbox by {@link FileScripts#RESOLVE}: confined, every symbolic link
 * followed.
 *
 * @param root the canonical root
 * @param path the canonical absolute path, under {@code root}
 * @param kind {@code d} directory, {@code f} regular file, {@code o} other, {@code m} missing
 */
record Resolved(String root, String path, char kind) {

    boolean missing() {
        return kind == 'm';
    }

    boolean directory() {
        return kind == 'd';
    }

    boolean regularFile() {
        return kind == 'f';
    }

    /** The canonical path relative to the canonical root ({@code ""} for the root). */
    String relative() {
        return SandboxRoot.relativize(root, path);
    }

    /** The last component of the canonical path ({@code ""} only for {@code /}). */
    String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
