package io.zkchaos.fle.sched;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link Scheduler} on one real thread and the monotonic wall clock. A task that throws is a bug in the node: the
 * protocol state may be half-updated, so the error goes to {@code onCrash} (the node process halts).
 */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {

    private final ScheduledThreadPoolExecutor executor;
    private final Consumer<Throwable> onCrash;

    public ExecutorScheduler(String threadName, Consumer<Throwable> onCrash) {
        this.onCrash = onCrash;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public long now() {
        return System.nanoTime() / 1_000_000;
    }

    @Override
    public void execute(Runnable task) {
        if (!executor.isShutdown()) {
            executor.execute(guard(task));
        }
    }

    @Override
    public Cancellable schedule(long delayMs, Runnable task) {
        if (executor.isShutdown()) {
            return Cancellable.NONE;
        }
        ScheduledFuture<?> f = executor.schedule(guard(task), Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    private Runnable guard(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (Throwable t) {
                onCrash.accept(t);
            }
        };
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
