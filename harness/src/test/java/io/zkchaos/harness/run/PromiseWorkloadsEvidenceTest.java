package io.zkchaos.harness.run;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.Requirement;
import io.zkchaos.checkers.watches.WatchesChecker;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.Workloads;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The workloads of ZooKeeper's other promises (watches, sessions, sequential, multi) each declare the minimum a run
 * must have exercised: a run whose clients got nothing of theirs through is unknown, naming what is missing, and a
 * run that exercised every part is not held back. Judged as a run is ({@link RunEvidence}), under no fault.
 */
class PromiseWorkloadsEvidenceTest {

    private static final Map<String, Object> HEALED = map("fault", "heal", "description", "healed every link",
            "nodes", List.of(), "groups", List.of(), "grudge", Map.of());

    /**
     * {@code ops} judged as a run of {@code workload} whose checker said it tested each of its mandatory promises
     * {@code tested} times.
     */
    private static CheckResult judge(String workload, long tested, Consumer<HistoryBuilder> ops) {
        HistoryBuilder h = new HistoryBuilder();
        ops.accept(h);
        RunConfig config = RunConfig.builder().workload(workload).nemesis("none").build();
        WorkloadDescriptor d = Workloads.require(workload);
        Map<String, List<PromiseTally>> promises = new java.util.HashMap<>();
        for (Requirement r : d.minimum().requirements()) {
            if (r instanceof Requirement.PromiseTested p) {
                promises.computeIfAbsent(p.checker(), c -> new java.util.ArrayList<>())
                        .add(new PromiseTally(p.promise(), p.promise(), tested));
            }
        }
        return RunEvidence.judge(config, d, h.build(), Map.of(), -1, Map.of(), promises);
    }

    /** {@code f} by {@code process} at {@code ms}, ended with {@code outcome} ("ok", "fail", "info"). */
    private static void op(HistoryBuilder h, int process, String f, String outcome, long ms) {
        h.invoke(process, f, "k", null, ms);
        switch (outcome) {
            case "ok" -> h.ok(process, null, ms + 1);
            case "fail" -> h.fail(process, ms + 1);
            default -> h.info(process, ms + 1);
        }
    }

    private static void heal(HistoryBuilder h, long ms) {
        h.heal("all", HEALED, ms, ms + 1);
    }

    private static List<String> unmet(CheckResult r) {
        return ((EvidenceReport) r.details()).unmet();
    }

    @Test
    void watchesNeedAChangeAWatchAndAnEvent() {
        int events = WatchesChecker.EVENT_STREAM_OFFSET;
        CheckResult nothing = judge("watches", 0, h -> {
            op(h, 0, "create", "info", 0);
            op(h, 2, "get-data", "fail", 2);
            heal(h, 4);
        });
        assertThat(nothing.validity()).as(nothing.summary()).isEqualTo(Validity.UNKNOWN);
        assertThat(unmet(nothing)).hasSize(5).anySatisfy(s -> assertThat(s).contains("event"))
                .anySatisfy(s -> assertThat(s).contains("promise watches:one-time"));

        CheckResult all = judge("watches", 1, h -> {
            op(h, 0, "create", "ok", 0);
            op(h, 2, "get-data", "ok", 2);
            op(h, 2 + events, "event", "ok", 4);
            heal(h, 6);
        });
        assertThat(all.validity()).as(all.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void sessionsNeedEphemeralsReadsAndEndsAndSomethingAfterTheHeal() {
        CheckResult nothing = judge("sessions", 0, h -> {
            op(h, 0, "create", "info", 0);
            op(h, 1, "read", "fail", 2);
            op(h, 2, "close", "info", 4);
            heal(h, 6);
        });
        assertThat(nothing.validity()).as(nothing.summary()).isEqualTo(Validity.UNKNOWN);
        assertThat(unmet(nothing)).hasSize(5)
                .anySatisfy(s -> assertThat(s).contains("promise session-guarantees:expired"));

        CheckResult all = judge("sessions", 1, h -> {
            op(h, 0, "create", "ok", 0);
            op(h, 1, "read", "ok", 2);
            op(h, 0, "close", "ok", 4);
            heal(h, 6);
            op(h, 3, "create", "ok", 8);
        });
        assertThat(all.validity()).as(all.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void sequentialNeedsCreatesAndEveryFinalRead() {
        CheckResult nothing = judge("sequential", 0, h -> {
            op(h, 0, "create", "info", 0);
            heal(h, 2);
            op(h, 1_000_000, "read", "info", 4);
        });
        assertThat(nothing.validity()).as(nothing.summary()).isEqualTo(Validity.UNKNOWN);
        assertThat(unmet(nothing)).hasSize(4)
                .anySatisfy(s -> assertThat(s).contains("promise sequential-znodes:ephemeral-sequential"));

        CheckResult all = judge("sequential", 1, h -> {
            op(h, 0, "create", "ok", 0);
            heal(h, 2);
            op(h, 1, "create", "ok", 4);
            op(h, 1_000_000, "read", "ok", 6);
        });
        assertThat(all.validity()).as(all.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void multiNeedsTransactionsAndReads() {
        CheckResult onlyFailed = judge("multi", 1, h -> {
            op(h, 0, "txn", "fail", 0);
            op(h, 1, "read", "ok", 2);
            heal(h, 4);
            op(h, 1, "read", "ok", 6);
        });
        assertThat(onlyFailed.validity()).as(onlyFailed.summary()).isEqualTo(Validity.UNKNOWN);
        // no txn acknowledged in the main phase, and none after the heal: reads after it are no write
        assertThat(unmet(onlyFailed)).hasSize(2).allSatisfy(s -> assertThat(s).contains("no txn was acknowledged"));

        CheckResult all = judge("multi", 1, h -> {
            op(h, 0, "txn", "ok", 0);
            op(h, 2, "txn", "fail", 1);
            op(h, 1, "read", "ok", 2);
            heal(h, 4);
            op(h, 1, "read", "ok", 6);
            op(h, 2, "txn", "ok", 8);
        });
        assertThat(all.validity()).as(all.summary()).isEqualTo(Validity.VALID);
    }
}
