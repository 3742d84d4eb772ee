package io.zkchaos.harness.mutation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mutation matrix's fastest row in {@code mvn verify} (about a minute): a leader that commits on its own ack is
 * caught under an isolation, and the correct build in the same scenario is valid. The rest of the quick rows
 * ({@code ./zkchaos mutations --quick}: acks before the write under a power loss, which restarts every node) and the
 * full matrix, five seeds a row, are {@code MutationMatrixChaosIT} (-Pchaos) and {@code ./zkchaos mutations}.
 */
class MutationMatrixIT {

    @TempDir
    Path store;

    @Test
    void theBugsAreCaughtAndTheCorrectBuildIsValidInTheSameScenarios() throws Exception {
        StringWriter progress = new StringWriter();
        List<MutationRow> rows = new MutationRunner(new PrintWriter(progress), store, 1, 1)
                .run(MutationMatrix.quick().stream().filter(m -> m.scenario() == MutationMatrix.SET_ISOLATE_LEADER)
                        .toList());
        StringWriter table = new StringWriter();
        MutationTable.print(rows, new PrintWriter(table));
        System.out.println(table);
        assertThat(rows).hasSize(2);
        for (MutationRow r : rows) {
            if (r.correctBuild()) {
                assertThat(r.verdict()).as("the correct build in %s: %s", r.scenario().label(), r.said())
                        .isEqualTo("valid");
            } else {
                assertThat(r.verdict()).as("%s in %s: %s (runs in %s)", r.bugLabel(), r.scenario().label(), r.said(),
                        store).isEqualTo("caught");
            }
        }
        assertThat(rows).filteredOn(r -> r.bugLabel().equals("commit-before-quorum")).singleElement()
                .satisfies(r -> assertThat(r.said()).startsWith("no-lost-commit:").contains("lost"));
        assertThat(progress.toString().getBytes(StandardCharsets.UTF_8).length).isPositive();
    }
}
