package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.fenced.FencedWritesWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The election and fenced-writes workloads against a real 3-node ensemble.
 *
 * <p>Sessions are 10 s (the ensemble allows them): on a loaded 2-core machine a 2 s session can really expire during
 * a pause, and then two leaders overlapping is the truth, not a bug of the workload; the tests that need an expiry
 * make one ({@link io.zkchaos.workloads.Ensemble#expire}). A workload runs for a fixed time, so a test that needs
 * something to happen during the run gives it a run several times longer than that takes on a quiet machine, and
 * waits for it with a bound of its own.
 */
class ElectionWorkloadIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);
    private static Target target;
    /** How long one step of a scenario (a leader, a release, a replacement) may take under load. */
    private static final Duration STEP = Duration.ofSeconds(30);

    @BeforeAll
    static void start() {
        target = ensemble.get().target(Duration.ofSeconds(10), Duration.ofSeconds(5));
    }

    /** Runs without faults, until {@link #ENOUGH_TERMS} (or {@code d} on a machine too loaded for that). */
    private static History run(ElectionWorkload w, int candidates, Duration d) throws Exception {
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        runUntilEnoughTerms(w, new RunContext(target, rec, 1L, candidates, d), rec);
        return HistoryAssertions.wellFormed(rec::history);
    }

    /**
     * Leadership terms after which a run without faults has shown what its test needs: two terms (one handover)
     * are needed, this is five times as many. A quiet machine gets there in about 3 s of the 10 s run; a loaded one
     * may need the whole run for two, and gets it.
     */
    private static final int ENOUGH_TERMS = 10;

    /** Runs {@code w}, stopping it once {@link #ENOUGH_TERMS} leadership terms began, or at its time limit. */
    private static void runUntilEnoughTerms(Workload w, RunContext ctx, InMemoryRecorder rec)
            throws Exception {
        Thread watcher = new Thread(() -> {
            try {
                while (rec.history().operations().stream().filter(o -> o.f().equals("acquire") && o.isOk())
                        .count() < ENOUGH_TERMS) {
                    Thread.sleep(50);
                }
                ctx.deadline().stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "enough-terms");
        watcher.start();
        try {
            w.run(ctx);
        } finally {
            watcher.interrupt();
            watcher.join();
        }
    }

    /**
     * Leaders hold 100-400 ms: short terms, so that a loaded machine sees several in a run. The runs without faults
     * last up to 10 s: at load average 40, Curator's candidates took 3.6 s to start and their first term came 0.9 s
     * later.
     */
    private static final Duration SHORT_HOLD_MIN = Duration.ofMillis(100);
    private static final Duration SHORT_HOLD_MAX = Duration.ofMillis(400);

    /**
     * Leadership terms as [acquire ok index, release invoke index] per process; tokens in acquire order. Two terms
     * (one handover) are what the ordering checks need.
     */
    private static void assertOneLeaderAtATimeWithGrowingTokens(History h) {
        assertOneLeaderAtATimeWithGrowingTokens(h, 2);
    }

    private static void assertOneLeaderAtATimeWithGrowingTokens(History h, int minTerms) {
        List<Operation> acquired = h.operations().stream().filter(o -> o.f().equals("acquire") && o.isOk())
                .sorted((a, b) -> Long.compare(a.completeIndex(), b.completeIndex())).toList();
        assertThat(acquired).as("leadership terms in the run (at least %d needed to see handovers): %s", minTerms,
                h.ops()).hasSizeGreaterThanOrEqualTo(minTerms);
        long previousToken = -1;
        long previousEnd = -1;
        for (Operation a : acquired) {
            Map<?, ?> v = (Map<?, ?>) a.output();
            long token = (Long) v.get("token");
            assertThat(token).as("token order in %s", h.ops()).isGreaterThan(previousToken);
            assertThat((Long) v.get("czxid")).isPositive();
            assertThat(v.get("node")).isEqualTo("p" + a.process());
            previousToken = token;
            // This term starts after the previous leader stopped believing it leads (its release invoke). Its release
            // *completes* only after it deleted its node, which is what lets this one lead: so not after that.
            assertThat(a.completeIndex()).as("term of token %d starts after the previous release", token)
                    .isGreaterThan(previousEnd);
            Operation release = h.operations().stream()
                    .filter(o -> o.process() == a.process() && o.f().equals("release")
                            && o.invokeIndex() > a.completeIndex())
                    .findFirst().orElseThrow(() -> new AssertionError("no release after " + a));
            assertThat(((Map<?, ?>) release.input()).get("token")).isEqualTo(token);
            assertThat(release.isOk()).isTrue();
            previousEnd = release.invokeIndex();
        }
    }

    @Test
    void ownRecipeWithoutFaultsHasOneLeaderAtATimeAndEveryCandidacyEnds() throws Exception {
        // About 30 terms in 10 s on a quiet machine; 2 are needed, and the run stops after ENOUGH_TERMS.
        History h = run(new ElectionWorkload("election", "/it/ew/own", OwnRecipe.herdFree(), null, SHORT_HOLD_MIN,
                SHORT_HOLD_MAX), 4, Duration.ofSeconds(10));
        assertOneLeaderAtATimeWithGrowingTokens(h);
        assertThat(h.operations()).filteredOn(o -> o.f().equals("release"))
                .allMatch(o -> ((Map<?, ?>) o.input()).get("reason").equals("closed"));
        // Candidates that never led before the run ended gave up: fail, not info.
        assertThat(h.operations()).filteredOn(o -> o.f().equals("acquire") && !o.isOk())
                .isNotEmpty().allMatch(o -> o.isFail() && o.error().equals("closed"));
    }

    @Test
    void curatorLeaderLatchWithoutFaultsHasOneLeaderAtATime() throws Exception {
        History h = run(new ElectionWorkload("election-curator", "/it/ew/curator", new CuratorLatch(), null,
                SHORT_HOLD_MIN, SHORT_HOLD_MAX), 3, Duration.ofSeconds(10));
        assertOneLeaderAtATimeWithGrowingTokens(h);
    }

    @Test
    void expiredLeaderIsReleasedAndANewProcessVolunteersWithANewSession() throws Exception {
        List<ZooKeeper> sessions = new CopyOnWriteArrayList<>();
        Sessions.Factory spy = (cs, t, w, c) -> {
            ZooKeeper zk = new ZooKeeper(cs, t, w, c);
            sessions.add(zk);
            return zk;
        };
        ElectionWorkload w = new ElectionWorkload("election", "/it/ew/expiry",
                new OwnRecipe(LeaderElection.Watching.PREDECESSOR, LeaderElection.Hooks.NONE, spy), null,
                Duration.ofSeconds(30), Duration.ofSeconds(30));
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        // Leaders hold 30 s: only the expiry changes the leader. The run (at most 15 s) leaves room for every step
        // below, which takes about 2 s on a quiet machine; it is stopped once they are done (nothing else happens
        // in the rest of it: the new leader holds on).
        ClientDeadline end = ClientDeadline.after(Duration.ofSeconds(15));
        Thread runner = new Thread(() -> {
            try {
                w.run(new RunContext(target, rec, 2L, 3, Duration.ofSeconds(15), end));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runner.start();
        try {
            Op leaderOk = await("a leader").atMost(STEP).until(() -> firstLeader(rec), o -> o != null);
            long token = (Long) ((Map<?, ?>) leaderOk.value()).get("token");
            ZooKeeper zk1 = null;
            for (ZooKeeper zk : sessions) {
                try (ZooKeeper admin = Sessions.open(target.connectString(), target, null)) {
                    admin.sync("/it/ew/expiry"); // its server may lag the one the leader created its node through
                    String node = admin.getChildren("/it/ew/expiry", false).stream()
                            .filter(n -> LeaderElection.sequenceOf(n) == token).findFirst().orElseThrow();
                    if (admin.exists("/it/ew/expiry/" + node, false).getEphemeralOwner() == zk.getSessionId()) {
                        zk1 = zk;
                    }
                }
            }
            assertThat(zk1).as("the leader's session").isNotNull();
            ensemble.get().expire(zk1, target);
            int leader = leaderOk.process();
            await("the leader's release").atMost(STEP).until(() -> rec.history().operations().stream().anyMatch(
                    o -> o.process() == leader && o.f().equals("release") && o.isOk()));
            await("its replacement volunteers").atMost(STEP).until(() -> rec.history().ops().stream().anyMatch(
                    o -> o.process() == leader + 3 && o.f().equals("acquire")));
            await("a new leader").atMost(STEP).until(() -> rec.history().operations().stream().anyMatch(
                    o -> o.f().equals("acquire") && o.isOk()
                            && (Long) ((Map<?, ?>) o.output()).get("token") > token));
        } finally {
            end.stop();
            joinRun(runner);
        }
        History h = HistoryAssertions.wellFormed(rec::history);
        Operation release = h.operations().stream().filter(o -> o.f().equals("release")).findFirst().orElseThrow();
        // What the leader learned first: its node's deletion (the servers delete the ephemerals of the closed
        // session and notify its watch before the connection drops), the disconnect, or the expiry itself.
        assertThat(((Map<?, ?>) release.input()).get("reason")).isIn("node-deleted", "disconnected",
                "session-expired");
        // The expired process did nothing after its session ended but, at most, volunteer once more in vain: that
        // acquire ends info (session-expired), never ok.
        int leader = release.process();
        List<Operation> own = h.operations().stream().filter(o -> o.process() == leader).toList();
        assertThat(own.subList(0, 2)).extracting(Operation::f).containsExactly("acquire", "release");
        assertThat(own.subList(2, own.size())).allMatch(o -> o.f().equals("acquire") && o.isInfo()
                && o.error().equals("session-expired"));
    }

    /** Whether {@code process} volunteered (an acquire invoked) after its first release had completed. */
    private static boolean volunteersAfterRelease(History h, int process) {
        Operation release = h.operations().stream().filter(o -> o.process() == process
                && o.f().equals("release")).findFirst().orElse(null);
        return release != null && release.completeIndex() >= 0 && h.operations().stream().anyMatch(
                o -> o.process() == process && o.f().equals("acquire") && o.invokeIndex() > release.completeIndex());
    }

    /** Waits for a run in a thread to end; its history is complete only then. */
    private static void joinRun(Thread runner) throws InterruptedException {
        runner.join(Duration.ofSeconds(90).toMillis());
        assertThat(runner.isAlive()).as("the workload's run ended within 90 s of its time").isFalse();
    }

    private static Op firstLeader(InMemoryRecorder rec) {
        return rec.history().ops().stream().filter(o -> o.f().equals("acquire") && o.type() == OpType.OK)
                .findFirst().orElse(null);
    }

    @Test
    void fencedWritesWithoutFaultsLandInTokenOrderAndTheLogHoldsExactlyTheAcceptedWrites() throws Exception {
        // Short terms and a write every 20 ms: a quiet machine sees about 20 terms and 300 writes in 10 s; the run
        // stops after ENOUGH_TERMS.
        FencedWritesWorkload w = new FencedWritesWorkload("fenced-writes", "/it/fenced", OwnRecipe.herdFree(),
                SHORT_HOLD_MIN, SHORT_HOLD_MAX, Duration.ofMillis(20));
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        runUntilEnoughTerms(w, new RunContext(target, rec, 4L, 3, Duration.ofSeconds(10)),
                rec);
        w.finalPhase(target, rec);
        History h = HistoryAssertions.wellFormed(rec::history);
        List<Operation> writes = h.operations().stream().filter(o -> o.f().equals("fenced-write")).toList();
        assertThat(writes).allMatch(Operation::isOk);
        assertThat(writes.stream().map(o -> ((Map<?, ?>) o.input()).get("token")).distinct().count())
                .as("tokens that wrote (two are needed to see the store's token order): %s", writes)
                .isGreaterThanOrEqualTo(2);
        Operation read = h.operations().stream().filter(o -> o.f().equals("read")).findFirst().orElseThrow();
        assertThat(read.isOk()).isTrue();
        List<?> log = (List<?>) read.output();
        assertThat(log).hasSameSizeAs(writes);
        long previous = -1;
        List<Object> accepted = new ArrayList<>();
        for (Object e : log) {
            long token = (Long) ((Map<?, ?>) e).get("token");
            assertThat(token).isGreaterThanOrEqualTo(previous);
            previous = token;
            accepted.add(e);
        }
        assertThat(accepted).containsExactlyInAnyOrderElementsOf(writes.stream().map(Operation::output).toList());
        // Each write was made by the process that held the token it carries.
        for (Operation wr : writes) {
            Object token = ((Map<?, ?>) wr.input()).get("token");
            assertThat(h.operations()).anyMatch(o -> o.process() == wr.process() && o.f().equals("acquire")
                    && o.isOk() && ((Map<?, ?>) o.output()).get("token").equals(token));
        }
    }

    @Test
    void fencedWritesStayHonestWhenTheLeadersSessionExpiresMidRun() throws Exception {
        List<ZooKeeper> sessions = new CopyOnWriteArrayList<>();
        Sessions.Factory spy = (cs, t, w, c) -> {
            ZooKeeper zk = new ZooKeeper(cs, t, w, c);
            sessions.add(zk);
            return zk;
        };
        FencedWritesWorkload w = new FencedWritesWorkload("fenced-writes", "/it/fenced-expiry",
                new OwnRecipe(LeaderElection.Watching.PREDECESSOR, LeaderElection.Hooks.NONE, spy),
                Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(20));
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        // As above: leaders hold 30 s, the run (at most 15 s) leaves room for every step and is stopped after them.
        ClientDeadline end = ClientDeadline.after(Duration.ofSeconds(15));
        Thread runner = new Thread(() -> {
            try {
                w.run(new RunContext(target, rec, 5L, 3, Duration.ofSeconds(15), end));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runner.start();
        try {
            await("the first leader writes").atMost(STEP).until(() -> rec.history().operations().stream()
                    .filter(o -> o.f().equals("fenced-write") && o.isOk()).count() >= 5);
            long leaderSession = -1;
            try (ZooKeeper admin = Sessions.open(target.connectString(), target, null)) {
                admin.sync("/it/fenced-expiry/election");
                List<String> nodes = admin.getChildren("/it/fenced-expiry/election", false);
                nodes.sort((a, b) -> Long.compare(LeaderElection.sequenceOf(a), LeaderElection.sequenceOf(b)));
                leaderSession = admin.exists("/it/fenced-expiry/election/" + nodes.get(0), false)
                        .getEphemeralOwner();
            }
            long owner = leaderSession;
            ZooKeeper leaderZk = sessions.stream().filter(z -> z.getSessionId() == owner).findFirst().orElseThrow();
            ensemble.get().expire(leaderZk, target);
            await("a second leader").atMost(STEP).until(() -> rec.history().operations().stream()
                    .filter(o -> o.f().equals("acquire") && o.isOk()).count() >= 2);
        } finally {
            end.stop();
            joinRun(runner);
        }
        w.finalPhase(target, rec);
        History h = HistoryAssertions.wellFormed(rec::history);
        List<Operation> writes = h.operations().stream().filter(o -> o.f().equals("fenced-write")).toList();
        @SuppressWarnings("unchecked")
        List<Object> log = (List<Object>) h.operations().stream().filter(o -> o.f().equals("read")).findFirst()
                .orElseThrow().output();
        long previous = -1;
        for (Object e : log) {
            long token = (Long) ((Map<?, ?>) e).get("token");
            assertThat(token).as("store order").isGreaterThanOrEqualTo(previous);
            previous = token;
            // Whatever is in the store was written by an ok or an info write, never by one recorded as fail.
            assertThat(writes).as("writer of %s", e).anyMatch(o -> o.input().equals(e) && !o.isFail());
        }
        for (Operation ok : writes.stream().filter(Operation::isOk).toList()) {
            assertThat(log).as("acknowledged write").contains(ok.output());
        }
        assertThat(h.operations().stream().filter(o -> o.f().equals("acquire") && o.isOk())
                .map(o -> ((Map<?, ?>) o.output()).get("token")).distinct().count()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void killingTheLeadersServerMakesItReleaseDisconnectedAndLeadAgainLaterWithANewToken() throws Exception {
        List<ZooKeeper> sessions = new CopyOnWriteArrayList<>();
        Sessions.Factory spy = (cs, t, w, c) -> {
            ZooKeeper zk = new ZooKeeper(cs, t, w, c);
            sessions.add(zk);
            return zk;
        };
        // Sessions long enough to outlive the kill: the point is that the leader's session survives it.
        Target t = ensemble.get().target(Duration.ofSeconds(30), Duration.ofSeconds(5));
        ElectionWorkload w = new ElectionWorkload("election", "/it/ew/kill",
                new OwnRecipe(LeaderElection.Watching.PREDECESSOR, LeaderElection.Hooks.NONE, spy), null,
                Duration.ofSeconds(30), Duration.ofSeconds(30));
        w.setup(t);
        InMemoryRecorder rec = new InMemoryRecorder();
        // As above: leaders hold 30 s, the run (at most 15 s) leaves room for every step and is stopped after them.
        ClientDeadline end = ClientDeadline.after(Duration.ofSeconds(15));
        Thread runner = new Thread(() -> {
            try {
                w.run(new RunContext(t, rec, 6L, 3, Duration.ofSeconds(15), end));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runner.start();
        int leader;
        int killed = -1;
        try {
            Op leaderOk = await("a leader").atMost(STEP).until(() -> firstLeader(rec), o -> o != null);
            leader = leaderOk.process();
            long token = (Long) ((Map<?, ?>) leaderOk.value()).get("token");
            long owner;
            try (ZooKeeper admin = Sessions.open(t.connectString(), t, null)) {
                admin.sync("/it/ew/kill");
                String node = admin.getChildren("/it/ew/kill", false).stream()
                        .filter(n -> LeaderElection.sequenceOf(n) == token).findFirst().orElseThrow();
                owner = admin.exists("/it/ew/kill/" + node, false).getEphemeralOwner();
            }
            ZooKeeper leaderZk = sessions.stream().filter(z -> z.getSessionId() == owner).findFirst().orElseThrow();
            killed = ensemble.get().serverOf(leaderZk);
            ensemble.get().kill(killed);
            await("the leader's release").atMost(STEP).until(() -> rec.history().operations().stream().anyMatch(
                    o -> o.process() == leader && o.f().equals("release") && o.isOk()));
            ensemble.get().restart(killed);
            killed = -1;
            await("a new term with a larger token").atMost(STEP).until(() -> rec.history().operations().stream()
                    .anyMatch(o -> o.f().equals("acquire") && o.isOk()
                            && (Long) ((Map<?, ?>) o.output()).get("token") > token));
            // what the history must show below: its session survived, so the same process volunteers again
            await("the released leader volunteers again").atMost(STEP).until(() -> volunteersAfterRelease(
                    rec.history(), leader));
        } finally {
            end.stop();
            if (killed > 0) {
                ensemble.get().restart(killed);
            }
            joinRun(runner);
        }
        History h = HistoryAssertions.wellFormed(rec::history);
        Operation release = h.operations().stream().filter(o -> o.process() == leader && o.f().equals("release"))
                .findFirst().orElseThrow();
        assertThat(((Map<?, ?>) release.input()).get("reason")).isEqualTo("disconnected");
        // Its session survived (back within the session timeout): the same process volunteered again.
        assertThat(volunteersAfterRelease(h, leader)).isTrue();
        assertOneLeaderAtATimeWithGrowingTokens(h, 2);
    }
}
