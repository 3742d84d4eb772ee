package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.workloads.Ensemble;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
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

class ElectionWorkloadIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);
    private static Target target;

    @BeforeAll
    static void start() {
        target = ensemble.get().target(Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    /**
     * Runs without faults. Sessions are long here: on a loaded 2-core machine a 2 s session can really expire during
     * a pause, and then two leaders overlapping is the truth, not a bug of the workload.
     */
    private static History run(ElectionWorkload w, int candidates, Duration d) throws Exception {
        Target calm = ensemble.get().target(Duration.ofSeconds(10), Duration.ofSeconds(5));
        w.setup(calm);
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(calm, rec, 1L, candidates, d));
        return HistoryAssertions.wellFormed(rec::history);
    }

    /** Leadership terms as [acquire ok index, release invoke index] per process; tokens in acquire order. */
    private static void assertOneLeaderAtATimeWithGrowingTokens(History h) {
        assertOneLeaderAtATimeWithGrowingTokens(h, 3);
    }

    private static void assertOneLeaderAtATimeWithGrowingTokens(History h, int minTerms) {
        List<Operation> acquired = h.operations().stream().filter(o -> o.f().equals("acquire") && o.isOk())
                .sorted((a, b) -> Long.compare(a.completeIndex(), b.completeIndex())).toList();
        assertThat(acquired).hasSizeGreaterThanOrEqualTo(minTerms);
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
        History h = run(ElectionWorkload.election("/it/ew/own"), 4, Duration.ofSeconds(4));
        assertOneLeaderAtATimeWithGrowingTokens(h);
        assertThat(h.operations()).filteredOn(o -> o.f().equals("release"))
                .allMatch(o -> ((Map<?, ?>) o.input()).get("reason").equals("closed"));
        // Candidates that never led before the run ended gave up: fail, not info.
        assertThat(h.operations()).filteredOn(o -> o.f().equals("acquire") && !o.isOk())
                .isNotEmpty().allMatch(o -> o.isFail() && o.error().equals("closed"));
    }

    @Test
    void curatorLeaderLatchWithoutFaultsHasOneLeaderAtATime() throws Exception {
        History h = run(ElectionWorkload.curator("/it/ew/curator"), 3, Duration.ofSeconds(4));
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
        Thread runner = new Thread(() -> {
            try {
                w.run(new RunContext(target, rec, 2L, 3, Duration.ofSeconds(8)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runner.start();
        try {
            Ensemble.eventually(Duration.ofSeconds(5), () -> firstLeader(rec) != null, "a leader");
            Op leaderOk = firstLeader(rec);
            long token = (Long) ((Map<?, ?>) leaderOk.value()).get("token");
            ZooKeeper zk1 = null;
            for (ZooKeeper zk : sessions) {
                try (ZooKeeper admin = Sessions.open(target.connectString(), target, null)) {
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
            Ensemble.eventually(Duration.ofSeconds(10), () -> rec.history().operations().stream().anyMatch(
                    o -> o.process() == leader && o.f().equals("release") && o.isOk()), "the leader's release");
            Ensemble.eventually(Duration.ofSeconds(10), () -> rec.history().ops().stream().anyMatch(
                    o -> o.process() == leader + 3 && o.f().equals("acquire")), "its replacement volunteers");
            Ensemble.eventually(Duration.ofSeconds(10), () -> rec.history().operations().stream().anyMatch(
                    o -> o.f().equals("acquire") && o.isOk()
                            && (Long) ((Map<?, ?>) o.output()).get("token") > token), "a new leader");
        } finally {
            runner.join(20_000);
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

    private static Op firstLeader(InMemoryRecorder rec) {
        return rec.history().ops().stream().filter(o -> o.f().equals("acquire") && o.type() == OpType.OK)
                .findFirst().orElse(null);
    }

    @Test
    void fencedWritesWithoutFaultsLandInTokenOrderAndTheLogHoldsExactlyTheAcceptedWrites() throws Exception {
        FencedWritesWorkload w = FencedWritesWorkload.withOwnRecipe("/it/fenced");
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(target, rec, 4L, 3, Duration.ofSeconds(4)));
        w.finalPhase(target, rec);
        History h = HistoryAssertions.wellFormed(rec::history);
        List<Operation> writes = h.operations().stream().filter(o -> o.f().equals("fenced-write")).toList();
        assertThat(writes).hasSizeGreaterThan(10).allMatch(Operation::isOk);
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
        Thread runner = new Thread(() -> {
            try {
                w.run(new RunContext(target, rec, 5L, 3, Duration.ofSeconds(7)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runner.start();
        try {
            Ensemble.eventually(Duration.ofSeconds(5), () -> rec.history().operations().stream()
                    .filter(o -> o.f().equals("fenced-write") && o.isOk()).count() >= 5, "the first leader writes");
            long leaderSession = -1;
            try (ZooKeeper admin = Sessions.open(target.connectString(), target, null)) {
                List<String> nodes = admin.getChildren("/it/fenced-expiry/election", false);
                nodes.sort((a, b) -> Long.compare(LeaderElection.sequenceOf(a), LeaderElection.sequenceOf(b)));
                leaderSession = admin.exists("/it/fenced-expiry/election/" + nodes.get(0), false)
                        .getEphemeralOwner();
            }
            long owner = leaderSession;
            ZooKeeper leaderZk = sessions.stream().filter(z -> z.getSessionId() == owner).findFirst().orElseThrow();
            ensemble.get().expire(leaderZk, target);
            Ensemble.eventually(Duration.ofSeconds(10), () -> rec.history().operations().stream()
                    .filter(o -> o.f().equals("acquire") && o.isOk()).count() >= 2, "a second leader");
        } finally {
            runner.join(20_000);
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
        Target t = ensemble.get().target(Duration.ofSeconds(6), Duration.ofSeconds(2));
        ElectionWorkload w = new ElectionWorkload("election", "/it/ew/kill",
                new OwnRecipe(LeaderElection.Watching.PREDECESSOR, LeaderElection.Hooks.NONE, spy), null,
                Duration.ofSeconds(30), Duration.ofSeconds(30));
        w.setup(t);
        InMemoryRecorder rec = new InMemoryRecorder();
        Thread runner = new Thread(() -> {
            try {
                w.run(new RunContext(t, rec, 6L, 3, Duration.ofSeconds(8)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runner.start();
        int leader;
        int killed = -1;
        try {
            Ensemble.eventually(Duration.ofSeconds(5), () -> firstLeader(rec) != null, "a leader");
            leader = firstLeader(rec).process();
            long token = (Long) ((Map<?, ?>) firstLeader(rec).value()).get("token");
            long owner;
            try (ZooKeeper admin = Sessions.open(t.connectString(), t, null)) {
                String node = admin.getChildren("/it/ew/kill", false).stream()
                        .filter(n -> LeaderElection.sequenceOf(n) == token).findFirst().orElseThrow();
                owner = admin.exists("/it/ew/kill/" + node, false).getEphemeralOwner();
            }
            ZooKeeper leaderZk = sessions.stream().filter(z -> z.getSessionId() == owner).findFirst().orElseThrow();
            killed = ensemble.get().serverOf(leaderZk);
            ensemble.get().kill(killed);
            Ensemble.eventually(Duration.ofSeconds(10), () -> rec.history().operations().stream().anyMatch(
                    o -> o.process() == leader && o.f().equals("release") && o.isOk()), "the leader's release");
            ensemble.get().restart(killed);
            killed = -1;
            Ensemble.eventually(Duration.ofSeconds(15), () -> rec.history().operations().stream().anyMatch(
                    o -> o.f().equals("acquire") && o.isOk() && (Long) ((Map<?, ?>) o.output()).get("token") > token),
                    "a new term with a larger token");
        } finally {
            if (killed > 0) {
                ensemble.get().restart(killed);
            }
            runner.join(20_000);
        }
        History h = HistoryAssertions.wellFormed(rec::history);
        Operation release = h.operations().stream().filter(o -> o.process() == leader && o.f().equals("release"))
                .findFirst().orElseThrow();
        assertThat(((Map<?, ?>) release.input()).get("reason")).isEqualTo("disconnected");
        // Its session survived (back within the session timeout): the same process volunteered again.
        assertThat(h.operations()).anyMatch(o -> o.process() == leader && o.f().equals("acquire")
                && o.invokeIndex() > release.completeIndex());
        assertOneLeaderAtATimeWithGrowingTokens(h, 2);
    }
}
