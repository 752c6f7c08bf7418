package io.sandboxfactory.core.files;

/** Permission bits as the scripts take them: octal text. */
final class Modes {

    private Modes() {
    }

    static String octal(int mode) {
        return Integer.toOctalString(mode & 07777);
    }
}
