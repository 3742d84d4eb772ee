package io.zkchaos.harness.mutation;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.RunConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Verdicts, cells and commands of the matrix, from made-up runs (no cluster). */
class MutationTableTest {

    private static MutationRun run(long seed, Validity v, String checker, String summary) {
        CheckResult part = CheckResult.of(checker, v, summary, null);
        return MutationRun.of(seed, new CheckResult("set", v, summary, null, List.of(part)), Path.of("/tmp/r" + seed));
    }

    private static Mutation mutation(Mutation.Expect expect) {
        return new Mutation(List.of("commit-before-quorum"), MutationMatrix.SET_ISOLATE_LEADER, expect, "why");
    }

    @Test
    void aBugCaughtInEveryRunSaysWhatTheCheckerFound() {
        MutationRow r = new MutationRow(mutation(Mutation.Expect.CAUGHT), MutationMatrix.SET_ISOLATE_LEADER, List.of(
                run(1, Validity.INVALID, "no-lost-commit", "4 acknowledged add(s) lost: 1259"),
                run(2, Validity.INVALID, "no-lost-commit", "2 acknowledged add(s) lost: 77")));
        assertThat(r.verdict()).isEqualTo("caught");
        assertThat(r.caught()).isEqualTo(2);
        assertThat(r.seeds()).isEqualTo("1-2");
        assertThat(r.said()).isEqualTo("no-lost-commit: 4 acknowledged add(s) lost: 1259");
        assertThat(r.asRequired()).isTrue();
    }

    @Test
    void aMaskedBugIsSaidToBeMaskedWithItsReasonAndAnUnexpectedCatchIsReported() {
        Mutation masked = mutation(Mutation.Expect.MASKED);
        MutationRow quiet = new MutationRow(masked, masked.scenario(),
                List.of(run(3, Validity.VALID, "no-lost-commit", "fine")));
        assertThat(quiet.verdict()).isEqualTo("masked");
        assertThat(quiet.said()).isEqualTo("why");
        assertThat(quiet.asRequired()).isTrue();
        MutationRow loud = new MutationRow(masked, masked.scenario(), List.of(run(3, Validity.VALID, "x", "fine"),
                run(4, Validity.INVALID, "log-prefix", "diverge")));
        assertThat(loud.verdict()).isEqualTo("caught sometimes");
        assertThat(loud.said()).isEqualTo("log-prefix: diverge");
    }

    @Test
    void aVisibleBugNeverCaughtAndAFalseAlarmOfTheCorrectBuildFailTheMatrix() {
        MutationRow missed = new MutationRow(mutation(Mutation.Expect.CAUGHT), MutationMatrix.SET_ISOLATE_LEADER,
                List.of(run(1, Validity.VALID, "no-lost-commit", "fine")));
        assertThat(missed.verdict()).isEqualTo("NOT CAUGHT");
        assertThat(missed.asRequired()).isFalse();
        MutationRow alarm = new MutationRow(null, MutationMatrix.SET_ISOLATE_LEADER,
                List.of(run(1, Validity.VALID, "a", "fine"), run(2, Validity.INVALID, "single-leader", "two")));
        assertThat(alarm.bugLabel()).isEqualTo("none (correct build)");
        assertThat(alarm.verdict()).isEqualTo("FALSE ALARM");
        assertThat(alarm.asRequired()).isFalse();
        MutationRow harnessError = new MutationRow(null, MutationMatrix.SET_ISOLATE_LEADER,
                List.of(MutationRun.failed(1, "no quorum served", null)));
        assertThat(harnessError.verdict()).isEqualTo("unknown");
        assertThat(harnessError.said()).isEqualTo("harness error: no quorum served");
    }

    @Test
    void theTableShowsEveryRowAndTheMarkdownHowToRunItAgain() {
        List<MutationRow> rows = List.of(
                new MutationRow(mutation(Mutation.Expect.CAUGHT), MutationMatrix.SET_ISOLATE_LEADER,
                        List.of(run(7, Validity.INVALID, "no-lost-commit", "lost | 3"))),
                new MutationRow(null, MutationMatrix.SET_ISOLATE_LEADER,
                        List.of(run(7, Validity.VALID, "no-lost-commit", "fine"))));
        StringWriter text = new StringWriter();
        MutationTable.print(rows, new PrintWriter(text));
        assertThat(text.toString()).contains("commit-before-quorum", "set × isolate-leader", "caught", "1/1",
                "none (correct build)", "valid");
        String md = MutationTable.markdown(rows);
        assertThat(md).contains("| commit-before-quorum | set × isolate-leader | 7 | caught | 1/1 | "
                + "no-lost-commit: lost \\| 3 |");
        assertThat(md).contains("./zkchaos run --system fle --bug commit-before-quorum --workload set --nemesis "
                + "isolate-leader --time-limit 20s --fault-for 5s --heal-for 5s --recover 10s --failover-bound 10s "
                + "--seed 7");
    }

    @Test
    void everyRowIsARunTheCommandLineTakesAndEveryBugHasARow() {
        for (Mutation m : MutationMatrix.full()) {
            RunConfig c = m.scenario().config(m.bugs(), 1, Path.of("/tmp/never"));
            assertThat(c.cluster().system()).isEqualTo("fle");
            assertThat(c.cluster().bugs()).containsExactlyElementsOf(m.bugs());
        }
        assertThat(MutationMatrix.full()).flatExtracting(Mutation::bugs)
                .containsAll(java.util.Arrays.stream(io.zkchaos.fle.Bug.values()).map(b -> b.flag()).toList());
        assertThat(MutationMatrix.quick()).extracting(Mutation::bugLabel)
                .containsExactly("commit-before-quorum", "ack-before-durable");
    }
}
