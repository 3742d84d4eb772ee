package io.zkchaos.workloads.sessions;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.sessions.SessionGuaranteesChecker;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SlottedWorkload;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import io.zkchaos.workloads.churn.SessionRelay;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * {@code sessions}: short ZooKeeper sessions that create ephemerals, watch and read them, and end — closed by their
 * client, closed by another handle of the same session, expired by the servers after the workload cut them off, or
 * expired by the nemesis (every client link cut, a client process frozen or killed). One process is one session.
 *
 * <p>A slot's process: {@code open} (ok value {@code {"session": "0x..", "timeout": ms}}, the negotiated timeout);
 * one to four steps, each a {@code create} of an ephemeral {@code ROOT/e<process>-<n>} (key: its name) or a
 * {@code read} ({@code sync}, the children with a child watch, each child's owner: ok value
 * {@code {"children": [...], "owners": {name: "0x.."}}}); then, one session in four, an {@code expire} (another handle
 * attaches to the session and closes it) followed by one more {@code create}, which cannot succeed; the others end
 * with a {@code close}. Each slot's first session of the run, and one in {@value #CUT_ONE_IN} of the others, drawn
 * from the seed before it opens, goes to the servers through a {@link SessionRelay} of its own (to the same client
 * addresses as the others, so the nemesis's client faults reach it too): after its steps, with at least one
 * ephemeral made, it is {@code cut} — the relay passes nothing, either way, for its negotiated timeout plus
 * {@link #CUT_BEYOND}, so the servers expire it; then the relay passes again and the client hears of the expiry
 * from a server (or has declared it itself). The cut is recorded as one operation from the silence (invoke) to the
 * resume (ok, value {@code {"silenced": ms}}), and goes on beside the slot's next sessions (the slot's rate is
 * unchanged). A session is cut only when the run has its timeout plus
 * {@link #CUT_BEYOND} plus the checker's bound and a second left, so that later reads follow its ephemerals to their
 * end; otherwise it ends as the others do. {@code close} and {@code expire} are ok only when the servers
 * acknowledged the close ({@link ReportingZooKeeper}). Every event the session's client delivers is recorded as
 * {@code event} ({@link SessionLog}); after an {@code info} the process issues nothing more, but waits (at most twice
 * the session timeout) for its session to end or reconnect, recording its events, before it closes it unrecorded.
 *
 * <p>Clients can run in processes of their own ({@link SlottedWorkload}), so that the nemesis can freeze or kill them.
 * {@link #silentlyReconnecting()} is a deliberately broken client, there to prove the checker ({@link Handle}).
 */
public final class SessionsWorkload implements SlottedWorkload {

    /** One session in this many is cut off from every server by the workload itself, until the servers expire it. */
    public static final int CUT_ONE_IN = 8;

    /**
     * How much longer than its timeout a cut session hears nothing: the checker's slack (a cut that lasted less may
     * have kept its session) and half a second for the recorder's clock.
     */
    public static final Duration CUT_BEYOND = SessionGuaranteesChecker.EXPIRY_SLACK.plusMillis(500);

    private final String root;
    private final double rate;
    private final boolean silent;

    /**
     * @param root where the ephemerals live
     * @param rate operations per second over all slots together (0: as fast as they go)
     */
    public SessionsWorkload(String root, double rate) {
        this(root, rate, false);
    }

    private SessionsWorkload(String root, double rate, boolean silent) {
        this.root = Objects.requireNonNull(root, "root");
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be >= 0 operations per second, got " + rate);
        }
        this.rate = rate;
        this.silent = silent;
    }

    /** The same workload with a broken client that reconnects silently when its session expired. */
    public SessionsWorkload silentlyReconnecting() {
        return new SessionsWorkload(root, rate, true);
    }

    @Override
    public String name() {
        return "sessions";
    }

    @Override
    public void setup(Target target) throws Exception {
        Sessions.with(target, zk -> {
            Znodes.deleteRecursive(zk, root);
            Znodes.ensurePath(zk, root, target.acls().forSetup());
        });
    }

    @Override
    public void runSlot(RunContext ctx, int slot, int firstProcess) throws InterruptedException {
        if (slot < 0 || slot >= ctx.concurrency() || firstProcess % ctx.concurrency() != slot) {
            throw new IllegalArgumentException("slot " + slot + " of " + ctx.concurrency() + " cannot run process "
                    + firstProcess);
        }
        SplittableRandom random = new SplittableRandom(ctx.seed()).split();
        for (int i = 0; i < firstProcess; i++) {
            random = random.split(); // the slot's own stream: the same in a thread and in a process of its own
        }
        ClientDeadline deadline = ctx.deadline();
        double meanGapMillis = rate > 0 ? 1000.0 * ctx.concurrency() / rate : 0;
        List<Thread> cuts = new ArrayList<>();
        try {
            for (int process = firstProcess; !deadline.passed(); process += ctx.concurrency()) {
                session(ctx, process, random, deadline, meanGapMillis, cuts);
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException("slot " + slot + " interrupted");
                }
            }
        } catch (InterruptedException e) {
            cuts.forEach(Thread::interrupt);
            throw e;
        } finally {
            awaitCuts(cuts, ctx.target());
        }
    }

    /**
     * Waits for the slot's cut sessions to end: each ends by itself within its timeout times three plus
     * {@link #CUT_BEYOND} (the cut, then the wait for its Expired); one still going after that is interrupted.
     */
    private static void awaitCuts(List<Thread> cuts, Target target) throws InterruptedException {
        long bound = 3 * target.sessionTimeout().toMillis() + CUT_BEYOND.toMillis() + 2_000;
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(bound);
        for (Thread t : cuts) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
            if (t.isAlive()) {
                t.interrupt();
                t.join(5_000); // closing takes at most 2 s (Sessions.closeQuietly)
            }
        }
    }

    /**
     * One process: one session, from its open to its end. A session drawn to be cut goes through a relay of its own;
     * its cut goes on in a thread added to {@code cuts}, which then owns the session, its log and its relay.
     */
    private void session(RunContext ctx, int process, SplittableRandom random, ClientDeadline deadline,
                         double meanGapMillis, List<Thread> cuts)
            throws InterruptedException {
        Target target = ctx.target();
        SessionRelay relay = null;
        // The first sessions are cut too: a nemesis's first fault comes after a healed spell, in which their expiries
        // can be judged; later cuts often have a fault within the bound, which excuses them.
        if (random.nextInt(CUT_ONE_IN) == 0 || process < ctx.concurrency()) {
            List<String> servers = List.copyOf(target.servers().values());
            int first = random.nextInt(servers.size());
            try {
                relay = SessionRelay.open(servers, first, "sessions-" + process);
            } catch (IOException e) {
                // no loopback port to listen on: this session goes to the servers directly and is not cut
            }
        }
        SessionLog log = new SessionLog(ctx.recorder(), process, silent);
        Op open = log.invoke("open", null);
        Handle h;
        try {
            h = Handle.open(relay == null ? target : target.connectingTo(relay.connectString()), log, silent);
        } catch (IOException e) {
            log.complete(open, Result.info(Outcomes.describe(e)));
            log.stop();
            if (relay != null) {
                relay.close();
            }
            TimeUnit.MILLISECONDS.sleep(200); // nothing reached the servers in time: back off
            return;
        }
        boolean handedOver = false;
        try {
            Map<String, Object> opened = new LinkedHashMap<>();
            opened.put("session", "0x" + Long.toHexString(h.sessionId()));
            opened.put("timeout", (long) h.timeoutMillis());
            log.complete(open, Result.ok(opened));
            int created = 0;
            boolean holds = false;
            int steps = 1 + random.nextInt(4);
            for (int i = 0; i < steps && !deadline.passed(); i++) {
                pause(random, meanGapMillis);
                boolean creates = random.nextBoolean();
                Result r = creates ? create(h, log, "e" + process + "-" + ++created) : read(h, log);
                holds |= creates && r.type() == OpType.OK;
                if (r.retiresProcess()) {
                    awaitEnd(h, log);
                    return;
                }
            }
            if (relay != null && deadline.remainingNanos() > TimeUnit.MILLISECONDS.toNanos(cutNeedsMillis(h))) {
                if (!holds) {
                    Result r = create(h, log, "e" + process + "-" + ++created); // an ephemeral to follow
                    if (r.retiresProcess()) {
                        awaitEnd(h, log);
                        return;
                    }
                }
                Thread t = cutOff(h, log, relay, process);
                cuts.add(t);
                handedOver = true;
                t.start();
                return;
            }
            if (!deadline.passed() && random.nextInt(4) == 0) {
                pause(random, meanGapMillis);
                Result expired = expire(target, h, log);
                if (expired.retiresProcess()) {
                    awaitEnd(h, log);
                    return;
                }
                Result probe = create(h, log, "e" + process + "-" + ++created);
                if (probe.retiresProcess() || !h.usable()) {
                    awaitExpired(h, log);
                    return;
                }
                // still usable after its session was closed: only a client that reconnects silently gets here
            }
            close(h, log);
        } finally {
            if (!handedOver) {
                log.stop();
                h.close();
                if (relay != null) {
                    relay.close();
                }
            }
        }
    }

    /**
     * How long the run must still go on for a cut of {@code h}'s session to be followed: the cut (its timeout plus
     * {@link #CUT_BEYOND}), the checker's bound past the timeout, and a second for a read to begin after it.
     */
    private static long cutNeedsMillis(Handle h) {
        return h.timeoutMillis() + CUT_BEYOND.toMillis() + SessionGuaranteesChecker.BOUND.toMillis() + 1_000;
    }

    /**
     * A thread (not started) that cuts the session off from every server: {@code cut} invoked, the relay silenced for
     * the session's timeout plus {@link #CUT_BEYOND}, then passing again, {@code cut} ok with how long it was silent;
     * then it waits, at most twice the timeout, for the client to deliver the end of the session (a server tells it
     * Expired on reconnecting, or its own clock did), recording its events, and closes the handle and the relay.
     */
    private static Thread cutOff(Handle h, SessionLog log, SessionRelay relay, int process) {
        Thread t = new Thread(() -> {
            try {
                long silenceMillis = h.timeoutMillis() + CUT_BEYOND.toMillis();
                Op invoke = log.invoke("cut", null);
                long from = System.nanoTime();
                relay.silence();
                boolean interrupted = false;
                try {
                    TimeUnit.MILLISECONDS.sleep(silenceMillis);
                } catch (InterruptedException e) {
                    interrupted = true; // the run is over: the cut ends now, and says how long it lasted
                }
                relay.resume();
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("silenced", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - from));
                log.complete(invoke, Result.ok(v));
                if (!interrupted) {
                    log.awaitEnd(2L * h.timeoutMillis(), () -> false);
                }
            } catch (InterruptedException e) {
                // interrupted while waiting for the end: close as it is
            } finally {
                log.stop();
                h.close();
                relay.close();
            }
        }, "sessions-cut-" + process);
        t.setDaemon(true);
        return t;
    }

    private static void pause(SplittableRandom random, double meanGapMillis) throws InterruptedException {
        if (meanGapMillis > 0) {
            TimeUnit.MICROSECONDS.sleep((long) (random.nextDouble() * 2000 * meanGapMillis));
        }
    }

    /** An ephemeral owned by this session. NodeExists: nothing was created; anything else unknown. */
    private Result create(Handle h, SessionLog log, String name) {
        Op invoke = log.invoke("create", name);
        Result r;
        try {
            h.call(zk -> zk.create(root + "/" + name, new byte[0], h.acls().forClient(zk),
                    CreateMode.EPHEMERAL));
            r = Result.ok(null);
        } catch (KeeperException.NodeExistsException e) {
            r = Result.fail("node-exists");
        } catch (KeeperException | InterruptedException e) {
            r = Outcomes.indeterminate(e);
        }
        log.complete(invoke, r);
        return r;
    }

    /** After {@code sync}: the ephemerals (setting a child watch) and the owner of each one still there. */
    private Result read(Handle h, SessionLog log) {
        Op invoke = log.invoke("read", null);
        Result r;
        try {
            r = h.call(zk -> {
                zk.sync(root);
                List<String> children = new ArrayList<>(zk.getChildren(root, true));
                children.sort(null);
                return owners(zk, children);
            });
        } catch (KeeperException | InterruptedException e) {
            r = Outcomes.indeterminate(e);
        }
        log.complete(invoke, r);
        return r;
    }

    /** Each child's owner, asked of all at once; a child gone since the listing has none. */
    private Result owners(ZooKeeper zk, List<String> children) throws InterruptedException {
        Map<String, String> owners = new ConcurrentHashMap<>();
        CountDownLatch answered = new CountDownLatch(children.size());
        for (String child : children) {
            zk.exists(root + "/" + child, false, (rc, path, ctx, stat) -> {
                if (stat != null) {
                    owners.put(child, "0x" + Long.toHexString(stat.getEphemeralOwner()));
                }
                answered.countDown();
            }, null);
        }
        long timeout = zk.getClientConfig().getLong("zookeeper.request.timeout", 10_000);
        if (!answered.await(timeout, TimeUnit.MILLISECONDS)) {
            return Result.info("request-timeout: the owners of " + children.size() + " ephemerals");
        }
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("children", children);
        Map<String, String> sorted = new java.util.TreeMap<>(owners);
        v.put("owners", sorted);
        return Result.ok(v);
    }

    /**
     * Another handle attaches to this session and closes it: ok when the servers acknowledged that close. The
     * session's own handle learns it the way any expired session does (its connection dropped, then Expired).
     */
    private static Result expire(Target target, Handle h, SessionLog log) {
        Op invoke = log.invoke("expire", null);
        Result r;
        ReportingZooKeeper other = null;
        try {
            long id = h.sessionId();
            byte[] password = h.password();
            other = (ReportingZooKeeper) Sessions.openClient((cs, timeout, w, config) -> new ReportingZooKeeper(cs,
                    timeout, w, id, password, config), target.connectString(), target, Sessions.IGNORE);
            int err = other.closeSession();
            r = err == 0 ? Result.ok(null) : Outcomes.indeterminate(KeeperException.create(KeeperException.Code
                    .get(err)));
        } catch (IOException | InterruptedException e) {
            r = Outcomes.indeterminate(e);
        } finally {
            Sessions.closeQuietly(other);
        }
        log.complete(invoke, r);
        return r;
    }

    /** Closes the session: ok when the servers acknowledged the close; waits for the client's Closed. */
    private static void close(Handle h, SessionLog log) throws InterruptedException {
        Op invoke = log.invoke("close", null);
        int err = h.closeSession();
        log.complete(invoke, err == 0 ? Result.ok(null)
                : Outcomes.indeterminate(KeeperException.create(KeeperException.Code.get(err))));
        log.awaitEnd(h.timeoutMillis(), h::replaced); // a replaced session's events never reach the log
    }

    /**
     * After an {@code info}: no more operations; the session's events are recorded until it ends or is connected again
     * (it is then closed, unrecorded), at most twice the session timeout.
     */
    private static void awaitEnd(Handle h, SessionLog log) throws InterruptedException {
        log.awaitEnd(2L * h.timeoutMillis(), h::connected);
    }

    /**
     * After another handle closed the session: its client learns it by its connection dropping and then Expired;
     * recorded, at most twice the session timeout.
     */
    private static void awaitExpired(Handle h, SessionLog log) throws InterruptedException {
        log.awaitEnd(2L * h.timeoutMillis(), () -> false);
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) {
        // Nothing: final-state reads every server's tree, and finds any ephemeral an ended session kept.
    }

    @Override
    public void teardown(Target target) {
        // The znodes are left for inspection; setup clears them at the next run.
    }
}
