package io.zkchaos.workloads.churn;

import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.ALIVE;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.CLOSE;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.CRASH;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.CREATE;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.EXPIRE;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.OPEN;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.READ;

import io.zkchaos.checkers.churn.ChurnEphemeralsChecker;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Session churn ({@code --churn N}): beside the workload, N lanes each open short ZooKeeper sessions in a loop for the
 * main phase, create 1 to {@value #MAX_EPHEMERALS} ephemerals (some sequential) under {@value #ROOT}, and end each
 * session one of three seeded ways: {@code close} (the client closes it; ok when the servers acknowledged), {@code
 * expire} (its connection silenced, its client stopped without a close: the servers must expire it) and {@code crash}
 * (its connection closed as a killed client process's is, its client stopped without a close). Every session goes
 * through a {@link SessionRelay} of its own to the workload's client addresses, so client faults and partitions reach
 * it; no client process is killed (a JVM per session is too dear on a small machine): to the servers a crash is a
 * connection that ends and never comes back, an expiry one that goes silent. The servers' session tables and
 * ephemerals thus change all the time while snapshots are taken and nodes crash and sync.
 *
 * <p>Each lane's last session is kept alive to the end. After the final heal, {@link #finalReads} waits until every
 * ended session is due to be gone (its timeout + {@link ChurnEphemeralsChecker#EXPIRY_MARGIN} after its end and after
 * the heal), reads {@value #ROOT}'s children with their owners on every server, asks each live session whether it is
 * still alive and then closes it. All of it goes into the history as {@link ChurnEphemeralsChecker} describes, under
 * processes of its own (the harness's range), which the workloads' checkers leave out.
 */
public final class Churn implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Churn.class);

    /** Where the churn sessions create their ephemerals. */
    public static final String ROOT = "/zkchaos-churn";
    /** The longest session timeout a churn session asks for (shorter when the workload's is). */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);
    /** The most ephemerals a session creates. */
    static final int MAX_EPHEMERALS = 5;
    /** The longest a session is held between its creates and its end. */
    static final Duration MAX_HOLD = Duration.ofMillis(800);
    /** Beyond the bound, how long the final reads wait more (clock steps between the harness and the history). */
    static final Duration SLACK = Duration.ofMillis(500);
    private static final List<String> WAYS = List.of(CLOSE, EXPIRE, CRASH);

    private final Target target;
    private final HistoryRecorder recorder;
    private final LongSupplier clock;
    private final long seed;
    private final long deadline;
    private final AtomicInteger nextProcess = new AtomicInteger(ChurnEphemeralsChecker.PROCESS_BASE);
    private final List<Thread> lanes = new ArrayList<>();
    private final Map<String, AtomicInteger> ended = new ConcurrentHashMap<>();
    private final List<SessionRelay> relays = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<Live> live = java.util.Collections.synchronizedList(new ArrayList<>());
    private final java.util.Set<ChurnZooKeeper> handles = ConcurrentHashMap.newKeySet();
    /** The latest end of a session, on the recorder's clock (the lanes race to raise it). */
    private final AtomicLong lastEnd = new AtomicLong();
    /** The longest session timeout asked or negotiated, in ns. */
    private final AtomicLong longestTimeout = new AtomicLong();
    private volatile boolean stopped;

    /** A lane's last session, kept to the reads. */
    private record Live(int process, ChurnZooKeeper zk, SessionRelay relay) {
    }

    private Churn(Target target, HistoryRecorder recorder, LongSupplier clock, long seed, Duration runFor) {
        this.target = target.withTimeouts(shortest(target.sessionTimeout(), SESSION_TIMEOUT), target.requestTimeout());
        this.recorder = recorder;
        this.clock = clock;
        this.seed = seed;
        this.deadline = System.nanoTime() + runFor.toNanos();
        this.longestTimeout.set(this.target.sessionTimeout().toNanos());
    }

    /** Creates {@value #ROOT} (idempotent): a workload's setup, before the main phase. */
    public static void setup(Target target) throws Exception {
        Sessions.with(target, zk -> {
            try {
                zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // made by an earlier try of the setup
            }
        });
    }

    /**
     * Starts {@code lanes} lanes that churn sessions on {@code target}'s servers for {@code runFor}.
     *
     * @param clock the recorder's clock (ns since the run began), that the history's times are read on
     */
    public static Churn start(Target target, HistoryRecorder recorder, LongSupplier clock, long seed, int lanes,
                              Duration runFor) {
        if (lanes < 1) {
            throw new IllegalArgumentException("churn needs at least one lane, got " + lanes);
        }
        Churn churn = new Churn(target, recorder, clock, seed, runFor);
        for (int i = 0; i < lanes; i++) {
            int lane = i;
            Thread t = new Thread(() -> churn.lane(lane), "churn-" + lane);
            t.setDaemon(true);
            churn.lanes.add(t);
            t.start();
        }
        return churn;
    }

    /** Sessions ended so far, by the way they ended ({@code churn-close} ...). */
    public Map<String, Integer> ended() {
        Map<String, Integer> m = new TreeMap<>();
        ended.forEach((k, v) -> m.put(ChurnEphemeralsChecker.ENDS.get(k), v.get()));
        return m;
    }

    /** Waits for the lanes to end (each ends at the end of the main phase, after its session's current step). */
    public void awaitLanes(Duration bound) throws InterruptedException {
        long until = System.nanoTime() + bound.toNanos();
        for (Thread t : lanes) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
        }
    }

    private void lane(int lane) {
        Random random = new Random(seed * 1_000_003L + lane);
        List<String> servers = List.copyOf(target.servers().values());
        boolean done = false;
        while (!stopped && !done) {
            try {
                done = session(lane, random, servers);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                LOG.warn("churn lane {}: {}", lane, Outcomes.describe(e));
                done = System.nanoTime() >= deadline;
            }
        }
    }

    /**
     * One session: open, create, hold, end. Once the main phase is over, the session is kept alive to the reads
     * instead, and the lane is done (also when a session could not be opened by then).
     *
     * @return whether the lane is done
     */
    private boolean session(int lane, Random random, List<String> servers) throws Exception {
        int process = nextProcess.getAndIncrement();
        SessionRelay relay = SessionRelay.open(servers, random.nextInt(servers.size()), "churn-" + process);
        relays.add(relay);
        Op open = recorder.invoke(process, OPEN, null, Map.of("lane", (long) lane,
                "timeoutMs", target.sessionTimeout().toMillis()));
        ChurnZooKeeper zk;
        try {
            zk = (ChurnZooKeeper) Sessions.open(ChurnZooKeeper::new, relay.connectString(), target, null);
            handles.add(zk);
        } catch (Exception e) {
            // Sessions.open closed the handle: a session the servers made ends like a closed one
            Op failed = recorder.complete(open, OpType.INFO, null, Outcomes.describe(e));
            lastEnd.accumulateAndGet(failed.time(), Math::max);
            relay.close();
            relays.remove(relay);
            if (e instanceof InterruptedException ie) {
                throw ie;
            }
            return System.nanoTime() >= deadline;
        }
        long timeoutMs = zk.getSessionTimeout();
        longestTimeout.accumulateAndGet(TimeUnit.MILLISECONDS.toNanos(timeoutMs), Math::max);
        recorder.complete(open, OpType.OK, Map.of("session", "0x" + Long.toHexString(zk.getSessionId()),
                "timeoutMs", timeoutMs), null);
        int count = 1 + random.nextInt(MAX_EPHEMERALS);
        for (int i = 0; i < count; i++) {
            if (!create(zk, process, lane, i, random.nextBoolean())) {
                break;
            }
        }
        Thread.sleep(random.nextInt((int) MAX_HOLD.toMillis() + 1)); // the session's life: the workload's pace
        if (System.nanoTime() >= deadline) {
            live.add(new Live(process, zk, relay)); // the lane's last session, kept to the reads
            return true;
        }
        end(zk, relay, process, WAYS.get(random.nextInt(WAYS.size())));
        return false;
    }

    /** One create: ok with its path; fail when the servers refused it; info when its fate is unknown. */
    private boolean create(ZooKeeper zk, int process, int lane, int i, boolean sequential) throws InterruptedException {
        String path = ROOT + "/l" + lane + "-p" + process + "-" + i + (sequential ? "-" : "");
        Op invoke = recorder.invoke(process, CREATE, null, Map.of("path", path, "sequential", sequential));
        try {
            String made = zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    sequential ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.EPHEMERAL);
            recorder.complete(invoke, OpType.OK, Map.of("path", made), null);
            return true;
        } catch (KeeperException e) {
            boolean refused = e.code() == KeeperException.Code.SESSIONEXPIRED
                    || e.code() == KeeperException.Code.NODEEXISTS || e.code() == KeeperException.Code.NONODE;
            recorder.complete(invoke, refused ? OpType.FAIL : OpType.INFO, null, Outcomes.describe(e));
            return e.code() != KeeperException.Code.SESSIONEXPIRED;
        } catch (InterruptedException e) {
            recorder.complete(invoke, OpType.INFO, null, "interrupted");
            throw e;
        }
    }

    /** Ends a session the way drawn; the end is recorded with its moment. */
    private void end(ChurnZooKeeper zk, SessionRelay relay, int process, String way) throws InterruptedException {
        Op invoke = recorder.invoke(process, way, null, null);
        Op done;
        switch (way) {
            case CLOSE -> done = close(zk, invoke);
            case EXPIRE -> {
                relay.silence();
                zk.abandon();
                done = recorder.complete(invoke, OpType.OK, null, null);
            }
            default -> {
                relay.sever();
                zk.abandon();
                done = recorder.complete(invoke, OpType.OK, null, null);
            }
        }
        handles.remove(zk);
        if (way.equals(EXPIRE)) {
            relay.stopListening(); // the servers' silent ends stay until they hang up
        } else {
            relay.close();
            relays.remove(relay);
        }
        ended.computeIfAbsent(way, w -> new AtomicInteger()).incrementAndGet();
        lastEnd.accumulateAndGet(done.time(), Math::max);
    }

    /** Closes the session: ok when the servers acknowledged, fail when it had expired, info when unknown. */
    private Op close(ChurnZooKeeper zk, Op invoke) throws InterruptedException {
        int err = zk.closeSession();
        KeeperException.Code code = KeeperException.Code.get(err);
        if (code == KeeperException.Code.OK) {
            return recorder.complete(invoke, OpType.OK, null, null);
        }
        return recorder.complete(invoke, code == KeeperException.Code.SESSIONEXPIRED ? OpType.FAIL : OpType.INFO,
                null, Outcomes.describe(KeeperException.create(code)));
    }

    /**
     * After the final heal ({@code healedAt} on the recorder's clock): waits until every ended session is due to be
     * gone, reads {@value #ROOT} on every server of {@code reads} (each alone), asks each live session whether it is
     * alive, and closes it. Every step is recorded.
     */
    public void finalReads(Target reads, long healedAt) throws InterruptedException {
        stopped = true;
        awaitLanes(target.requestTimeout().multipliedBy(MAX_EPHEMERALS + 3).plus(MAX_HOLD));
        long due = Math.max(lastEnd.get(), healedAt) + longestTimeout.get()
                + ChurnEphemeralsChecker.EXPIRY_MARGIN.toNanos() + SLACK.toNanos();
        long wait = due - clock.getAsLong();
        if (wait > 0) {
            LOG.info("churn: waiting {} ms for ended sessions to be due", TimeUnit.NANOSECONDS.toMillis(wait));
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        int process = ChurnEphemeralsChecker.READ_PROCESS_BASE;
        for (Map.Entry<String, String> server : reads.servers().entrySet()) {
            read(reads, process++, server.getKey(), server.getValue());
        }
        List<Live> keep;
        synchronized (live) {
            keep = List.copyOf(live);
            live.clear();
        }
        for (Live l : keep) {
            Op alive = recorder.invoke(l.process(), ALIVE, null, null);
            try {
                l.zk().exists(ROOT, false);
                recorder.complete(alive, OpType.OK, null, null);
            } catch (KeeperException e) {
                recorder.complete(alive, e.code() == KeeperException.Code.SESSIONEXPIRED ? OpType.FAIL : OpType.INFO,
                        null, Outcomes.describe(e));
            }
            end(l.zk(), l.relay(), l.process(), CLOSE);
        }
    }

    private void read(Target reads, int process, String node, String address) throws InterruptedException {
        Op invoke = recorder.invoke(process, READ, null, Map.of("node", node));
        ZooKeeper zk = null;
        try {
            zk = Sessions.open(address, reads, null);
            zk.sync(ROOT);
            Map<String, Object> children = new TreeMap<>();
            for (String child : zk.getChildren(ROOT, false)) {
                Stat stat = zk.exists(ROOT + "/" + child, false);
                if (stat != null) { // else deleted since: its session ended meanwhile
                    children.put(child, "0x" + Long.toHexString(stat.getEphemeralOwner()));
                }
            }
            recorder.complete(invoke, OpType.OK, Map.of("node", node, "children", children), null);
        } catch (InterruptedException e) {
            recorder.complete(invoke, OpType.INFO, null, "interrupted");
            throw e;
        } catch (Exception e) {
            recorder.complete(invoke, OpType.INFO, null, "server " + node + ": " + Outcomes.describe(e));
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    /** Stops the lanes and drops whatever is left (a run that did not get to its reads): no process, no socket. */
    @Override
    public void close() {
        stopped = true;
        lanes.forEach(Thread::interrupt);
        try {
            awaitLanes(target.requestTimeout().multipliedBy(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // a session not ended stops talking (its relay closes next): nothing is sent once the run is over
        handles.forEach(ChurnZooKeeper::abandon);
        handles.clear();
        live.clear();
        synchronized (relays) {
            relays.forEach(SessionRelay::close);
            relays.clear();
        }
    }

    private static Duration shortest(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
