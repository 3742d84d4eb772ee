package io.zkchaos.workloads.state;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.checkers.state.FinalStateReport;
import io.zkchaos.workloads.Ensemble;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The final-state reads against a real 3-server ensemble, judged by the final-state checker. */
class FinalStateIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);

    private static final FinalStateChecker CHECKER = new FinalStateChecker();

    private static List<Operation> treeReads(History h) {
        return h.operations().stream().filter(o -> o.f().equals(FinalStateChecker.READ_TREE)).toList();
    }

    @Test
    void agreeingServersAreReadOnceAndPass() throws Exception {
        Target target = ensemble.get().target();
        ZooKeeper zk = Sessions.open(target.connectString(), target, null);
        try {
            Znodes.ensurePath(zk, "/it/final/a");
            zk.setData("/it/final/a", Znodes.encode(7), -1);
            zk.create("/it/final/bin", new byte[] {0, 1, (byte) 0xff}, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
        } finally {
            Sessions.closeQuietly(zk);
        }
        InMemoryRecorder rec = new InMemoryRecorder();
        FinalState.read(target, rec);
        History h = HistoryAssertions.wellFormed(rec::history);

        List<Operation> reads = treeReads(h);
        assertThat(reads).hasSize(3).allMatch(Operation::isOk);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> znodes = (Map<String, Map<String, Object>>)
                ((Map<?, ?>) reads.get(0).output()).get("znodes");
        assertThat(znodes.get("/it/final/a")).containsEntry("data", "7").containsEntry("version", 1L);
        assertThat(znodes.get("/it/final/bin")).containsEntry("dataBase64", "AAH/");
        assertThat(znodes).doesNotContainKey("/zookeeper").containsKey("/");
        CheckResult r = CHECKER.check(h);
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void anEphemeralThatOutlivesTheBoundFailsTheCheck() throws Exception {
        // The reads are told sessions last 1 s: bound = 1 s + margin 5 s. The owner (a 4 s session, so that it
        // survives a loaded machine) stays connected, as a session the servers should have expired but kept would:
        // to the checker every client session has ended when the final reads begin.
        Target target = ensemble.get().target(Duration.ofSeconds(1), Duration.ofSeconds(2));
        Target ownerTarget = ensemble.get().target(Duration.ofSeconds(4), Duration.ofSeconds(2));
        ZooKeeper owner = Sessions.open(ownerTarget.connectString(), ownerTarget, null);
        try {
            Znodes.ensurePath(owner, "/it/final-eph");
            owner.create("/it/final-eph/leader", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            InMemoryRecorder rec = new InMemoryRecorder();
            FinalState.read(target, rec);
            History h = HistoryAssertions.wellFormed(rec::history);
            assertThat(treeReads(h)).as("the first round and the last").hasSize(6);
            CheckResult r = CHECKER.check(h);
            assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
            assertThat(((FinalStateReport) r.details()).ephemerals()).extracting(e -> e.path() + " " + e.owner())
                    .containsOnly("/it/final-eph/leader 0x" + Long.toHexString(owner.getSessionId()));
        } finally {
            Sessions.closeQuietly(owner);
        }
    }

    @Test
    void anEphemeralWhoseSessionEndsWithinTheBoundPasses() throws Exception {
        Target target = ensemble.get().target(Duration.ofSeconds(1), Duration.ofSeconds(2));
        ZooKeeper owner = Sessions.open(target.connectString(), target, null);
        Znodes.ensurePath(owner, "/it/final-eph2");
        owner.create("/it/final-eph2/leader", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
        InMemoryRecorder rec = new InMemoryRecorder();
        Thread closer = new Thread(() -> {
            // closes once the first round has been recorded, as a session expiring during the wait would end
            await("the first round").atMost(Duration.ofSeconds(30)).until(() -> rec.history().ops().size() >= 6);
            Sessions.closeQuietly(owner);
        });
        closer.start();
        try {
            FinalState.read(target, rec);
        } finally {
            closer.join();
        }
        History h = HistoryAssertions.wellFormed(rec::history);
        List<Operation> reads = treeReads(h);
        assertThat(reads).hasSize(6);
        @SuppressWarnings("unchecked")
        Map<String, Object> first = (Map<String, Object>) ((Map<?, ?>) reads.get(0).output()).get("znodes");
        assertThat(first).containsKey("/it/final-eph2/leader");
        CheckResult r = CHECKER.check(h);
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }
}
