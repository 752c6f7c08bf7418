package io.sandboxfactory.core.internal.discovery;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;

/** Human-readable locations of classes and services files: a jar or directory path where possible. */
final class Locations {

    static final String UNKNOWN = "unknown location";

    private Locations() {
    }

    /** The jar or directory {@code type} was loaded from. */
    static String ofClass(Class<?> type) {
        ProtectionDomain domain = type.getProtectionDomain();
        CodeSource source = domain == null ? null : domain.getCodeSource();
        if (source == null || source.getLocation() == null) {
            return UNKNOWN;
        }
        return describe(source.getLocation());
    }

    /** The jar (or directory) holding a services file, from the file's URL. */
    static String ofServicesFile(URL file) {
        String text = file.toString();
        if (text.startsWith("jar:")) {
            int bang = text.indexOf("!/");
            String jar = bang >= 0 ? text.substring(4, bang) : text.substring(4);
            try {
                return describe(new URL(jar));
            } catch (java.net.MalformedURLException e) {
                return jar;
            }
        }
        return describe(file);
    }

    private static String describe(URL url) {
        if ("file".equals(url.getProtocol())) {
            try {
                return Path.of(url.toURI()).toString();
            } catch (URISyntaxException | IllegalArgumentException e) {
                return url.toString();
            }
        }
        return url.toString();
    }
}
