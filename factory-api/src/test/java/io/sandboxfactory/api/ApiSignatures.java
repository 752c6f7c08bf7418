package io.sandboxfactory.api;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One line per element of the binary surface a provider links against: each visible type with its
 * kind, modifiers and supertypes, and each public or protected constructor, method and field with
 * its generic signature. A line changes exactly when a provider compiled against the old surface
 * could break.
 */
final class ApiSignatures {

    private ApiSignatures() {
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
