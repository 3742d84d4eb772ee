package io.zkchaos.checkers.evidence;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.History;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code fault-applied} counts the faults the system felt: what the nemesis measured of each start (in its record, or
 * in the heal that ended it) decides, and a start of which nothing was measured counts as felt.
 */
class FaultFeltTest {

    private static final Requirement APPLIED = new Requirement.FaultApplied("fault-applied");

    private static Map<String, Object> record(String fault, String node, List<Object> felt) {
        Map<String, Object> m = map("fault", fault, "description", fault + " on " + node, "nodes", List.of(node),
                "groups", List.of(), "grudge", Map.of());
        if (!felt.isEmpty()) {
            m.put("felt", felt);
        }
        return m;
    }

    private static Map<String, Object> felt(String fault, String node, boolean felt, String what) {
        return map("fault", fault, "node", node, "felt", felt, "what", what);
    }

    private static Map<String, Object> heal(List<Object> felt) {
        return record("heal", "n1", felt);
    }

    private static final String IDLE = "failed no fsync (0 writes, 0 fsyncs in its window)";

    @Test
    void aDiskFaultOnANodeThatWroteNothingInItsWindowIsAppliedNotFelt() {
        History h = new HistoryBuilder()
                .nemesis("disk-eio-fsync", record("disk-eio-fsync", "n2", List.of()), 1, 2)
                .okOp(0, "write", 1L, null, 3)
                .heal("disk-eio-fsync", heal(List.of(felt("disk-eio-fsync", "n2", false, IDLE))), 4, 5)
                .heal("all", heal(List.of()), 6, 7)
                .build();
        Exercised run = Exercised.of(h);
        FaultTally t = run.fault("disk-eio-fsync").orElseThrow();
        assertThat(t.applied()).isEqualTo(1);
        assertThat(t.felt()).isZero();
        assertThat(t.measured()).isEqualTo(1);
        assertThat(t.unfelt()).containsExactly("disk-eio-fsync on n2 " + IDLE);
        assertThat(APPLIED.unmet(run)).contains("applied 1, felt 0: disk-eio-fsync on n2 " + IDLE);
        assertThat(ExerciseText.summary(run)).contains("1 of 1 fault starts applied, 0 felt");
    }

    @Test
    void oneStartFeltIsEnoughAndTheOtherIsNamed() {
        History h = new HistoryBuilder()
                .nemesis("disk-eio-fsync", record("disk-eio-fsync", "n2", List.of()), 1, 2)
                .heal("disk-eio-fsync", heal(List.of(felt("disk-eio-fsync", "n2", false, IDLE))), 3, 4)
                .nemesis("disk-eio-fsync", record("disk-eio-fsync", "n3", List.of()), 5, 6)
                .heal("disk-eio-fsync", heal(List.of(felt("disk-eio-fsync", "n3", true,
                        "4 fsyncs failed (9 writes, 4 fsyncs in its window)"))), 7, 8)
                .heal("all", heal(List.of()), 9, 10)
                .build();
        Exercised run = Exercised.of(h);
        FaultTally t = run.fault("disk-eio-fsync").orElseThrow();
        assertThat(t.applied()).isEqualTo(2);
        assertThat(t.felt()).isEqualTo(1);
        assertThat(APPLIED.unmet(run)).isEmpty();
        assertThat(ExerciseText.lines(run)).anySatisfy(l -> assertThat(l)
                .contains("fault disk-eio-fsync: applied 2 of 2, felt 1 (not: disk-eio-fsync on n2 " + IDLE + ")"));
    }

    @Test
    void aKillMeasuredAsItWasDoneIsJudgedOnItsOwnRecord() {
        History h = new HistoryBuilder()
                .nemesis("kill-random", record("kill-random", "n1",
                        List.of(felt("kill-random", "n1", false, "process seen running"))), 1, 2)
                .heal("kill-random", heal(List.of()), 3, 4)
                .nemesis("pause-random", record("pause-random", "n2",
                        List.of(felt("pause-random", "n2", true, "process seen stopped"))), 5, 6)
                .heal("all", heal(List.of()), 7, 8)
                .build();
        Exercised run = Exercised.of(h);
        assertThat(run.fault("kill-random").orElseThrow().felt()).isZero();
        assertThat(run.fault("kill-random").orElseThrow().unfelt())
                .containsExactly("kill-random on n1 process seen running");
        assertThat(run.fault("pause-random").orElseThrow().felt()).isEqualTo(1);
        assertThat(run.faultsApplied()).isEqualTo(2);
        assertThat(run.faultsFelt()).isEqualTo(1);
    }

    @Test
    void theFinalHealJudgesTheFaultsItEndsByTheNamesItsMeasuresCarry() {
        History h = new HistoryBuilder()
                .nemesis("isolate-leader", record("isolate-leader", "n1", List.of()), 1, 2)
                .nemesis("disk-full", record("disk-full", "n2", List.of()), 3, 4)
                .heal("all", heal(List.of(
                        felt("isolate-leader", "n1", false, "0 connections reset, 0 bytes dropped on its faulted links"),
                        felt("disk-full", "n2", true, "2 writes refused for want of space (2 writes, 0 fsyncs in its "
                                + "window)"))), 5, 6)
                .build();
        Exercised run = Exercised.of(h);
        assertThat(run.fault("isolate-leader").orElseThrow().felt()).isZero();
        assertThat(run.fault("disk-full").orElseThrow().felt()).isEqualTo(1);
        assertThat(APPLIED.unmet(run)).isEmpty();
    }

    @Test
    void aStartOfWhichNothingWasMeasuredCountsAsFelt() {
        // an older history: no felt anywhere; and a start that was never healed
        History h = new HistoryBuilder()
                .nemesis("kill-leader", record("kill-leader", "n1", List.of()), 1, 2)
                .heal("kill-leader", heal(List.of()), 3, 4)
                .nemesis("clock-bump", record("clock-bump", "n3", List.of()), 5, 6)
                .build();
        Exercised run = Exercised.of(h);
        assertThat(run.faultsApplied()).isEqualTo(2);
        assertThat(run.faultsFelt()).isEqualTo(2);
        assertThat(run.faults()).allSatisfy(t -> assertThat(t.measured()).isZero());
        assertThat(APPLIED.unmet(run)).isEmpty();
    }

    @Test
    void aStartMeasuredAndNeverHealedIsJudgedOnWhatItsStartMeasured() {
        History h = new HistoryBuilder()
                .nemesis("clock-bump", record("clock-bump", "n3", List.of(felt("clock-bump", "n3", false,
                        "server clock read back at +0.002 s (asked +42.000 s; srvr logged in server.log)"))), 1, 2)
                .build();
        Exercised run = Exercised.of(h);
        assertThat(APPLIED.unmet(run)).contains("applied 1, felt 0: clock-bump on n3 server clock read back at "
                + "+0.002 s (asked +42.000 s; srvr logged in server.log)");
    }
}
