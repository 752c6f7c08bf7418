package io.sandboxfactory.core.internal.wiring;

import com.google.inject.ScopeAnnotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * One object per factory, made at most once: unlike {@code @Singleton}, a failure is kept too, so
 * the parts that depend on one that failed (a provider that could not be opened, a store out of
 * reach) get that failure instead of trying again. See {@link OnceScope}.
 */
@ScopeAnnotation
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface Once {
}
