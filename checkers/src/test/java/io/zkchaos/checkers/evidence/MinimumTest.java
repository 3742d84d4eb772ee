package io.zkchaos.checkers.evidence;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MinimumTest {

    private static final Minimum REGISTER = Minimum.of(
            new Requirement.Acknowledged("acked-writes", Phase.MAIN, Set.of("write", "cas")),
            new Requirement.Acknowledged("acked-reads", Phase.MAIN, Set.of("read")),
            new Requirement.Acknowledged("acked-after-heal", Phase.AFTER_HEAL, Set.of()),
            new Requirement.FaultApplied("fault-applied"),
            new Requirement.AcknowledgedUnderFault("acked-under-fault", Set.of(), Set.of("isolate-leader")));

    private static Map<String, Object> isolated(String node) {
        return map("fault", "isolate-leader", "description", "isolate " + node, "nodes", List.of(node),
                "groups", List.of(), "grudge", Map.of());
    }

    private static final Map<String, Object> HEALED = map("fault", "heal", "description", "healed every link",
            "nodes", List.of(), "groups", List.of(), "grudge", Map.of());

    /** Writes and reads before, during and after one isolate-leader window, then the final heal. */
    private static HistoryBuilder goodRun() {
        return new HistoryBuilder()
                .okOp(0, "write", 1L, null, 1).okOp(1, "read", null, 1L, 2)
                .nemesis("isolate-leader", isolated("n1"), 3, 4)
                .okOp(0, "write", 2L, null, 5)
                .heal("isolate-leader", HEALED, 6, 7)
                .heal("all", HEALED, 8, 9)
                .okOp(1, "read", null, 2L, 10);
    }

    @Test
    void aRunThatMeetsEveryRequirementIsValidAndSaysWhatItExercised() {
        CheckResult r = REGISTER.judge(Exercised.of(goodRun().build()), List.of());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        EvidenceReport report = (EvidenceReport) r.details();
        assertThat(report.unmet()).isEmpty();
        assertThat(report.met()).containsExactlyElementsOf(REGISTER.ids());
        assertThat(r.summary()).contains("4 of 4 client operations acknowledged",
                "1 while a fault was in force", "1 after the final heal", "1 of 1 fault starts applied");
    }

    @Test
    void anEmptyHistoryIsUnknownWithEveryShortfallNamed() {
        CheckResult r = REGISTER.judge(Exercised.of(History.of(List.of())), List.of());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).contains("no cas or write was acknowledged in the main phase (none was made)",
                "no read was acknowledged", "the nemesis never acted: no fault was started");
    }

    @Test
    void clientsThatNeverGotThroughMakeTheRunUnknown() {
        History h = new HistoryBuilder()
                .invoke(0, "write", 1L, 1).info(0, 2).invoke(5, "read", null, 2).info(5, 3)
                .nemesis("isolate-leader", isolated("n1"), 3, 4)
                .invoke(10, "write", 2L, 5).info(10, 6)
                .heal("isolate-leader", HEALED, 6, 7).heal("all", HEALED, 8, 9)
                .invoke(15, "read", null, 10).fail(15, 11)
                .build();
        CheckResult r = REGISTER.judge(Exercised.of(h), List.of());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(((EvidenceReport) r.details()).unmet()).containsExactly(
                "no cas or write was acknowledged in the main phase (0 ok / 0 fail / 2 info)",
                "no read was acknowledged in the main phase (0 ok / 0 fail / 1 info)",
                "no operation was acknowledged after the final heal (0 ok / 1 fail / 0 info)",
                "no operation was acknowledged while a fault was in force (isolate-leader applied 1x)");
        assertThat(Exercised.of(h).retiredProcesses()).isEqualTo(3);
    }

    @Test
    void aNemesisThatNeverActedNamesWhy() {
        History h = new HistoryBuilder()
                .okOp(0, "write", 1L, null, 1).okOp(1, "read", null, 1L, 2)
                .nemesis("isolate-leader", map("error", "no node leads now"), 3, 4)
                .heal("isolate-leader", HEALED, 6, 7)
                .nemesis("isolate-leader", map("error", "no node leads now"), 8, 9)
                .heal("isolate-leader", HEALED, 10, 11)
                .nemesis("isolate-leader", map("error", "cannot reach the proxy", "outcome", "failed"), 12, 13)
                .heal("all", HEALED, 14, 15)
                .okOp(1, "read", null, 1L, 16)
                .build();
        Exercised run = Exercised.of(h);
        FaultTally t = run.fault("isolate-leader").orElseThrow();
        assertThat(t.applied()).isZero();
        assertThat(t.couldNotAct()).isEqualTo(2);
        assertThat(t.failed()).isEqualTo(1);
        assertThat(t.reasons()).containsExactly("no node leads now", "cannot reach the proxy");
        CheckResult r = REGISTER.judge(run, List.of());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(((EvidenceReport) r.details()).unmet()).containsExactly("the nemesis never acted: 3 of 3 actions "
                + "could not act: no node leads now; cannot reach the proxy");
    }

    @Test
    void aFaultThatActedOnNoNodeDidNotApply() {
        History h = new HistoryBuilder()
                .nemesis("kill-random", map("fault", "kill-random", "description", "kill nothing", "nodes",
                        List.of(), "groups", List.of(), "grudge", Map.of()), 1, 2)
                .build();
        FaultTally t = Exercised.of(h).fault("kill-random").orElseThrow();
        assertThat(t.applied()).isZero();
        assertThat(t.reasons()).containsExactly("acted on no node (kill nothing)");
    }

    @Test
    void relaxedRequirementsAreNotHeldAndAreRecorded() {
        CheckResult r = REGISTER.judge(Exercised.of(History.of(List.of())), List.of(Minimum.ALL));
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(((EvidenceReport) r.details()).relaxed()).containsExactly("all");
        CheckResult some = REGISTER.judge(Exercised.of(History.of(List.of())), List.of("fault-applied",
                "acked-writes", "acked-reads", "acked-after-heal"));
        assertThat(some.validity()).isEqualTo(Validity.VALID); // under-fault is judged only once a fault applied
    }

    @Test
    void operationsInFlightWhenTheFaultWasInForceCountUnderIt() {
        // invoked before the fault was applied, acknowledged after it: in flight while it was in force
        History h = new HistoryBuilder()
                .invoke(0, "add", 1L, 1)
                .nemesis("isolate-leader", isolated("n2"), 2, 3)
                .ok(0, null, 4)
                .invoke(1, "add", 2L, 4) // invoked while in force, never completed
                .heal("isolate-leader", HEALED, 5, 6)
                .okOp(2, "add", 3L, null, 7) // after the fault: not under it
                .build();
        Exercised run = Exercised.of(h);
        FunctionTally add = run.function("add").orElseThrow();
        assertThat(add.underFault()).isEqualTo(new OpCounts(1, 0, 1));
        assertThat(add.all()).isEqualTo(new OpCounts(2, 0, 1));
        assertThat(run.fault("isolate-leader").orElseThrow().okUnder()).isEqualTo(1);
        assertThat(run.finalHeal()).isFalse();
    }

    /** A stall-during-snapshot armed on n2, and its stop: the trigger never fired. */
    private static final Map<String, Object> STALL_ARMED = map("fault", "stall-during-snapshot", "description",
            "armed; restart n2", "nodes", List.of("n2"), "groups", List.of(), "grudge", Map.of());
    private static final Map<String, Object> STALL_DISARMED_UNFIRED = map("fault", "heal", "description", "disarmed",
            "nodes", List.of(), "groups", List.of(), "grudge", Map.of(), "triggers", List.of(
                    map("fault", "stall-during-snapshot", "trigger", "SNAP body", "fired", false)));

    @Test
    void triggersThatNeverFiredMeanTheFaultNeverHappened() {
        History h = new HistoryBuilder()
                .okOp(0, "add", 1L, null, 1)
                .nemesis("stall-during-snapshot", STALL_ARMED, 2, 3)
                .okOp(0, "add", 2L, null, 4)
                .heal("stall-during-snapshot", STALL_DISARMED_UNFIRED, 5, 6)
                .heal("all", HEALED, 7, 8)
                .build();
        Exercised run = Exercised.of(h).withObserved(Map.of("DIFF", 5L, "SNAP", 0L, "TRUNC", 0L), 1, Map.of());
        Minimum m = Minimum.of(new Requirement.TriggerFired("trigger-fired", Set.of("stall-during-snapshot")));
        CheckResult r = m.judge(run, List.of());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).contains("the fault never happened: protocol triggers fired 0 of 1 armed; quorum "
                + "syncs seen: DIFF 5, SNAP 0, TRUNC 0");
    }

    @Test
    void aTriggerThatNeverFiredAmongOtherAppliedFaultsIsOneFaultThatDidNotHappen() {
        Map<String, Object> killed = map("fault", "kill-leader", "description", "kill n1", "nodes", List.of("n1"),
                "groups", List.of(), "grudge", Map.of());
        History h = new HistoryBuilder()
                .okOp(0, "add", 1L, null, 1)
                .nemesis("stall-during-snapshot", STALL_ARMED, 2, 3)
                .heal("stall-during-snapshot", STALL_DISARMED_UNFIRED, 5, 6)
                .nemesis("kill-leader", killed, 7, 8)
                .okOp(0, "add", 2L, null, 9)
                .heal("kill-leader", HEALED, 10, 11)
                .heal("all", HEALED, 12, 13)
                .build();
        Exercised run = Exercised.of(h);
        Minimum m = Minimum.of(new Requirement.TriggerFired("trigger-fired", Set.of("stall-during-snapshot")));
        assertThat(m.judge(run, List.of()).validity()).as("a mixed run: kill-leader was applied")
                .isNotEqualTo(Validity.UNKNOWN);
    }

    @Test
    void harnessReadsMustAllAnswer() {
        History h = new HistoryBuilder()
                .okOp(1_000_000, "read", null, map("node", "n1", "values", List.of()), 1)
                .invoke(1_000_001, "read", null, 2).info(1_000_001, 3)
                .build();
        Exercised run = Exercised.of(h);
        assertThat(run.functions()).isEmpty();
        assertThat(run.harness()).containsEntry("read", new OpCounts(1, 0, 1));
        CheckResult r = Minimum.of(new Requirement.HarnessReadsDone("final-reads", "read")).judge(run, List.of());
        assertThat(r.summary()).contains("1 of 2 final reads did not answer");
    }
}
