package io.sandboxfactory.tck;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;
import org.opentest4j.TestAbortedException;

import java.util.Optional;

/**
 * Attributes each failed case to its root cause, keeps why cases were skipped and, after the last
 * case, prints the kit's summary. Registered on {@link ProviderContractTest}, so every {@code @Nested} group inherits it;
 * the state of one kit run lives in the store of the kit's outermost class.
 */
final class RootCauses implements TestExecutionExceptionHandler, TestWatcher, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RootCauses.class);

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw run(context).attribute(caseName(context), throwable);
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
        run(context).finished(true, caseName(context), Optional.empty());
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        run(context).finished(false, caseName(context), Optional.ofNullable(cause));
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        // JUnit prefixes an assumption's own message; the summary shows the message alone.
        String reason = Optional.ofNullable(cause).map(Throwable::getMessage).orElse("no reason given")
                .replaceFirst("^Assumption failed: ", "");
        run(context).skipped(caseName(context), reason);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (outermost(context) != context) {
            return;
        }
        KitRun run = run(context);
        String provider = context.getTestClass().map(Class::getSimpleName).orElse("?");
        String summary = run.summary(provider);
        context.publishReportEntry("conformance kit summary", summary);
        System.out.println(summary);
        // A kit skipped on purpose (an assumption in a @BeforeAll, say no cluster to test) ran no case either.
        boolean skippedOnPurpose = context.getExecutionException().filter(TestAbortedException.class::isInstance).isPresent();
        if (run.finishedCases() == 0 && !skippedOnPurpose) {
            throw new IllegalStateException("The conformance kit ran no case in " + provider
                    + "; check that the test runner runs JUnit 5 nested classes (maven-surefire-plugin 3 or later).");
        }
    }

    private static KitRun run(ExtensionContext context) {
        return outermost(context).getStore(NAMESPACE).getOrComputeIfAbsent(KitRun.class, k -> new KitRun(), KitRun.class);
    }

    /** The context of the class that extends {@link ProviderContractTest}: one per kit run. */
    private static ExtensionContext outermost(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getParent().flatMap(ExtensionContext::getTestClass).isPresent()) {
            current = current.getParent().orElseThrow();
        }
        return current;
    }

    /** The case as the report shows it: group heading, then the case's display name. */
    private static String caseName(ExtensionContext context) {
        return context.getParent().map(ExtensionContext::getDisplayName).orElse("") + " › " + context.getDisplayName();
    }
}
