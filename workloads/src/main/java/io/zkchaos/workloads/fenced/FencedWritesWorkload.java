package io.zkchaos.workloads.fenced;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SlottedWorkload;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import io.zkchaos.workloads.election.CandidateFactory;
import io.zkchaos.workloads.election.ElectionWorkload;
import io.zkchaos.workloads.election.Leadership;
import io.zkchaos.workloads.election.LeaderTask;
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
 * {@link FencedStore} every {@code writeInterval}, with its fencing token; {@code unfenced-writes}: the same against
 * the store without fencing ({@link FencedStore#unfenced}).
 *
 * <p><b>The store is reached through a connection of its own.</b> Each process opens a second ZooKeeper session, the
 * store session, beside its election session: the store stands for the resource a lock guards (a database, a file
 * system), which is never reached through the lock's session. (Were it written on the election session, ZooKeeper
 * itself would fence it: an expired session can write nothing, so a stale leader's write could only fail with a
 * connection loss.) The store session asks for {@link #STORE_SESSION_TIMEOUT} and gets what the servers grant at most
 * (their {@code maxSessionTimeout}), so that it outlives a client pause that the election session does not.
 *
 * <p><b>The leader's loop</b> checks that it still leads, prepares its entry (that takes the write interval) and
 * writes it, without checking again, as most programs do: a check right before the write would only narrow the
 * window, never close it, since a process can be frozen between any check and the write. A leader frozen while it
 * prepares wakes up and writes as the leader it no longer is; the fenced store rejects that write, the unfenced
 * store takes it after the newer leader's.
 *
 * <p>History: everything the election workload records, plus {@code fenced-write} invoke {@code {"token", "value"}}
 * → ok (the store accepted it) / fail (rejected as stale, or never sent) / info (unknown: the process retires after
 * recording the end of its leadership). A write invoked once the writer's process is retired (its acquire ended
 * info while the leader prepared or waited to write) is recorded under the slot's next process, which the thread
 * continues as ({@link io.zkchaos.workloads.election.CandidateLog}). Values are unique:
 * {@code process × 1 000 000 + n}, {@code process} the writer's own. Final phase: one
 * {@code read} whose ok value is the list of accepted {@code {"token", "value"}} entries in store order (after
 * {@code sync()}).
 */
public final class FencedWritesWorkload implements SlottedWorkload {

    /**
     * The session timeout the store session asks for; the servers grant at most their {@code maxSessionTimeout}
     * (the runner makes that outlast the longest fault hold).
     */
    public static final Duration STORE_SESSION_TIMEOUT = Duration.ofMinutes(1);
    /** Values are {@code process × this + n}: unique across processes, in one JVM or many. */
    static final long VALUES_PER_PROCESS = 1_000_000L;

    private final String name;
    private final ElectionWorkload election;
    private final FencedStore store;
    private final AtomicLong values = new AtomicLong();

    /** A fenced store. */
    public FencedWritesWorkload(String name, String root, CandidateFactory recipe, Duration holdMin,
                                Duration holdMax, Duration writeInterval) {
        this(name, root, recipe, holdMin, holdMax, writeInterval, true);
    }

    /**
     * @param fenced whether the store rejects stale tokens ({@code fenced-writes}) or takes every write
     *               ({@code unfenced-writes})
     */
    public FencedWritesWorkload(String name, String root, CandidateFactory recipe, Duration holdMin,
                                Duration holdMax, Duration writeInterval, boolean fenced) {
        this.name = Objects.requireNonNull(name, "name");
        Objects.requireNonNull(root, "root");
        this.store = fenced ? new FencedStore(root + "/log") : FencedStore.unfenced(root + "/log");
        long intervalNanos = writeInterval.toNanos();
        LeaderTask writer = (process, target) -> {
            ZooKeeper storeSession = Sessions.openClient(target.connectString(),
                    target.withTimeouts(STORE_SESSION_TIMEOUT, target.requestTimeout()), null);
            return new LeaderTask.Worker() {
                @Override
                public boolean step(Leadership term, ProcessLog log) throws Exception {
                    TimeUnit.NANOSECONDS.sleep(intervalNanos); // prepares the entry: the leader does not look again
                    long value = process * VALUES_PER_PROCESS + values.incrementAndGet();
                    log.invoke("fenced-write", new FencedStore.Entry(term.token(), value).toValue());
                    Result r = store.append(storeSession, term.token(), value);
                    log.complete("fenced-write", r.type(), r.value(), r.error());
                    return !r.retiresProcess();
                }

                @Override
                public void close() {
                    Sessions.closeQuietly(storeSession);
                }
            };
        };
        this.election = new ElectionWorkload(name, root + "/election", recipe, writer, holdMin, holdMax);
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
            Znodes.ensurePath(zk, store.path(), target.acls().forSetup());
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        election.run(ctx);
    }

    @Override
    public void runSlot(RunContext ctx, int slot, int firstProcess) throws InterruptedException {
        election.runSlot(ctx, slot, firstProcess);
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
