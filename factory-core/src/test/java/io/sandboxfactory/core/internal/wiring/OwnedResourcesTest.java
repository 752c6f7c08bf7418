package io.sandboxfactory.core.internal.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.Stage;
import com.google.inject.matcher.Matchers;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OwnedResourcesTest {

    private final List<String> closed = new ArrayList<>();

    private final class Part implements AutoCloseable {
        private final String name;
        private final RuntimeException failure;

        Part(String name) {
            this(name, null);
        }

        Part(String name, RuntimeException failure) {
            this.name = name;
            this.failure = failure;
        }

        @Override
        public void close() {
            closed.add(name);
            if (failure != null) {
                throw failure;
            }
        }
    }

    private record Uses(Part part) { }

    @Test
    void closesNewestFirstAndOnlyOnce() {
        OwnedResources resources = new OwnedResources();
        Part first = resources.own(new Part("first"));
        resources.own(new Part("second"));
        resources.own(first);

        resources.close();
        resources.close();

        assertThat(closed).containsExactly("second", "first");
    }

    @Test
    void everyResourceIsClosedWhenOneFailsAndTheFirstFailureIsThrownWithTheOthersSuppressed() {
        OwnedResources resources = new OwnedResources();
        resources.own(new Part("a"));
        resources.own(new Part("b", new IllegalStateException("b broke")));
        resources.own(new Part("c", new IllegalStateException("c broke")));

        assertThatThrownBy(resources::close)
                .hasMessage("c broke")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("b broke"));
        assertThat(closed).containsExactly("c", "b", "a");
    }

    @Test
    void theInjectorsCloseablesAreClosedBeforeWhatTheyWereBuiltFrom() {
        OwnedResources resources = new OwnedResources();
        Part opened = resources.own(new Part("opened by hand"));
        Injector injector = Guice.createInjector(Stage.PRODUCTION, new AbstractModule() {
            @Override
            protected void configure() {
                bindListener(Matchers.any(), resources.listener());
            }

            @Provides
            @Singleton
            Uses dependent(Part part) {
                return new Uses(part);
            }

            @Provides
            @Singleton
            Part dependency() {
                return new Part("made by the injector");
            }
        });

        assertThat(resources.owned()).containsExactly(opened, injector.getInstance(Part.class));
        resources.close();

        assertThat(closed).containsExactly("made by the injector", "opened by hand");
    }

    @Test
    void nothingCanBeRegisteredAfterClose() {
        OwnedResources resources = new OwnedResources();
        resources.close();

        assertThatThrownBy(() -> resources.own(new Part("late")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }
}
