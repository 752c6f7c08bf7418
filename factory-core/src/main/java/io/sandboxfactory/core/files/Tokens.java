package io.sandboxfactory.core.files;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Random names for temporary files, so concurrent writers never share one. */
final class Tokens {

    private Tokens() {
    }

    static String next() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }
}
