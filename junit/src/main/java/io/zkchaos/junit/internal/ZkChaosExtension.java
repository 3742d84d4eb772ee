package io.zkchaos.junit.internal;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.junit.ChaosContext;
import io.zkchaos.junit.ChaosTest;
import io.zkchaos.junit.ZkChaos;
import io.zkchaos.workloads.WorkloadDescriptor;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * Runs each {@link ChaosTest} method through the harness's {@link Runner}: the method body is the workload, the
 * annotations say the ensemble, nemesis, timing and checkers. Registered by {@link ZkChaos} and {@link ChaosTest};
 * other test methods of the class run untouched.
 *
 * <p>A run that tested nothing fails first, whatever its verdict ({@link NothingTested}, with the run's explanation):
 * a client process that could not open its client for the test's open timeout, no client opened in the whole run,
 * or a body that recorded no operation, or none that was acknowledged. Then the verdict: valid passes; invalid fails
 * the test (an {@link AssertionFailedError}) with the checkers' explanation, the run directory and the report's
 * path; unknown fails it too unless {@link ChaosTest#failOnUnknown()} is false. A run the harness could not do (no
 * quorum at start, a port taken) is the test's error, with the harness's message. The report's path is also
 * published as the report entry {@code zkchaos.report}.
 */
public final class ZkChaosExtension implements ParameterResolver, InvocationInterceptor {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            ZkChaosExtension.class);
    private static final String CONTEXT = "context";

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        return parameter.getParameter().getType() == ChaosContext.class
                && chaosTest(extension.getRequiredTestMethod()).isPresent();
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        try {
            return context(extension);
        } catch (IllegalArgumentException e) {
            throw new ParameterResolutionException(e.getMessage(), e);
        }
    }

    private static RunningContext context(ExtensionContext extension) {
        return extension.getStore(NAMESPACE).getOrComputeIfAbsent(CONTEXT,
                k -> {
                    ChaosSettings settings = settings(extension);
                    return new RunningContext(settings.config().workload().concurrency(), settings.openTimeout());
                }, RunningContext.class);
    }

    private static ChaosSettings settings(ExtensionContext extension) {
        Method method = extension.getRequiredTestMethod();
        ZkChaos ensemble = AnnotationSupport.findAnnotation(extension.getRequiredTestClass(), ZkChaos.class)
                .orElse(null);
        return ChaosSettings.of(ensemble, chaosTest(method).orElseThrow(), method);
    }

    private static Optional<ChaosTest> chaosTest(Method method) {
        return AnnotationSupport.findAnnotation(method, ChaosTest.class);
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                    ExtensionContext extension) throws Throwable {
        if (chaosTest(call.getExecutable()).isEmpty()) {
            invocation.proceed();
            return;
        }
        ChaosSettings settings;
        RunningContext context;
        try {
            settings = settings(extension);
            context = context(extension);
        } catch (RuntimeException e) {
            invocation.skip();
            throw e;
        }
        String name = settings.config().workload().name();
        MethodWorkload workload = new MethodWorkload(name, context, invocation);
        String body = call.getTargetClass().getSimpleName() + "." + call.getExecutable().getName();
        WorkloadDescriptor descriptor = new WorkloadDescriptor(name, "the body of " + body, options -> workload,
                settings.checkers());
        PrintWriter progress = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        RunOutcome outcome;
        try {
            outcome = new Runner(progress, Duration.ofSeconds(5)).run(settings.config(), descriptor);
        } finally {
            if (!workload.invoked()) {
                invocation.skip(); // the run failed before the body's turn: JUnit must hear it was not run
            }
        }
        String report = outcome.directory().reportFile().toAbsolutePath().toString();
        extension.publishReportEntry("zkchaos.report", report);
        String explanation = outcome.explanation(settings.config().scenario(), outcome.whatHappened());
        progress.println(explanation);
        if (workload.failure() instanceof NothingTested nothing) {
            throw nothing.withExplanation(explanation);
        }
        if (workload.failure() != null) {
            throw workload.failure();
        }
        Optional<String> shortfall = context.tally().shortfall(body);
        if (shortfall.isPresent()) {
            throw new NothingTested(shortfall.get() + "\n" + explanation, null);
        }
        CheckResult result = outcome.result();
        if (result.validity() == Validity.INVALID
                || (result.validity() == Validity.UNKNOWN && settings.failOnUnknown())) {
            throw new AssertionFailedError(explanation);
        }
        if (result.validity() == Validity.UNKNOWN) {
            progress.println("warning: " + body + " passes with an UNKNOWN verdict (@ChaosTest(failOnUnknown = "
                    + "false)); nothing was shown either way");
        }
    }
}
