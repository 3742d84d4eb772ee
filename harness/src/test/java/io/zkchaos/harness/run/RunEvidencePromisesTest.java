package io.zkchaos.harness.run;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static io.zkchaos.checkers.ZnodeHistories.m;
import static io.zkchaos.checkers.ZnodeHistories.ops;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.Requirement;
import io.zkchaos.checkers.evidence.TestsPromises;
import io.zkchaos.checkers.history.History;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.Workloads;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run is judged on the promises its checkers said they tested, as {@link RunLoop} does: the workload's real
 * checkers check a hand-written history, {@link RunEvidence#promises} gathers what they tested, and a mandatory
 * promise tested 0 times makes the run {@code unknown} unless relaxed; a reported-only one is listed, not held.
 */
class RunEvidencePromisesTest {

    private static final Map<String, Object> HEALED = map("fault", "heal", "description", "healed every link",
            "nodes", List.of(), "groups", List.of(), "grudge", Map.of());

    /** A multi run: transactions and reads acknowledged before and after the heal; aborts only if asked. */
    private static History multiRun(boolean abort) {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(1, "txn", ops(m("check", "r0", null), m("set", "r1", 1L)), 0)
                .ok(1, ops(m("check", "r0", 0L), m("set", "r1", 1L)), 1)
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "r1", null)), 2)
                .ok(2, ops(m("read", "r0", 0L), m("read", "r1", 1L)), 3);
        if (abort) {
            h.invoke(3, "txn", ops(m("check", "r1", null), m("set", "r0", 5L)), 4).fail(3, 5);
        }
        h.heal("all", HEALED, 6, 7);
        return h.invoke(1, "txn", ops(m("set", "r1", 2L)), 8).ok(1, ops(m("set", "r1", 2L)), 9).build();
    }

    private static CheckResult judge(History history, List<String> relax) {
        RunConfig config = RunConfig.builder().workload("multi").nemesis("none").relax(relax).build();
        WorkloadDescriptor d = Workloads.require("multi");
        RunEvidence.requireKnown(config, d); // a promise's id is one --relax takes
        CheckResult checked = Checkers.runSafely(Runner.checker(config, d), history);
        return RunEvidence.judge(config, d, history, Map.of(), -1, Map.of(), RunEvidence.promises(checked));
    }

    private static EvidenceReport report(CheckResult r) {
        return (EvidenceReport) r.details();
    }

    @Test
    void aRunWhoseMandatoryPromiseWasNeverTestedIsUnknownNamingIt() {
        CheckResult r = judge(multiRun(false), List.of());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(report(r).unmet()).singleElement().isEqualTo("promise multi-txn:aborted (an aborted transaction "
                + "took no effect at all) was not put to the test: 0 times");
        assertThat(report(r).required()).contains("promise:multi-txn:aborted");
    }

    @Test
    void relaxedByItsIdTheSameRunIsValid() {
        CheckResult r = judge(multiRun(false), List.of("promise:multi-txn:aborted"));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(report(r).exercised().promisesNotTested()).contains("multi-txn:aborted");
    }

    @Test
    void withAnAbortTheRunIsValidAndItsReportedOnlyPromisesAreListedTestedOrNot() {
        CheckResult r = judge(multiRun(true), List.of());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        Map<String, List<PromiseTally>> promises = report(r).exercised().promises();
        assertThat(promises).containsKeys("multi-txn", "linearizable", "final-state");
        assertThat(promises.get("multi-txn")).extracting(PromiseTally::id, PromiseTally::tested).containsExactly(
                org.assertj.core.groups.Tuple.tuple("committed", 2L),
                org.assertj.core.groups.Tuple.tuple("aborted", 1L),
                org.assertj.core.groups.Tuple.tuple("indeterminate", 0L),
                org.assertj.core.groups.Tuple.tuple("reads", 1L));
        // reported only: no final read of any server's tree was made, and the run stays valid
        assertThat(report(r).exercised().promisesNotTested()).contains("multi-txn:indeterminate",
                "final-state:trees");
    }

    @Test
    void everyBuiltInMandatoryPromiseNamesOneOfItsWorkloadsCheckersAndAPromiseItCounts() {
        // a descriptor naming a checker it does not run, or a promise it does not count, makes every run unknown
        for (WorkloadDescriptor d : Workloads.all()) {
            for (Requirement r : d.minimum().requirements()) {
                if (r instanceof Requirement.PromiseTested p) {
                    assertThat(d.checkers()).as(d.name() + " runs " + p.checker()).contains(p.checker());
                    CheckResult empty = Checkers.runSafely(CheckerCatalog.create(p.checker(),
                            CheckerOptions.defaults()), History.of(List.of()));
                    assertThat(empty.details()).as(p.checker() + " on an empty history: " + empty.summary())
                            .isInstanceOf(TestsPromises.class);
                    assertThat(((TestsPromises) empty.details()).promises()).extracting(PromiseTally::id)
                            .as(p.id()).contains(p.promise());
                }
            }
        }
    }
}
