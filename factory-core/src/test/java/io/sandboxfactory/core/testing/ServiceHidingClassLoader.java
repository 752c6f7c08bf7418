package io.sandboxfactory.core.testing;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;

/**
 * Loads classes from its parent but hides the parent's {@code META-INF/services} files, so a child
 * loader sees only the providers of its own jars: tests can then assert exact provider lists.
 */
public final class ServiceHidingClassLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
    }

    public ServiceHidingClassLoader(ClassLoader parent) {
        super(parent);
    }

    @Override
    public URL getResource(String name) {
        return isServiceFile(name) ? null : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return isServiceFile(name) ? Collections.emptyEnumeration() : super.getResources(name);
    }

    private static boolean isServiceFile(String name) {
        return name.startsWith("META-INF/services/");
    }
}
