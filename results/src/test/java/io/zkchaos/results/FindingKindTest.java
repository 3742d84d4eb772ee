package io.zkchaos.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.leader.LeaderInterval;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.checkers.leader.TokenViolation;
import io.zkchaos.checkers.linear.Counterexample;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.checkers.readmodel.ReadModelReport;
import io.zkchaos.checkers.readmodel.ReadViolation;
import io.zkchaos.checkers.readmodel.StaleRead;
import io.zkchaos.checkers.set.LostValue;
import io.zkchaos.checkers.set.SetReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A verdict's kinds of finding, fresh and saved alike; what the run exercised is not one of them. */
class FindingKindTest {

    private static CheckResult lostAdd(int value) {
        SetReport r = new SetReport(3, 2, 0, List.of(), List.of(new LostValue(value, 1, 10, 11, 1_000, 2_000,
                List.of("n1"))), List.of(), 0, 0, 0, List.of());
        return CheckResult.of("no-lost-commit", Validity.INVALID, "1 acknowledged add lost", r);
    }

    private static CheckResult evidence(Validity v) {
        return CheckResult.of("evidence", v, "what the run exercised", null);
    }

    /** A run's verdict as the runner composes it: the workload's checkers, then what the run exercised. */
    private static CheckResult run(Validity evidence, CheckResult... parts) {
        return Checkers.withPart(new CheckResult("set", merged(parts), "", null, List.of(parts)), evidence(evidence));
    }

    private static Validity merged(CheckResult... parts) {
        Validity v = Validity.VALID;
        for (CheckResult p : parts) {
            v = v.merge(p.validity());
        }
        return v;
    }

    @Test
    void aLostAddIsTheSameKindWhicheverElementWasLostAndWhateverElseWasValid() {
        CheckResult valid = CheckResult.of("log-prefix", Validity.VALID, "prefixes", null);
        assertThat(FindingKind.of(run(Validity.VALID, lostAdd(7), valid))).containsExactly("no-lost-commit:lost");
        assertThat(FindingKind.of(run(Validity.VALID, lostAdd(9), valid)))
                .isEqualTo(FindingKind.of(run(Validity.VALID, lostAdd(7), valid)));
        assertThat(FindingKind.of(run(Validity.VALID, valid))).isEmpty();
    }

    @Test
    void twoHoldersOfOneTokenAndNoLeaderInTimeAreFindingsOfTheSingleLeaderChecker() {
        LeaderInterval a = new LeaderInterval(1, "n1", 2, 0, 5, 9, 0, 1, "released");
        LeaderInterval b = new LeaderInterval(2, "n2", 2, 0, 6, 9, 0, 1, "released");
        SingleLeaderReport r = new SingleLeaderReport(List.of(a, b), List.of(new TokenViolation("duplicate-token", a,
                b, "two holders of token 2")), List.of(), -1, 10, List.of(new io.zkchaos.checkers.leader.Failover(
                "heal", 3, 0, null, -1, false)), List.of(), List.of("two holders", "no leader"));
        assertThat(FindingKind.of(CheckResult.of("single-leader", Validity.INVALID, "2 violations", r)))
                .containsExactly("single-leader:duplicate-token", "single-leader:no-leader-in-bound");
    }

    @Test
    void thePromiseCheckersFindingsAreTheRulesTheyBroke() {
        io.zkchaos.checkers.watches.WatchesReport watches = new io.zkchaos.checkers.watches.WatchesReport(3, 10, 2,
                40, 30, 20, 0, 5, java.util.Map.of(), false, List.of(
                new io.zkchaos.checkers.watches.WatchViolation("lost-trigger", 1, "/t/k1", 9, "never fired"),
                new io.zkchaos.checkers.watches.WatchViolation("ordering", 2, "/t/k2", 12, "out of order"),
                new io.zkchaos.checkers.watches.WatchViolation("lost-trigger", 2, "/t/k3", 14, "never fired")));
        assertThat(FindingKind.of(CheckResult.of("watches", Validity.INVALID, "3 broken", watches)))
                .containsExactly("watches:lost-trigger", "watches:ordering");
        io.zkchaos.checkers.sessions.SessionsReport sessions = new io.zkchaos.checkers.sessions.SessionsReport(4, 2,
                1, 1, 6, 3, 8, 0, List.of(), 5_000, 2, java.util.Map.of("ephemeral-after-close", 1,
                "op-after-expiry", 1), List.of(new io.zkchaos.checkers.sessions.SessionViolation(
                "ephemeral-after-close", 3, "seen after the close", List.of(4L))));
        assertThat(FindingKind.of(CheckResult.of("session-guarantees", Validity.INVALID, "2 broken", sessions)))
                .as("every rule counted, not only the violations listed").containsExactly(
                        "session-guarantees:ephemeral-after-close", "session-guarantees:op-after-expiry");
    }

    @Test
    void aCheckersSubCheckIsItsOwnFindingAndDetailsOfNoKnownKindAreInvalidAsSuch() {
        ReadModelReport stale = new ReadModelReport(false, 3, 0, 2, List.of(new StaleRead("k", 1, 7, 1, 2, 5, 1_000,
                "an older value")), List.of(new ReadViolation("read-backwards", "k", 1, 9, 1, 2, 8, "went back")));
        CheckResult counterexample = CheckResult.of("linearizable", Validity.INVALID, "not linearizable",
                new LinearizabilityDetails("register", true, 1, 5, 0, 1, 3, 10, new Counterexample("k", null,
                        List.of(), 0, 0, List.of("2"), false, List.of()), null));
        CheckResult readModel = new CheckResult("zk-read-model", Validity.INVALID, "", stale, List.of(counterexample));
        assertThat(FindingKind.of(readModel)).as("stale reads count only when strict").containsExactly(
                "zk-read-model:not-linearizable", "zk-read-model:read-backwards");
        CheckResult strict = new CheckResult("zk-read-model", Validity.INVALID, "", new ReadModelReport(true, 3, 0, 2,
                stale.staleReads(), List.of()), List.of());
        assertThat(FindingKind.of(strict)).containsExactly("zk-read-model:stale-read");

        CheckResult other = CheckResult.of("my-checker", Validity.INVALID, "",
                new Findings.Untyped(Map.of("what", "it found")));
        assertThat(FindingKind.of(other)).containsExactly("my-checker:invalid");
        CheckResult unknown = CheckResult.of("no-lost-commit", Validity.UNKNOWN, "", null);
        assertThat(FindingKind.of(unknown)).as("unknown is no finding").isEmpty();
    }

    @Test
    void aSavedVerdictReadsAsTheFreshOneAndSaysWhetherTheRunExercisedEnough(@TempDir Path dir) {
        CheckResult fresh = run(Validity.UNKNOWN, lostAdd(7));
        RunDirectory run = new RunDirectory(dir);
        run.writeResults(fresh);
        assertThat(FindingKind.of(run.readCheckResult())).isEqualTo(FindingKind.of(fresh))
                .containsExactly("no-lost-commit:lost");
        assertThat(FindingKind.exercisedEnough(run.readCheckResult())).isFalse();
        assertThat(FindingKind.exercisedEnough(run(Validity.VALID, lostAdd(7)))).isTrue();
        assertThat(FindingKind.exercisedEnough(lostAdd(7))).as("a run checked before evidence was judged").isTrue();
    }

    @Test
    void aStallIsAnAvailabilityStall() {
        CheckResult stalled = CheckResult.of("availability", Validity.INVALID, "1 stall", FindingSamples.availability());
        assertThat(FindingKind.of(run(Validity.VALID, stalled))).containsExactly("availability:stall");
    }

    @Test
    void theServersAccountGivesItsUnexcusedFindingsOnly() {
        io.zkchaos.checkers.servers.ServerReport all = FindingSamples.servers();
        assertThat(FindingKind.of(CheckResult.of("server", Validity.INVALID, "crashed", all)))
                .containsExactly("server:crash", "server:error", "server:rejoin-loop"); // its crash loop is excused
        io.zkchaos.checkers.servers.ServerReport excused = new io.zkchaos.checkers.servers.ServerReport(
                all.clockBasis(), all.nodes(), all.missingLogs(), all.signatures().subList(1, 2),
                List.of(), List.of(new io.zkchaos.checkers.servers.ServerReport.CrashLoop("n1", 1, 2, 1, null, null)),
                List.of(), true, 3, 1, 1, List.of("a loop"));
        assertThat(FindingKind.of(CheckResult.of("server", Validity.INVALID, "loop", excused)))
                .containsExactly("server:crash-loop");
        assertThat(FindingKind.of(CheckResult.of("server", Validity.VALID, "fine", all))).isEmpty();
    }
}
