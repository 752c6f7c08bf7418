package io.sandboxfactory.api;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One line per element of the binary surface a provider links against: each visible type with its
 * kind, modifiers and supertypes, and each public or protected constructor, method and field with
 * its generic signature. A line changes exactly when a provider compiled against the old surface
 * could break. Shared through factory-api's test-jar by every SPI module that records its surface
 * ({@code factory-store-api} too).
 */
public final class ApiSignatures {

    private ApiSignatures() {
    }

    /**
     * Fails when the public surface of the module's {@code target/classes} under {@code packageDir}
     * differs from the record {@code src/test/resources/<record>}: a removed or changed line breaks
     * the module's implementors, an added one must be recorded so the record stays exact. With
     * {@code -Dapi.signatures.write=true} the record is rewritten first.
     */
    public static void assertMatchesRecord(String module, String packageDir, String record) throws IOException {
        Path recordFile = Path.of("src/test/resources", record);
        List<String> current = of(publicTypes(packageDir));
        if (Boolean.getBoolean("api.signatures.write")) {
            Files.write(recordFile, current, StandardCharsets.UTF_8);
        }
        Set<String> recorded = new LinkedHashSet<>(Files.readAllLines(recordFile, StandardCharsets.UTF_8));
        List<String> removed = recorded.stream().filter(line -> !current.contains(line)).toList();
        List<String> added = current.stream().filter(line -> !recorded.contains(line)).toList();
        String regenerate = "./mvnw -B -o verify -pl " + module + " -Dtest=" + StackWalker.getInstance(
                StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass().getSimpleName() + " -Dapi.signatures.write=true";

        assertThat(removed).as("signatures of " + module + " that were removed or changed, which breaks implementations built"
                + " against the recorded API; keep them (deprecate instead), or, for a deliberate break before a release,"
                + " regenerate the record with: " + regenerate).isEmpty();
        assertThat(added).as("signatures added to " + module + " (compatible); record them with: " + regenerate).isEmpty();
    }

    /** The top-level public types under {@code packageDir} whose source's Javadoc carries no {@code @since}. */
    public static List<String> typesWithoutSince(String packageDir) throws IOException {
        List<String> missing = new ArrayList<>();
        for (Class<?> type : publicTypes(packageDir)) {
            if (type.getEnclosingClass() != null) {
                continue;
            }
            Path source = Path.of("src/main/java").resolve(type.getName().replace('.', '/') + ".java");
            if (!Files.readString(source).contains("@since ")) {
                missing.add(type.getName());
            }
        }
        return missing;
    }

    /** Every public type compiled from the module's sources under {@code packageDir}, nested ones included. */
    public static List<Class<?>> publicTypes(String packageDir) throws IOException {
        Path classes = Path.of("target/classes");
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve(packageDir))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = load(name);
                if (isVisible(type)) {
                    types.add(type);
                }
            }
        }
        return types;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code type} is reachable from outside the module: public, and nested only in such types. */
    static boolean isVisible(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    /** The sorted lines of {@code types}. */
    static List<String> of(List<Class<?>> types) {
        List<String> lines = new ArrayList<>();
        for (Class<?> type : types) {
            String owner = type.getName();
            lines.add(owner + " " + describe(type));
            boolean extensible = !Modifier.isFinal(type.getModifiers()) && !type.isEnum() && !type.isRecord();
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (visible(constructor, extensible) && !constructor.isSynthetic()) {
                    lines.add(owner + " " + modifiers(constructor) + "<init>" + parameters(constructor));
                }
            }
            for (Method method : type.getDeclaredMethods()) {
                if (visible(method, extensible) && !method.isSynthetic() && !method.isBridge()) {
                    lines.add(owner + " " + modifiers(method) + (method.isDefault() ? "default " : "")
                            + method.getGenericReturnType().getTypeName() + " " + method.getName() + parameters(method)
                            + exceptions(method));
                }
            }
            for (Field field : type.getDeclaredFields()) {
                if (visible(field, extensible) && !field.isSynthetic()) {
                    lines.add(owner + " " + modifiers(field) + field.getGenericType().getTypeName() + " " + field.getName());
                }
            }
        }
        return lines.stream().sorted().distinct().toList();
    }

    private static String describe(Class<?> type) {
        String kind = type.isAnnotation() ? "@interface" : type.isInterface() ? "interface" : type.isEnum() ? "enum"
                : type.isRecord() ? "record" : "class";
        int modifiers = type.getModifiers() & (Modifier.ABSTRACT | Modifier.FINAL | Modifier.STATIC);
        if (type.isInterface()) {
            modifiers &= ~Modifier.ABSTRACT;
        }
        String prefix = Modifier.toString(modifiers);
        StringBuilder line = new StringBuilder(prefix.isEmpty() ? "" : prefix + " ").append(kind);
        if (type.getTypeParameters().length > 0) {
            line.append(" <").append(Arrays.stream(type.getTypeParameters()).map(ApiSignatures::bounded)
                    .collect(Collectors.joining(", "))).append(">");
        }
        Type superclass = type.getGenericSuperclass();
        if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
            line.append(" extends ").append(superclass.getTypeName());
        }
        if (type.getGenericInterfaces().length > 0) {
            line.append(type.isInterface() ? " extends " : " implements ").append(Arrays.stream(type.getGenericInterfaces())
                    .map(Type::getTypeName).collect(Collectors.joining(", ")));
        }
        return line.toString();
    }

    private static String bounded(java.lang.reflect.TypeVariable<?> variable) {
        String bounds = Arrays.stream(variable.getBounds()).filter(b -> b != Object.class).map(Type::getTypeName)
                .collect(Collectors.joining(" & "));
        return bounds.isEmpty() ? variable.getName() : variable.getName() + " extends " + bounds;
    }

    /** Public members, and protected ones of a type a provider can extend. */
    private static boolean visible(Member member, boolean extensible) {
        return Modifier.isPublic(member.getModifiers()) || (extensible && Modifier.isProtected(member.getModifiers()));
    }

    private static String modifiers(Member member) {
        int kept = member.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL
                | Modifier.ABSTRACT);
        if (member.getDeclaringClass().isInterface()) {
            kept &= ~(Modifier.PUBLIC | Modifier.ABSTRACT);
        }
        String text = Modifier.toString(kept);
        return text.isEmpty() ? "" : text + " ";
    }

    private static String parameters(Executable executable) {
        String generics = executable.getTypeParameters().length == 0 ? "" : "<" + Arrays.stream(executable.getTypeParameters())
                .map(ApiSignatures::bounded).collect(Collectors.joining(", ")) + ">";
        return generics + "(" + Arrays.stream(executable.getGenericParameterTypes()).map(Type::getTypeName)
                .collect(Collectors.joining(", ")) + ")";
    }

    private static String exceptions(Method method) {
        Type[] thrown = method.getGenericExceptionTypes();
        return thrown.length == 0 ? "" : " throws " + Arrays.stream(thrown).map(Type::getTypeName).collect(Collectors.joining(", "));
    }
}
