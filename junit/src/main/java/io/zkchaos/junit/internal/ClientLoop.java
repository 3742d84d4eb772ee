package io.zkchaos.junit.internal;

import io.zkchaos.junit.ChaosClient;
import io.zkchaos.junit.ChaosProcess;
import io.zkchaos.junit.OperationFailed;
import io.zkchaos.junit.PendingOperation;
import io.zkchaos.workloads.Outcomes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
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
 */
final class ClientLoop {

    private static final Logger LOG = LoggerFactory.getLogger(ClientLoop.class);
    private static final Duration REOPEN_AFTER = Duration.ofMillis(200);

    private final RunningContext ctx;
    private final ChaosClient.Factory factory;
    /** An Error a client threw (an assertion of the user's own): it ends that worker and fails the test. */
    private final java.util.concurrent.atomic.AtomicReference<Error> error =
            new java.util.concurrent.atomic.AtomicReference<>();

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
    }

    private void work(int slot) {
        int id = slot;
        ChaosClient client = null;
        Process process = new Process(id);
        try {
            while (ctx.running() && !Thread.currentThread().isInterrupted()) {
                if (client == null) {
                    try {
                        client = factory.open(process);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        LOG.debug("process {} could not open its client: {}", id, Outcomes.describe(e));
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
