package io.zkchaos.junit.internal;

import io.zkchaos.checkers.DurationText;
import io.zkchaos.junit.ChaosClient;
import io.zkchaos.junit.ChaosProcess;
import io.zkchaos.junit.OperationFailed;
import io.zkchaos.junit.PendingOperation;
import io.zkchaos.workloads.Outcomes;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link io.zkchaos.junit.ChaosContext#runClients}: one thread per process slot, each opening a client, stepping it
 * until the run ends, and replacing a process retired by an {@code info} with a new one (old number + concurrency),
 * as the built-in workloads do.
 *
 * <p>A step that never returns must not hang the test: after the run's end the loop waits a grace of twice the
 * session timeout plus 10 s, then interrupts the workers, and an operation still in flight after that is recorded
 * {@code info} ("abandoned").
 *
 * <p>A client that cannot be opened is tried again every 200 ms, but not for ever: a process slot whose opens have
 * all failed for longer than the test's open timeout stops every worker and fails the test ({@link NothingTested})
 * with the last error as its cause; so does a run in which no client could ever be opened.
 */
final class ClientLoop {

    private static final Logger LOG = LoggerFactory.getLogger(ClientLoop.class);
    private static final Duration REOPEN_AFTER = Duration.ofMillis(200);

    private final RunningContext ctx;
    private final ChaosClient.Factory factory;
    /** An Error a client threw (an assertion of the user's own): it ends that worker and fails the test. */
    private final AtomicReference<Error> error = new AtomicReference<>();
    /** A process slot that could not open its client within the bound: it stops every worker. */
    private final AtomicReference<NothingTested> stuck = new AtomicReference<>();
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger openFailures = new AtomicInteger();
    private final AtomicReference<Exception> lastOpenError = new AtomicReference<>();

    ClientLoop(RunningContext ctx, ChaosClient.Factory factory) {
        this.ctx = ctx;
        this.factory = factory;
    }

    void run() throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        for (int slot = 0; slot < ctx.concurrency(); slot++) {
            int first = slot;
            Thread t = new Thread(() -> work(first), "chaos-client-" + slot);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
        long grace = ctx.sessionTimeout().multipliedBy(2).plusSeconds(10).toNanos();
        try {
            for (Thread t : workers) {
                long left = ctx.remaining().toNanos() + grace;
                TimeUnit.NANOSECONDS.timedJoin(t, Math.max(1, left));
            }
        } finally {
            for (Thread t : workers) {
                if (t.isAlive()) {
                    LOG.warn("{} did not return from its step at the end of the run; interrupting it", t.getName());
                    t.interrupt();
                }
            }
            for (Thread t : workers) {
                t.join(TimeUnit.SECONDS.toMillis(5));
            }
            for (PendingOperation p : ctx.guardedRecorder().allInFlight()) {
                p.info("abandoned: the client's step did not return by the end of the run");
            }
        }
        if (error.get() != null) {
            throw error.get();
        }
        if (stuck.get() != null) {
            throw stuck.get();
        }
        if (opened.get() == 0 && openFailures.get() > 0) {
            Exception last = lastOpenError.get();
            throw new NothingTested("no client could be opened in the whole run: " + openFailures.get()
                    + " attempt(s) by " + ctx.concurrency() + " process(es) failed (the open timeout, "
                    + DurationText.format(ctx.openTimeout()) + ", was not reached before the run ended); the last "
                    + "failed with: " + openError(last), last);
        }
    }

    /** Whether the workers go on: the run lasts, and no slot has failed the test by not opening. */
    private boolean going() {
        return ctx.running() && stuck.get() == null && !Thread.currentThread().isInterrupted();
    }

    private void work(int slot) {
        int id = slot;
        ChaosClient client = null;
        Process process = new Process(id);
        long failingSince = -1; // when this slot's current run of failed opens began
        int attempts = 0;
        try {
            while (going()) {
                if (client == null) {
                    long attemptStart = System.nanoTime();
                    try {
                        client = factory.open(process);
                        opened.incrementAndGet();
                        failingSince = -1;
                        attempts = 0;
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        openFailures.incrementAndGet();
                        lastOpenError.set(e);
                        attempts++;
                        if (failingSince < 0) {
                            failingSince = attemptStart;
                            LOG.info("process {} could not open its client ({}); trying again every {} for up to {}",
                                    id, openError(e), DurationText.format(REOPEN_AFTER),
                                    DurationText.format(ctx.openTimeout()));
                        } else {
                            LOG.debug("process {} could not open its client: {}", id, openError(e));
                        }
                        Duration failing = Duration.ofNanos(System.nanoTime() - failingSince);
                        if (failing.compareTo(ctx.openTimeout()) > 0) {
                            stuck.compareAndSet(null, new NothingTested("process " + id + " could not open its "
                                    + "client for " + DurationText.format(failing.truncatedTo(ChronoUnit.MILLIS))
                                    + ", past the open timeout of " + DurationText.format(ctx.openTimeout())
                                    + " (@ChaosTest(openTimeout)): " + attempts + " attempt(s), the last failed "
                                    + "with: " + openError(e), e));
                            return;
                        }
                        TimeUnit.MILLISECONDS.sleep(REOPEN_AFTER.toMillis());
                        continue;
                    }
                }
                boolean retire = false;
                try {
                    client.step(process);
                } catch (OperationFailed e) {
                    // recorded as fail by call(); the process goes on
                } catch (Exception e) {
                    PendingOperation open = ctx.guardedRecorder().inFlight(id);
                    if (open != null) {
                        open.info(Outcomes.describe(e));
                    }
                    retire = true; // the client's state is unknown: a new process, a new session
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                }
                PendingOperation left = ctx.guardedRecorder().inFlight(id);
                if (left != null) {
                    left.info("left in flight by the step");
                }
                if (retire || ctx.guardedRecorder().retired(id)) {
                    close(client, id);
                    client = null;
                    id += ctx.concurrency();
                    process = new Process(id);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            error.compareAndSet(null, e);
        } finally {
            if (client != null) {
                close(client, id);
            }
        }
    }

    /** A failed open in a failure's words: the exception's type and message, as the user's code threw it. */
    private static String openError(Exception e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static void close(ChaosClient client, int id) {
        try {
            client.close();
        } catch (Exception e) {
            LOG.debug("closing the client of process {}: {}", id, e.toString());
        }
    }

    /** One process as its client sees it. */
    private final class Process implements ChaosProcess {
        private final int id;

        Process(int id) {
            this.id = id;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public boolean running() {
            return ctx.running();
        }

        @Override
        public <T> T call(String f, Object value, Callable<T> body) throws Exception {
            return call(f, null, value, body);
        }

        @Override
        public <T> T call(String f, String key, Object value, Callable<T> body) throws Exception {
            PendingOperation op = ctx.guardedRecorder().invoke(id, f, key, value);
            T result;
            try {
                result = body.call();
            } catch (OperationFailed e) {
                op.fail(e.getMessage());
                throw e;
            } catch (Exception | Error e) {
                op.info(Outcomes.describe(e));
                throw e;
            }
            op.ok(result == null ? value : result);
            return result;
        }

        @Override
        public PendingOperation invoke(String f, Object value) {
            return ctx.guardedRecorder().invoke(id, f, value);
        }
    }
}
