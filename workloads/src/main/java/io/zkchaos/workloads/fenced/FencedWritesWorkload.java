package io.zkchaos.workloads.fenced;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.Znodes;
import io.zkchaos.workloads.election.CandidateFactory;
import io.zkchaos.workloads.election.ElectionWorkload;
import io.zkchaos.workloads.election.Leadership;
import io.zkchaos.workloads.election.LeaderTask;
import io.zkchaos.workloads.election.OwnRecipe;
import io.zkchaos.workloads.election.ProcessLog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.ZooKeeper;

/**
 * {@code fenced-writes}: the election workload, and whoever believes it leads appends {@code {token, value}} to a
 * {@link FencedStore} every {@code writeInterval}, on its own session, with its fencing token (values unique, from
 * one counter).
 *
 * <p>History: everything the election workload records, plus {@code fenced-write} invoke {@code {"token", "value"}}
 * → ok (the store accepted it) / fail (rejected as stale, or never sent) / info (unknown: the process retires after
 * recording the end of its leadership). Final phase: one {@code read} whose ok value is the list of accepted
 * {@code {"token", "value"}} entries in store order (after {@code sync()}).
 */
public final class FencedWritesWorkload implements Workload {

    private final String name;
    private final ElectionWorkload election;
    private final FencedStore store;
    private final AtomicLong values = new AtomicLong();

    public FencedWritesWorkload(String name, String root, CandidateFactory recipe, Duration holdMin,
                                Duration holdMax, Duration writeInterval) {
        this.name = Objects.requireNonNull(name, "name");
        Objects.requireNonNull(root, "root");
        this.store = new FencedStore(root + "/log");
        long intervalNanos = writeInterval.toNanos();
        LeaderTask writer = new LeaderTask() {
            private long lastWrite;

            @Override
            public boolean step(Leadership term, ProcessLog log, ZooKeeper zk) throws Exception {
                long now = System.nanoTime();
                if (now - lastWrite < intervalNanos) {
                    TimeUnit.NANOSECONDS.sleep(Math.min(intervalNanos - (now - lastWrite),
                            TimeUnit.MILLISECONDS.toNanos(50)));
                    return true;
                }
                lastWrite = now;
                long value = values.incrementAndGet();
                Map<String, Object> arg = new FencedStore.Entry(term.token(), value).toValue();
                log.invoke("fenced-write", arg);
                Result r = store.append(zk, term.token(), value);
                log.complete("fenced-write", r.type(), r.value(), r.error());
                return !r.retiresProcess();
            }
        };
        this.election = new ElectionWorkload(name, root + "/election", recipe, writer, holdMin, holdMax);
    }

    /** The herd-free recipe, leaders holding 0.3–1.5 s, a write every 50 ms. */
    public static FencedWritesWorkload withOwnRecipe(String root) {
        return new FencedWritesWorkload("fenced-writes", root, OwnRecipe.herdFree(), Duration.ofMillis(300), Duration.ofMillis(1500),
                Duration.ofMillis(50));
    }

    @Override
    public String name() {
        return name;
    }

    public FencedStore store() {
        return store;
    }

    @Override
    public void setup(Target target) throws Exception {
        election.setup(target);
        ZooKeeper zk = Sessions.open(target.connectString(), target, null);
        try {
            Znodes.deleteRecursive(zk, store.path());
            Znodes.ensurePath(zk, store.path());
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        election.run(ctx);
    }

    /** Final reads use this process number. */
    public static final int FINAL_PROCESS = 1_000_000;

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException {
        Op invoke = recorder.invoke(FINAL_PROCESS, "read", null, null);
        ZooKeeper zk = null;
        try {
            zk = Sessions.open(target.connectString(), target, null);
            zk.sync(store.path());
            List<Map<String, Object>> entries = store.read(zk).stream().map(FencedStore.Entry::toValue).toList();
            recorder.complete(invoke, OpType.OK, entries, null);
        } catch (InterruptedException e) {
            recorder.complete(invoke, OpType.INFO, null, "interrupted");
            throw e;
        } catch (Exception e) {
            recorder.complete(invoke, OpType.INFO, null, Outcomes.describe(e));
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    @Override
    public void teardown(Target target) {
        election.teardown(target);
    }
}
