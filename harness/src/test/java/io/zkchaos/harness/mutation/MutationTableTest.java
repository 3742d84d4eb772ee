package io.zkchaos.harness.mutation;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.config.RunConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Verdicts, cells and commands of the matrix, from made-up runs (no cluster). */
class MutationTableTest {

    private static final String CBQ = "commit-before-quorum";

    /** A run of the commit-before-quorum rows, whose nodes counted {@code paths} runs of its code path. */
    private static MutationRun run(long seed, Validity v, String checker, String summary, long paths) {
        CheckResult part = CheckResult.of(checker, v, summary, null);
        return MutationRun.of(seed, new CheckResult("set", v, summary, null, List.of(part)), Path.of("/tmp/r" + seed),
                Map.of(CBQ, paths));
    }

    private static MutationRun run(long seed, Validity v, String checker, String summary) {
        return run(seed, v, checker, summary, 1);
    }

    private static MutationRow row(Mutation.Expect expect, MutationRun... runs) {
        return new MutationRow(mutation(expect), MutationMatrix.SET_ISOLATE_LEADER, List.of(runs));
    }

    private static Mutation mutation(Mutation.Expect expect) {
        return new Mutation(List.of(CBQ), MutationMatrix.SET_ISOLATE_LEADER, expect, "why");
    }

    @Test
    void aBugCaughtInEveryRunSaysWhatTheCheckerFound() {
        MutationRow r = row(Mutation.Expect.CAUGHT,
                run(1, Validity.INVALID, "no-lost-commit", "4 acknowledged add(s) lost: 1259", 412),
                run(2, Validity.INVALID, "no-lost-commit", "2 acknowledged add(s) lost: 77", 380));
        assertThat(r.verdict()).isEqualTo("caught");
        assertThat(r.caught()).isEqualTo(2);
        assertThat(r.seeds()).isEqualTo("1-2");
        assertThat(r.said()).isEqualTo("no-lost-commit: 4 acknowledged add(s) lost: 1259");
        assertThat(r.codePaths()).isEqualTo("792 (412, 380)");
        assertThat(r.asRequired()).isTrue();
    }

    @Test
    void aBugNoClientSawIsMaskedOnlyWhenItsCodePathRanInAValidRun() {
        for (Mutation.Expect expect : List.of(Mutation.Expect.MASKED, Mutation.Expect.RARE)) {
            MutationRow masked = row(expect, run(3, Validity.VALID, "no-lost-commit", "fine", 0),
                    run(4, Validity.VALID, "no-lost-commit", "fine", 5));
            assertThat(masked.verdict()).as("%s", expect).isEqualTo("masked");
            assertThat(masked.codePaths()).isEqualTo("5 (0, 5)");
            assertThat(masked.said()).isEqualTo("its code path ran 5 times, no client could see it; expected why");
            assertThat(masked.asRequired()).isTrue();

            MutationRow untested = row(expect, run(3, Validity.VALID, "no-lost-commit", "fine", 0),
                    run(4, Validity.UNKNOWN, "no-lost-commit", "too few operations", 7));
            assertThat(untested.verdict()).as("%s: ran only in a run judged unknown", expect)
                    .isEqualTo("not triggered");
            assertThat(untested.said()).isEqualTo("its code path never ran in a valid run; expected why");
            assertThat(untested.asRequired()).isFalse();
        }
        MutationRow loud = row(Mutation.Expect.MASKED, run(3, Validity.VALID, "x", "fine", 0),
                run(4, Validity.INVALID, "log-prefix", "diverge", 2));
        assertThat(loud.verdict()).isEqualTo("caught sometimes");
        assertThat(loud.said()).isEqualTo("log-prefix: diverge");
        assertThat(loud.asRequired()).isTrue();
    }

    @Test
    void aRowOfHarnessErrorsIsNeverAccepted() {
        for (Mutation.Expect expect : Mutation.Expect.values()) {
            MutationRow errors = row(expect, MutationRun.failed(1, "no quorum served", null),
                    MutationRun.failed(2, "no quorum served", null));
            assertThat(errors.verdict()).as("%s", expect).isEqualTo("harness error");
            assertThat(errors.codePaths()).isEqualTo("0 (?, ?)");
            assertThat(errors.said()).isEqualTo("harness error: no quorum served");
            assertThat(errors.asRequired()).isFalse();
        }
        MutationRow oneError = row(Mutation.Expect.MASKED, MutationRun.failed(1, "no quorum served", null),
                run(2, Validity.VALID, "no-lost-commit", "fine", 3));
        assertThat(oneError.verdict()).isEqualTo("masked");
        assertThat(oneError.asRequired()).isTrue();
    }

    @Test
    void aVisibleBugNeverCaughtAndAFalseAlarmOfTheCorrectBuildFailTheMatrix() {
        MutationRow missed = row(Mutation.Expect.CAUGHT, run(1, Validity.VALID, "no-lost-commit", "fine", 9));
        assertThat(missed.verdict()).as("its path ran, but a visible bug must be caught").isEqualTo("NOT CAUGHT");
        assertThat(missed.codePaths()).isEqualTo("9");
        assertThat(missed.asRequired()).isFalse();
        MutationRow alarm = new MutationRow(null, MutationMatrix.SET_ISOLATE_LEADER,
                List.of(run(1, Validity.VALID, "a", "fine"), run(2, Validity.INVALID, "single-leader", "two")));
        assertThat(alarm.bugLabel()).isEqualTo("none (correct build)");
        assertThat(alarm.verdict()).isEqualTo("FALSE ALARM");
        assertThat(alarm.asRequired()).isFalse();
        MutationRow harnessError = new MutationRow(null, MutationMatrix.SET_ISOLATE_LEADER,
                List.of(MutationRun.failed(1, "no quorum served", null)));
        assertThat(harnessError.verdict()).isEqualTo("harness error");
        assertThat(harnessError.said()).isEqualTo("harness error: no quorum served");
        assertThat(harnessError.codePaths()).isEqualTo("-");
        assertThat(harnessError.asRequired()).isFalse();
    }

    @Test
    void theTableShowsEveryRowAndTheMarkdownHowToRunItAgain() {
        List<MutationRow> rows = List.of(
                row(Mutation.Expect.CAUGHT, run(7, Validity.INVALID, "no-lost-commit", "lost | 3", 12)),
                row(Mutation.Expect.MASKED, run(7, Validity.VALID, "no-lost-commit", "fine", 0)),
                new MutationRow(null, MutationMatrix.SET_ISOLATE_LEADER,
                        List.of(MutationRun.of(7, CheckResult.of("set", Validity.VALID, "fine", null),
                                Path.of("/tmp/r7"), Map.of()))));
        StringWriter text = new StringWriter();
        MutationTable.print(rows, new PrintWriter(text));
        assertThat(text.toString()).contains("commit-before-quorum", "set × isolate-leader", "caught", "1/1",
                "not triggered", "never ran", "none (correct build)", "valid", "code path ran",
                MutationTable.LEGEND);
        String md = MutationTable.markdown(rows);
        assertThat(md).contains("| commit-before-quorum | set × isolate-leader | 7 | caught | 1/1 | 12 | "
                + "no-lost-commit: lost \\| 3 |");
        assertThat(md).contains("| none (correct build) | set × isolate-leader | 7 | valid | 0/1 | - | ");
        assertThat(md).contains("./zkchaos run --system fle --bug commit-before-quorum --nodes 3 --workload set "
                + "--nemesis isolate-leader --time-limit 20s --fault-for 5s --heal-for 5s --recover 10s "
                + "--failover-bound 10s --seed 7");
    }

    @Test
    void everyRowIsARunTheCommandLineTakesAndEveryBugHasARow() {
        for (Mutation m : MutationMatrix.full()) {
            RunConfig c = m.scenario().config(m.bugs(), 1, Path.of("/tmp/never"));
            assertThat(c.cluster().system()).isEqualTo(io.zkchaos.harness.cluster.SystemUnderTest.FLE);
            assertThat(c.cluster().bugNames()).containsExactlyElementsOf(m.bugs());
            assertThat(c.cluster().nodes()).isEqualTo(m.scenario().nodes());
        }
        MutationScenario five = MutationMatrix.SET_PAUSE_LEADER_5;
        assertThat(five.label()).isEqualTo("set × pause-leader, 5 nodes");
        assertThat(five.command(List.of("no-finalize-wait"), 3)).startsWith(
                "./zkchaos run --system fle --bug no-finalize-wait --nodes 5 --workload set --nemesis pause-leader ");
        assertThat(MutationMatrix.full()).flatExtracting(Mutation::bugs)
                .containsAll(java.util.Arrays.stream(io.zkchaos.fle.Bug.values()).map(b -> b.flag()).toList());
        assertThat(MutationMatrix.full()).containsAll(MutationMatrix.byServersAccount());
        for (Mutation m : MutationMatrix.byServersAccount()) {
            assertThat(m.note()).as("names the server checker that must catch it")
                    .matches("(server:error|server:crash|availability:stall)\\b.*");
        }
        assertThat(MutationMatrix.quick()).extracting(Mutation::bugLabel)
                .containsExactly("commit-before-quorum", "ack-before-durable");
    }
}
