package io.zkchaos.workloads.election;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SlottedWorkload;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code election} / {@code election-curator} / {@code fenced-writes}: {@code concurrency} candidate processes
 * volunteer under one ELECTION znode; a leader holds for a seeded random time in [holdMin, holdMax], resigns
 * ({@code close}) and volunteers again.
 *
 * <p>History of a candidate process (one ZooKeeper session): {@code acquire} invoke (value null) when it volunteers;
 * ok {@code {"token", "czxid", "node"}} when it learns it leads; fail if it gave up (resigned, run over) before
 * leading; info if its session ended first. {@code release} invoke {@code {"token", "reason"}} when it stops
 * believing it leads ({@code closed}, {@code session-expired}, {@code disconnected}, {@code node-deleted}), ok when
 * done. After a session expiry the process is retired and a new process number with a new session volunteers.
 * With a {@link LeaderTask} (fenced writes) the leader also works while it leads; a release is recorded once that
 * work's current operation completes (one operation outstanding per process). Once an operation of the process ends
 * info it records nothing more but the release that closes an open leadership; a write its leader began before it
 * learned that goes under the next process number of the slot, the one its thread continues as ({@link CandidateLog}).
 */
public final class ElectionWorkload implements SlottedWorkload {

    private static final Logger LOG = LoggerFactory.getLogger(ElectionWorkload.class);
    /** How soon a waiting candidate or a holding leader sees its end (a test's stop comes before the end it had). */
    private static final Duration END_SEEN_WITHIN = Duration.ofMillis(100);

    private final String name;
    private final String electionPath;
    private final CandidateFactory factory;
    private final LeaderTask task;
    private final Duration holdMin;
    private final Duration holdMax;
    private final HerdCounters counters = new HerdCounters();

    /**
     * @param name         the workload's CLI name
     * @param electionPath the ELECTION znode
     * @param factory      the recipe
     * @param task         what a leader does while leading, or null
     * @param holdMin      shortest leadership before resigning
     * @param holdMax      longest leadership before resigning
     */
    public ElectionWorkload(String name, String electionPath, CandidateFactory factory, LeaderTask task,
                            Duration holdMin, Duration holdMax) {
        this.name = Objects.requireNonNull(name, "name");
        this.electionPath = Objects.requireNonNull(electionPath, "electionPath");
        this.factory = Objects.requireNonNull(factory, "factory");
        this.task = task;
        this.holdMin = Objects.requireNonNull(holdMin, "holdMin");
        this.holdMax = Objects.requireNonNull(holdMax, "holdMax");
        if (holdMin.isNegative() || holdMax.compareTo(holdMin) < 0) {
            throw new IllegalArgumentException("need 0 <= holdMin <= holdMax, got " + holdMin + ", " + holdMax);
        }
    }

    /** The project's herd-free recipe ({@code election}). */
    public static ElectionWorkload election(String electionPath) {
        return new ElectionWorkload("election", electionPath, OwnRecipe.herdFree(), null, Duration.ofMillis(300),
                Duration.ofMillis(1500));
    }

    /** Curator's LeaderLatch ({@code election-curator}). */
    public static ElectionWorkload curator(String electionPath) {
        return new ElectionWorkload("election-curator", electionPath, new CuratorLatch(), null,
                Duration.ofMillis(300), Duration.ofMillis(1500));
    }

    @Override
    public String name() {
        return name;
    }

    /** Watch notifications and getChildren calls of every candidate so far. */
    public HerdCounters counters() {
        return counters;
    }

    @Override
    public void setup(Target target) throws Exception {
        ZooKeeper zk = Sessions.open(target.connectString(), target, null);
        try {
            Znodes.deleteRecursive(zk, electionPath);
            Znodes.ensurePath(zk, electionPath, target.acls().forSetup());
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        ClientDeadline deadline = ctx.deadline();
        List<Thread> threads = new ArrayList<>();
        for (int slot = 0; slot < ctx.concurrency(); slot++) {
            int first = slot;
            SplittableRandom random = randomOf(ctx.seed(), first);
            Thread t = new Thread(() -> candidate(ctx, first, random, deadline), name + "-candidate-" + slot);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    @Override
    public void runSlot(RunContext ctx, int slot, int firstProcess) throws InterruptedException {
        if (slot < 0 || slot >= ctx.concurrency() || firstProcess % ctx.concurrency() != slot) {
            throw new IllegalArgumentException("slot " + slot + " of " + ctx.concurrency() + " cannot run process "
                    + firstProcess);
        }
        candidate(ctx, firstProcess, randomOf(ctx.seed(), firstProcess), ctx.deadline());
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("slot " + slot + " interrupted");
        }
    }

    /**
     * The hold times of the slot whose first process is {@code firstProcess}: the {@code firstProcess}-th split of
     * the run's seed, so a slot draws the same in a thread and in a process of its own (a replacement process,
     * started with a later number, draws afresh).
     */
    private static SplittableRandom randomOf(long seed, int firstProcess) {
        SplittableRandom seeds = new SplittableRandom(seed);
        SplittableRandom r = seeds.split();
        for (int i = 0; i < firstProcess; i++) {
            r = seeds.split();
        }
        return r;
    }

    /** Events from the recipe's thread to the candidate's own thread. */
    private record Event(String kind, Leadership term) {
    }

    private void candidate(RunContext ctx, int slot, SplittableRandom random, ClientDeadline deadline) {
        CandidateLog log = new CandidateLog(ctx.recorder(), slot, ctx.concurrency());
        try {
            while (!deadline.passed() && !Thread.currentThread().isInterrupted()) {
                int process = log.process();
                CandidateSession session;
                LeaderTask.Worker worker = null;
                try {
                    session = factory.open("p" + process, electionPath, ctx.target(), counters);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    LOG.debug("candidate p{} could not open a session: {}", process, Outcomes.describe(e));
                    TimeUnit.MILLISECONDS.sleep(200);
                    continue;
                }
                try {
                    if (task != null) {
                        worker = task.open(process, ctx.target());
                    }
                } catch (InterruptedException e) {
                    session.close();
                    return;
                } catch (Exception e) {
                    LOG.debug("candidate p{} could not open its worker: {}", process, Outcomes.describe(e));
                    session.close();
                    TimeUnit.MILLISECONDS.sleep(200);
                    continue;
                }
                try {
                    runSession(log, session, worker, random, deadline);
                } finally {
                    if (worker != null) {
                        worker.close();
                    }
                    session.close();
                }
                // The session is over: a new process takes the slot (skipping one that a stale write of this
                // session's worker, recorded under it, already retired).
                log = log.successor().firstLive();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Candidacies on one session until it ends, the process must retire, or the run is over. */
    private void runSession(CandidateLog log, CandidateSession session, LeaderTask.Worker worker,
                            SplittableRandom random, ClientDeadline deadline) throws InterruptedException {
        int process = log.process();
        while (!deadline.passed()) {
            BlockingQueue<Event> events = new LinkedBlockingQueue<>();
            session.startCandidacy(recordingListener(log, events));
            long resignAt = Long.MAX_VALUE;
            Leadership term = null;
            boolean retire = false;
            while (true) {
                long now = System.nanoTime();
                long end = deadline.atNanos(); // read again at every step: the run may move it later
                if (now - end >= 0 || now >= resignAt) {
                    break;
                }
                // in slices, so that a stop (ClientDeadline.stop) is seen while a leader holds or a candidate waits
                long waitNanos = Math.min(Math.min(end, resignAt) - now, END_SEEN_WITHIN.toNanos());
                // A working leader checks whether it still leads, then does a step of its work: the step does not
                // look again (see FencedWritesWorkload), as most programs do not.
                boolean working = term != null && worker != null;
                Event e = working ? events.poll() : events.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (e != null) {
                    switch (e.kind()) {
                        case "acquired" -> {
                            term = e.term();
                            long hold = holdMin.toNanos()
                                    + (holdMax.equals(holdMin) ? 0 : random.nextLong(holdMax.minus(holdMin).toNanos()));
                            resignAt = System.nanoTime() + hold;
                        }
                        case "releasing" -> {
                            term = null;
                            resignAt = Long.MAX_VALUE; // it will volunteer again by itself, or end
                        }
                        case "ended" -> retire = true;
                        default -> throw new IllegalStateException(e.kind());
                    }
                    if (retire) {
                        break;
                    }
                    continue;
                }
                if (working) {
                    boolean keepGoing;
                    try {
                        // Through the leader thread's log: a write it began before it learned that its process
                        // was retired is recorded under the process the slot's thread continues as.
                        keepGoing = worker.step(term, log.leaderThread());
                    } catch (InterruptedException ex) {
                        throw ex;
                    } catch (Exception ex) {
                        LOG.warn("leader task of p{} failed: {}", process, ex.toString());
                        keepGoing = false;
                    }
                    if (!keepGoing || log.isRetired()) {
                        retire = true; // an operation of this process ended info: it is done
                        break;
                    }
                }
            }
            session.resign(); // records release "closed" if it still leads; fails an outstanding acquire
            if (retire) {
                return;
            }
        }
    }

    private LeaderElection.Listener recordingListener(CandidateLog log, BlockingQueue<Event> events) {
        return new LeaderElection.Listener() {
            @Override
            public void volunteering() {
                log.invoke("acquire", null);
            }

            @Override
            public void acquired(Leadership leadership) {
                if (!log.complete("acquire", OpType.OK, leadership.toValue(), null) && !log.isRetired()) {
                    // Cannot happen while the recipe volunteers before it leads; if it did, say so loudly: the
                    // history would miss a leadership, and a later invoke of this process would wait for ever.
                    LOG.error("candidate p{} leads (token {}) without an acquire outstanding: the history misses "
                            + "this leadership", log.process(), leadership.token());
                }
                events.add(new Event("acquired", leadership));
            }

            @Override
            public void releasing(Leadership leadership, ReleaseReason reason) {
                events.add(new Event("releasing", leadership));
                log.invoke("release", releaseValue(leadership, reason));
            }

            @Override
            public void released(Leadership leadership, ReleaseReason reason) {
                log.complete("release", OpType.OK, releaseValue(leadership, reason), null);
            }

            @Override
            public void ended(String why) {
                // Resigned before leading: it certainly never believed it led. Session over: unknown.
                log.complete("acquire", why.equals("closed") ? OpType.FAIL : OpType.INFO, null, why);
                if (!why.equals("closed")) {
                    events.add(new Event("ended", null));
                }
            }
        };
    }

    static Map<String, Object> releaseValue(Leadership l, ReleaseReason reason) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("token", l.token());
        m.put("reason", reason.wireName());
        return m;
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException {
        // Leadership has no final read; the fenced-writes workload reads its log (see FencedWritesWorkload).
    }

    @Override
    public void teardown(Target target) {
        // Candidates' nodes are ephemeral and go with their sessions.
    }
}
