package io.zkchaos.harness.mutation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mutation matrix's fastest row, on its own in {@code -Pchaos} (the nightly runs it; {@code mvn verify} keeps the
 * fle module's own bug-flag ITs): a leader that commits on its own ack is caught under an
 * isolation, and the correct build in the same scenario is valid. The isolated leader acknowledges adds only until its
 * next tick, when it finds no quorum and steps down; on a loaded machine a run's clients may get no add through in
 * that window (seen in one loaded run of `.ci/verify-under-load`). So the bug gets up to {@value #SEEDS} seeds and must be caught in one,
 * the matrix's own rule (a visible bug caught at least once), and the nodes must have counted its code path running (a
 * commit on the leader's own ACK); the correct build must be valid in its run, with no count. The rest of
 * the quick rows ({@code ./zkchaos mutations --quick}: acks before the write under a power loss, which restarts every
 * node) and the full matrix, five seeds a row, are {@code MutationMatrixChaosIT} (-Pchaos) and
 * {@code ./zkchaos mutations}.
 */
class MutationFastestRowChaosIT {

    private static final int SEEDS = 4;

    @TempDir
    Path store;

    @Test
    void theBugIsCaughtAndTheCorrectBuildIsValidInTheSameScenario() throws Exception {
        StringWriter progress = new StringWriter();
        List<Mutation> rows = MutationMatrix.quick().stream()
                .filter(m -> m.scenario() == MutationMatrix.SET_ISOLATE_LEADER).toList();
        assertThat(rows).hasSize(1);
        Mutation bug = rows.get(0);
        assertThat(bug.bugs()).containsExactly("commit-before-quorum");
        MutationRow caught = new MutationRunner(new PrintWriter(progress), store, SEEDS, 1).runUntilCaught(bug);
        MutationRow correct = new MutationRunner(new PrintWriter(progress), store, 1, 1)
                .runCorrectBuild(bug.scenario());
        StringWriter table = new StringWriter();
        MutationTable.print(List.of(caught, correct), new PrintWriter(table));
        System.out.println(table);

        assertThat(caught.caught()).as("%s in %s, seeds %s: %s (runs in %s)", caught.bugLabel(),
                caught.scenario().label(), caught.seeds(), caught.said(), store).isEqualTo(1);
        assertThat(caught.said()).startsWith("no-lost-commit:").contains("lost");
        assertThat(caught.codePathRuns("commit-before-quorum")).as("commits on the leader's own ACK, counted by the "
                + "nodes").isPositive();
        assertThat(caught.asRequired()).isTrue();
        assertThat(correct.verdict()).as("the correct build in %s: %s", correct.scenario().label(), correct.said())
                .isEqualTo("valid");
        assertThat(correct.runs()).allSatisfy(r -> assertThat(r.bugCodePaths()).isEmpty());
        assertThat(progress.toString()).contains("seed 1", "bug code paths ran: commit-before-quorum ");
    }
}
