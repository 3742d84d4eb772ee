package io.zkchaos.workloads;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.gen.Gen;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request/response workload: processes take operations from one seeded generator, invoke them through their own
 * {@link Client}, and record invoke and completion. Subclasses supply the generator and the client.
 */
public abstract class ClientWorkload implements Workload {

    private static final Logger LOG = LoggerFactory.getLogger(ClientWorkload.class);

    private volatile double rate;

    /** The operations of the main phase (the run bounds it by the context's duration). */
    protected abstract Gen<Invocation> generator();

    /**
     * Limits all processes together to about {@code opsPerSecond} (a seeded random stagger with that mean rate, as
     * Jepsen's {@code stagger}); 0 (the default) means as fast as the clients go. Returns this.
     */
    public ClientWorkload withRate(double opsPerSecond) {
        if (opsPerSecond < 0 || Double.isNaN(opsPerSecond) || Double.isInfinite(opsPerSecond)) {
            throw new IllegalArgumentException("rate must be >= 0 ops/s, got " + opsPerSecond);
        }
        this.rate = opsPerSecond;
        return this;
    }

    /** The generator the run uses: {@link #generator()}, staggered when a rate is set. */
    public Gen<Invocation> operations() {
        Gen<Invocation> g = generator();
        return rate > 0 ? g.stagger(java.time.Duration.ofNanos((long) (1e9 / rate))) : g;
    }

    /** Opens a client with a new session for {@code process}; throws if it cannot connect in time. */
    protected abstract Client open(int process, Target target) throws Exception;

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        Gen.Cursor<Invocation> cursor = operations().timeLimit(ctx.duration()).start(ctx.seed());
        long start = System.nanoTime();
        long deadline = start + ctx.duration().toNanos();
        AtomicInteger retired = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int slot = 0; slot < ctx.concurrency(); slot++) {
            int first = slot;
            Thread t = new Thread(() -> worker(ctx, first, cursor, start, deadline, retired),
                    name() + "-worker-" + slot);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        LOG.info("{}: main phase done, {} processes retired", name(), retired.get());
    }

    private void worker(RunContext ctx, int slot, Gen.Cursor<Invocation> cursor, long start, long deadline,
                        AtomicInteger retired) {
        HistoryRecorder recorder = ctx.recorder();
        int process = slot;
        Client client = null;
        try {
            while (!Thread.currentThread().isInterrupted() && !ctx.over(deadline)) {
                if (client == null) {
                    try {
                        client = open(process, ctx.target());
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        // No operation is outstanding: nothing to record. Back off, try again while time remains.
                        LOG.debug("process {} could not connect: {}", process, Outcomes.describe(e));
                        TimeUnit.MILLISECONDS.sleep(200);
                        continue;
                    }
                }
                Gen.Next<Invocation> next;
                synchronized (cursor) {
                    next = cursor.next(System.nanoTime() - start);
                }
                if (next instanceof Gen.Next.Done) {
                    return;
                }
                if (next instanceof Gen.Next.Pending<Invocation> p) {
                    long waitNanos = Math.min(p.atNanos() - (System.nanoTime() - start), deadline - System.nanoTime());
                    if (waitNanos > 0) {
                        TimeUnit.NANOSECONDS.sleep(Math.min(waitNanos, TimeUnit.MILLISECONDS.toNanos(100)));
                    }
                    continue;
                }
                Invocation op = ((Gen.Next.Emit<Invocation>) next).value();
                Op invoke = recorder.invoke(process, op.f(), op.key(), op.value());
                Result result;
                try {
                    result = client.invoke(op);
                } catch (RuntimeException e) {
                    result = Outcomes.indeterminate(e); // a client bug is still an unknown outcome, never a fail
                }
                recorder.complete(invoke, result.type(), result.value(), result.error());
                if (result.retiresProcess()) {
                    client.close();
                    client = null;
                    process += ctx.concurrency(); // Jepsen's convention: the replacement takes the next free number
                    retired.incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (client != null) {
                client.close();
            }
        }
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException {
        // Nothing by default.
    }
}
