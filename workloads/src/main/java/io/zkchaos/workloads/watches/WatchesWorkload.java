package io.zkchaos.workloads.watches;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.Znodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code watches}: writers create, set and delete a few znodes under {@code ROOT/tree} while watching sessions set
 * one-time data and child watches on them ({@code getData}, {@code exists}, {@code getChildren}) and — where the
 * server has them (3.6.0 on) — persistent and persistent-recursive watches ({@code addWatch}), and record every event
 * their clients dispatch. Judged by the {@code watches} checker (docs/history-conventions.md, "Watches").
 *
 * <p>Of {@code concurrency} client slots, about two in five write ({@link #writers}) and the rest watch. A watching
 * session adds a persistent-recursive watch on the tree and persistent watches on the tree and on one key (one a
 * call, until all are in), and reads: mostly reads that set a watch, some plain reads, and syncs. When the main phase ends the writers stop;
 * each watching session then syncs once more — the barrier by which every change must have fired its watches — and
 * closes.
 */
public final class WatchesWorkload implements Workload {

    private static final Logger LOG = LoggerFactory.getLogger(WatchesWorkload.class);

    private final String name;
    private final String root;
    private final String tree;
    private final String clocks;
    private final int keys;
    private final double rate;
    private final IntFunction<EventTap> taps;
    /** Whether the servers have persistent watches: null until a session learns it. */
    private final AtomicReference<Boolean> persistent = new AtomicReference<>();

    /**
     * @param root where the workload keeps everything ({@code ROOT/tree} is watched, {@code ROOT/clocks} not)
     * @param keys how many znodes the writers change under the tree
     * @param rate operations per second over all processes (0: as fast as they go)
     */
    public WatchesWorkload(String root, int keys, double rate) {
        this("watches", root, keys, rate, process -> EventTap.DIRECT);
    }

    private WatchesWorkload(String name, String root, int keys, double rate, IntFunction<EventTap> taps) {
        this.name = Objects.requireNonNull(name, "name");
        this.root = Objects.requireNonNull(root, "root");
        this.tree = root + "/tree";
        this.clocks = root + "/clocks";
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be at least 1, got " + keys);
        }
        this.keys = keys;
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be >= 0 operations per second, got " + rate);
        }
        this.rate = rate;
        this.taps = Objects.requireNonNull(taps, "taps");
    }

    /**
     * The same workload under another name whose sessions hand their events through the tap {@code otherTaps} makes
     * for each session's process before recording them: for deliberately broken clients ({@link BrokenWatchers}).
     */
    public WatchesWorkload withEventTap(String otherName, IntFunction<EventTap> otherTaps) {
        return new WatchesWorkload(otherName, root, keys, rate, otherTaps);
    }

    @Override
    public String name() {
        return name;
    }

    /** How many of {@code concurrency} slots write: about two in five, at least one, leaving one to watch. */
    static int writers(int concurrency) {
        return Math.max(1, Math.min(concurrency - 1, Math.round(concurrency * 0.4f)));
    }

    String key(int k) {
        return tree + "/k" + k;
    }

    @Override
    public void setup(Target target) throws Exception {
        ZooKeeper zk = Sessions.open(target.connectString(), target, null);
        try {
            Znodes.deleteRecursive(zk, root);
            Znodes.ensurePath(zk, tree, target.acls().forSetup());
            Znodes.ensurePath(zk, clocks, target.acls().forSetup());
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    /** The writers' changes: a create where the generator last left a key absent, else mostly sets. */
    Gen<Invocation> changes() {
        return Gens.from(() -> {
            boolean[] present = new boolean[keys];
            return random -> {
                int k = random.nextInt(keys);
                String f;
                if (!present[k]) {
                    f = "create";
                    present[k] = true;
                } else if (random.nextInt(4) == 0) {
                    f = "delete";
                    present[k] = false;
                } else {
                    f = "set";
                }
                return new Invocation(f, key(k), null);
            };
        });
    }

    /** The watching sessions' calls: reads that set a watch, plain reads, syncs. */
    Gen<Invocation> reads() {
        Map<String, Object> watch = Map.of("watch", true);
        Map<String, Object> plain = Map.of("watch", false);
        return Gens.mix(() -> List.of(
                new Gens.Weighted<>(4, r -> new Invocation("get-data", key(r.nextInt(keys)), watch)),
                new Gens.Weighted<>(3, r -> new Invocation("exists", key(r.nextInt(keys)), watch)),
                new Gens.Weighted<>(2, r -> new Invocation("get-children", r.nextInt(4) == 0
                        ? key(r.nextInt(keys)) : tree, watch)),
                new Gens.Weighted<>(2, r -> new Invocation("get-data", r.nextInt(4) == 0 ? tree
                        : key(r.nextInt(keys)), plain)),
                new Gens.Weighted<>(1, r -> new Invocation("sync", tree, null))));
    }

    private static Gen<Invocation> paced(Gen<Invocation> g, double perSecond) {
        return perSecond > 0 ? g.stagger(Duration.ofNanos((long) (1e9 / perSecond))) : g;
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        int c = ctx.concurrency();
        if (c < 2) {
            throw new IllegalArgumentException("the watches workload needs at least 2 clients (one writes, one "
                    + "watches), got " + c);
        }
        int writers = writers(c);
        long start = System.nanoTime();
        ClientDeadline deadline = ctx.deadline();
        Gen.Cursor<Invocation> changes = paced(changes(), rate * writers / c).until(() -> deadline.atNanos() - start)
                .start(ctx.seed());
        Gen.Cursor<Invocation> reads = paced(reads(), rate * (c - writers) / c).until(() -> deadline.atNanos() - start)
                .start(new SplittableRandom(ctx.seed()).nextLong());
        CountDownLatch writing = new CountDownLatch(writers);
        List<Thread> threads = new ArrayList<>();
        for (int slot = 0; slot < c; slot++) {
            int s = slot;
            Runnable body = s < writers
                    ? () -> {
                        try {
                            write(ctx, s, changes, start, deadline);
                        } finally {
                            writing.countDown();
                        }
                    }
                    : () -> watch(ctx, s, reads, start, deadline, writing);
            Thread t = new Thread(body, name + (s < writers ? "-writer-" : "-watcher-") + s);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /** The next operation of {@code cursor} due now; null when it is done or the deadline passed. */
    private static Invocation next(Gen.Cursor<Invocation> cursor, long start, ClientDeadline deadline)
            throws InterruptedException {
        while (!deadline.passed()) {
            Gen.Next<Invocation> next;
            synchronized (cursor) {
                next = cursor.next(System.nanoTime() - start);
            }
            if (next instanceof Gen.Next.Emit<Invocation> e) {
                return e.value();
            }
            if (next instanceof Gen.Next.Done) {
                return null;
            }
            long wait = Math.min(((Gen.Next.Pending<Invocation>) next).atNanos() - (System.nanoTime() - start),
                    deadline.remainingNanos());
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(100)));
            }
        }
        return null;
    }

    /**
     * What {@code open} opens (a session of {@code process}); null when it could not, after a short wait: no operation
     * is outstanding then, so nothing is recorded, and the caller tries again while time remains.
     */
    private static <T> T opened(java.util.concurrent.Callable<T> open, String who, int process)
            throws InterruptedException {
        try {
            return open.call();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            LOG.debug("{} {} could not connect: {}", who, process, Outcomes.describe(e));
            TimeUnit.MILLISECONDS.sleep(200);
            return null;
        }
    }

    private void write(RunContext ctx, int slot, Gen.Cursor<Invocation> cursor, long start, ClientDeadline deadline) {
        Writer writer = new Writer(slot, clocks + "/w" + slot, ctx.recorder(), ctx.target());
        int process = slot;
        try {
            while (!deadline.passed()) {
                int p = process;
                if (!writer.isOpen() && opened(() -> {
                    writer.open(p);
                    return writer;
                }, "writer", p) == null) {
                    continue;
                }
                Invocation op = next(cursor, start, deadline);
                if (op == null) {
                    return;
                }
                if (writer.change(op)) {
                    writer.close();
                    process += ctx.concurrency();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            writer.close();
        }
    }

    private void watch(RunContext ctx, int slot, Gen.Cursor<Invocation> cursor, long start, ClientDeadline deadline,
                       CountDownLatch writing) {
        int process = slot;
        WatchingSession session = null;
        List<String> toAdd = new ArrayList<>(); // the session's persistent watches not added yet
        try {
            while (!deadline.passed()) {
                if (session == null) {
                    int p = process;
                    session = opened(() -> WatchingSession.open(p, ctx.recorder(), taps.apply(p), ctx.target()),
                            "watcher", p);
                    if (session == null) {
                        continue;
                    }
                    toAdd = new ArrayList<>(List.of(tree + RECURSIVE, tree, key(slot % keys)));
                }
                if (!toAdd.isEmpty() && addWatch(session, toAdd, ctx.target())) {
                    session.close();
                    session = null;
                    process += ctx.concurrency();
                    continue;
                }
                Invocation op = next(cursor, start, deadline);
                if (op == null) {
                    break;
                }
                if (session.call(op).retires()) {
                    session.close();
                    session = null;
                    process += ctx.concurrency();
                }
            }
            // The barrier: once every writer is done, a sync by which every change must have fired its watches.
            if (session != null && writing.await(ctx.target().requestTimeout().toMillis() * 3,
                    TimeUnit.MILLISECONDS)) {
                session.call(new Invocation("sync", tree, null));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (session != null) {
                session.close();
            }
        }
    }

    /** Marks the recursive one among a session's persistent watches to add. */
    private static final String RECURSIVE = " (recursive)";

    /**
     * Adds the first of a session's persistent watches still to add (recursive on the tree, then on the tree and on
     * one key; one a call, between its reads, until all are in). A server before 3.6.0 answers Unimplemented (and
     * drops the connection, which the session survives): said once, and not tried again. Returns whether the
     * process must retire.
     */
    private boolean addWatch(WatchingSession session, List<String> toAdd, Target target)
            throws InterruptedException {
        if (Boolean.FALSE.equals(persistent.get())) {
            toAdd.clear();
            return false;
        }
        String next = toAdd.get(0);
        boolean recursive = next.endsWith(RECURSIVE);
        WatchingSession.Outcome added = session.addWatch(recursive ? next.substring(0, next.length()
                - RECURSIVE.length()) : next, recursive);
        if (added.unimplemented()) {
            toAdd.clear();
            if (persistent.compareAndSet(null, false)) {
                LOG.warn("{}: the servers at {} have no persistent watches (addWatch answered Unimplemented; "
                        + "ZooKeeper has them from 3.6.0): this run sets one-time watches only", name,
                        target.connectString());
            }
        } else if (added.type() == OpType.OK) {
            persistent.set(true);
            toAdd.remove(0);
        }
        return added.retires();
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) {
        // The sessions' last syncs are the barrier; the final state is read by the runner.
    }

    @Override
    public void teardown(Target target) {
        // The znodes are left for inspection; setup clears them at the next run.
    }
}
