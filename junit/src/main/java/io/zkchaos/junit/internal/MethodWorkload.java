package io.zkchaos.junit.internal;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation;

/**
 * A chaos test's method body as the run's workload: the runner starts the ensemble and the nemesis, then calls
 * {@link #run}, which binds the test's {@link RunningContext} to the live run and lets JUnit invoke the method. What
 * the body throws is kept for the test ({@link #failure()}), not thrown into the runner: the run still stops, heals,
 * checks and reports.
 */
final class MethodWorkload implements Workload {

    private final String name;
    private final RunningContext context;
    private final Invocation<Void> invocation;
    private volatile boolean invoked;
    private volatile Throwable failure;

    MethodWorkload(String name, RunningContext context, Invocation<Void> invocation) {
        this.name = name;
        this.context = context;
        this.invocation = invocation;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void setup(Target target) {
        // the body does its own: it runs while the nemesis's first healed window lasts
    }

    @Override
    public void run(RunContext ctx) {
        context.bind(ctx);
        invoked = true;
        try {
            invocation.proceed();
        } catch (Throwable t) {
            failure = t;
            if (t instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) {
        // nothing: the body's clients recorded what they saw
    }

    @Override
    public void teardown(Target target) {
        // nothing: the body closes its clients (runClients does)
    }

    /** Whether JUnit's invocation of the method was made (it must be made or skipped exactly once). */
    boolean invoked() {
        return invoked;
    }

    /** What the method body threw, or null. */
    Throwable failure() {
        return failure;
    }
}
