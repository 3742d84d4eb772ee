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
 * The short mutation matrix ({@link MutationMatrix#quick()}, a few minutes): the bugs that every run of their
 * scenario shows — a leader committing on its own ack under an isolation, acks before the write under a power loss
 * — are judged invalid, and the correct build in the same scenarios is valid. The full matrix, five seeds a row, is
 * {@code MutationMatrixChaosIT} (-Pchaos) and {@code ./zkchaos mutations}.
 */
class MutationMatrixIT {

    @TempDir
    Path store;

    @Test
    void theBugsAreCaughtAndTheCorrectBuildIsValidInTheSameScenarios() throws Exception {
        StringWriter progress = new StringWriter();
        List<MutationRow> rows = new MutationRunner(new PrintWriter(progress), store, 1, 1)
                .run(MutationMatrix.quick());
        StringWriter table = new StringWriter();
        MutationTable.print(rows, new PrintWriter(table));
        System.out.println(table);
        assertThat(rows).hasSize(4);
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
        assertThat(rows).filteredOn(r -> r.bugLabel().equals("ack-before-durable")).singleElement()
                .satisfies(r -> assertThat(r.said()).startsWith("no-lost-commit:").contains("lost"));
        assertThat(progress.toString().getBytes(StandardCharsets.UTF_8).length).isPositive();
    }
}
