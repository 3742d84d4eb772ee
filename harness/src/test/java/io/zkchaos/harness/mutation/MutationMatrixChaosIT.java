package io.zkchaos.harness.mutation;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.suite.Shard;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The full mutation matrix ({@code mvn -Pchaos verify}; the same as {@code ./zkchaos mutations}): every row of
 * {@link MutationMatrix#full()} with {@code zkchaos.mutations.runs} seeds (default 5) from
 * {@code zkchaos.mutations.seed} (default 1), then the correct build in each scenario. Every visible bug must be
 * caught at least once, every other one caught or masked with evidence (its code path ran in a valid run), and the
 * correct build valid in every run. The table is printed
 * and written to {@code target/mutations/mutations.md}; the runs stay under {@code target/mutations/runs}.
 * {@code zkchaos.mutations.shard=K/N} (else {@code zkchaos.chaos.shard}, so that one property shards both matrices)
 * runs share K of N of the scenarios, each with all its rows ({@link MutationMatrix#share}).
 */
@Tag("chaos-matrix") // sharded over machines in CI; -DexcludedGroups=chaos-matrix runs the rest
class MutationMatrixChaosIT {

    private static final Path OUT = Path.of(System.getProperty("zkchaos.mutations.out", "target/mutations"));

    @Test
    void everyBugIsCaughtOrHonestlyMaskedAndTheCorrectBuildIsAlwaysValid() throws Exception {
        int runs = Integer.getInteger("zkchaos.mutations.runs", 5);
        long seed = Long.getLong("zkchaos.mutations.seed", 1L);
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        String property = System.getProperty("zkchaos.mutations.shard") != null ? "zkchaos.mutations.shard"
                : "zkchaos.chaos.shard";
        List<Mutation> share = MutationMatrix.share(MutationMatrix.full(),
                Shard.parse(property, System.getProperty(property)));
        List<MutationRow> rows = new MutationRunner(out, OUT.resolve("runs"), runs, seed).run(share);
        MutationTable.print(rows, out);
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve("mutations.md"), MutationTable.markdown(rows), StandardCharsets.UTF_8);
        assertThat(rows).allSatisfy(r -> assertThat(r.asRequired())
                .as("%s in %s: %s %d/%d, code path ran %s (%s)", r.bugLabel(), r.scenario().label(), r.verdict(),
                        r.caught(), r.runs().size(), r.codePaths(), r.said()).isTrue());
    }
}
