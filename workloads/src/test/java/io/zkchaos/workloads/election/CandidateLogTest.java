package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a candidate process may still record once it is retired, and where its leader's work goes. */
class CandidateLogTest {

    private final InMemoryRecorder rec = new InMemoryRecorder();
    private final CandidateLog log = new CandidateLog(rec, 1, 3);

    @Test
    void anInfoRetiresTheProcessForTheRecipeAndTheLeaderAlike() {
        log.invoke("acquire", null);
        assertThat(log.complete("acquire", OpType.INFO, null, "session-expired")).isTrue();
        assertThat(log.isRetired()).isTrue();
        assertThat(log.invoke("acquire", null)).as("the recipe volunteers again").isNull();
        assertThat(log.complete("acquire", OpType.OK, Map.of("token", 3L), null)).isFalse();
        assertThat(log.invoke("release", Map.of("token", 3L, "reason", "closed")))
                .as("a release of a leadership the history never showed").isNull();
        assertThat(rec.history().operations()).extracting(Operation::process).containsOnly(1);
        assertThat(rec.history().operations()).hasSize(1);
    }

    @Test
    void aLeaderWhoseWriteEndedInfoStillRecordsTheReleaseThatClosesItsLeadershipOnce() {
        log.invoke("acquire", null);
        log.complete("acquire", OpType.OK, Map.of("token", 0L, "czxid", 5L, "node", "p1"), null);
        ProcessLog worker = log.leaderThread();
        worker.invoke("fenced-write", Map.of("token", 0L, "value", 1L));
        worker.complete("fenced-write", OpType.INFO, null, "connection-loss");
        assertThat(log.isRetired()).isTrue();
        Op release = log.invoke("release", Map.of("token", 0L, "reason", "closed"));
        assertThat(release).isNotNull();
        assertThat(log.complete("release", OpType.OK, release.value(), null)).isTrue();
        assertThat(log.invoke("release", Map.of("token", 0L, "reason", "closed"))).as("a second release").isNull();
        assertThat(log.invoke("acquire", null)).isNull();
        assertThat(rec.history().operations()).extracting(Operation::f)
                .containsExactly("acquire", "fenced-write", "release");
    }

    @Test
    void theLeadersWriteAfterRetirementGoesToTheSuccessorAndAnInfoThereRetiresItToo() {
        log.invoke("acquire", null);
        log.complete("acquire", OpType.OK, Map.of("token", 0L, "czxid", 5L, "node", "p1"), null);
        log.invoke("release", Map.of("token", 0L, "reason", "node-deleted"));
        log.complete("release", OpType.OK, null, null);
        log.invoke("acquire", null);
        log.complete("acquire", OpType.INFO, null, "session-expired");
        ProcessLog worker = log.leaderThread();
        assertThat(worker.process()).isEqualTo(4);
        Op write = worker.invoke("fenced-write", Map.of("token", 0L, "value", 2L));
        assertThat(write.process()).isEqualTo(4);
        assertThat(worker.complete("fenced-write", OpType.INFO, null, "connection-loss")).isTrue();
        assertThat(log.successor().isRetired()).isTrue();
        assertThat(log.successor().firstLive().process()).as("the slot's next session").isEqualTo(7);
        List<Operation> ops = rec.history().operations();
        assertThat(ops).filteredOn(o -> o.process() == 1).extracting(Operation::f)
                .containsExactly("acquire", "release", "acquire");
        assertThat(ops).filteredOn(o -> o.process() == 4).extracting(Operation::f).containsExactly("fenced-write");
    }

    @Test
    void aLiveProcessKeepsItsNumberForTheNextSession() {
        log.invoke("acquire", null);
        log.complete("acquire", OpType.FAIL, null, "closed");
        assertThat(log.isRetired()).isFalse();
        assertThat(log.firstLive()).isSameAs(log);
        assertThat(log.successor().firstLive().process()).isEqualTo(4);
        assertThat(log.leaderThread().process()).isEqualTo(1);
    }
}
