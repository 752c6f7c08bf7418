package io.sandboxfactory.core.internal.discovery;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which services file lists which class name, so a broken entry can be reported with the jar it
 * came from. Only used to enrich error messages: a file it cannot read is skipped, because
 * ServiceLoader reports that failure itself.
 */
final class ServiceFileIndex {

    private final Map<String, List<String>> locationsByClass = new LinkedHashMap<>();

    ServiceFileIndex(ClassLoader loader, String serviceName) {
        Enumeration<URL> files;
        try {
            files = loader.getResources("META-INF/services/" + serviceName);
        } catch (IOException e) {
            return;
        }
        while (files.hasMoreElements()) {
            URL file = files.nextElement();
            for (String className : classNames(file)) {
                locationsByClass.computeIfAbsent(className, k -> new ArrayList<>()).add(Locations.ofServicesFile(file));
            }
        }
    }

    private static List<String> classNames(URL file) {
        List<String> names = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(file.openStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                int comment = line.indexOf('#');
                String name = (comment >= 0 ? line.substring(0, comment) : line).trim();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            // Unreadable: ServiceLoader will report this file itself.
        }
        return names;
    }

    /** The longest listed class name that {@code message} mentions. */
    Optional<String> classMentionedIn(String message) {
        return locationsByClass.keySet().stream()
                .filter(message::contains)
                .max((a, b) -> Integer.compare(a.length(), b.length()));
    }

    /** Where {@code className} is listed, e.g. {@code /x/a.jar}; empty when no file lists it. */
    List<String> locationsOf(String className) {
        return locationsByClass.getOrDefault(className, List.of());
    }
}
