package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.watches.WatchViolation;
import io.zkchaos.checkers.watches.WatchesChecker;
import io.zkchaos.checkers.watches.WatchesReport;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.workloads.watches.BrokenWatchers;
import io.zkchaos.workloads.watches.EventTap;
import io.zkchaos.workloads.watches.WatchesWorkload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watches workload end to end on a real ensemble (ZooKeeper 3.9.5, the default) under partitions: sessions whose
 * watchers drop or reorder what their client dispatched are caught, with explanations naming the events, while a
 * correct session of the same run is not.
 */
class WatchesIT {

    @TempDir
    Path store;

    private final StringWriter progress = new StringWriter();

    private RunOutcome run(RunConfig config, WorkloadDescriptor workload) throws InterruptedException {
        return new Runner(new PrintWriter(progress), Duration.ofSeconds(2)).run(config, workload);
    }

    private static RunConfig.Builder shortRun() {
        return RunConfig.builder().seed(26).timeLimit(Duration.ofSeconds(5)).recover(Duration.ofSeconds(2))
                .faultFor(Duration.ofSeconds(2)).healFor(Duration.ofSeconds(1)).concurrency(5);
    }

    private static CheckResult part(RunOutcome outcome, String checker) {
        return outcome.result().parts().stream().filter(p -> p.checker().equals(checker)).findFirst().orElseThrow();
    }

    /** The watch events the sessions of slot {@code slot} (of 5) received. */
    private static long eventsOf(RunOutcome outcome, int slot) throws Exception {
        return io.zkchaos.checkers.codec.HistoryFiles.read(outcome.directory().historyFile()).operations().stream()
                .filter(op -> op.f().equals("event")
                        && (op.process() - WatchesChecker.EVENT_STREAM_OFFSET) % 5 == slot).count();
    }

    @Test
    void sessionsThatDropOrReorderEventsAreCaughtAndTheCorrectOneIsNot() throws Exception {
        // Slots 0 and 1 write; watching slot 2 drops every 5th event, slot 3 swaps every 4th with the next one,
        // slot 4 is correct. The ensemble is partitioned meanwhile: a session on the minority side reconnects. (That
        // the correct client is valid under every nemesis, its run's whole verdict, is the chaos suite's part.)
        WorkloadDescriptor watches = Workloads.require("watches");
        var dropping = BrokenWatchers.dropping(5);
        var reordering = BrokenWatchers.reordering(4);
        WorkloadDescriptor broken = new WorkloadDescriptor("watches-broken", "watchers that drop or reorder events",
                o -> ((WatchesWorkload) watches.create(o)).withEventTap("watches-broken", p -> switch (p % 5) {
                    case 2 -> dropping.get();
                    case 3 -> reordering.get();
                    default -> EventTap.DIRECT;
                }), watches.checkers()).withEvidence(watches.minimum(), watches.underFault());
        RunOutcome outcome = run(shortRun().customWorkload("watches-broken").nemesis("random-halves").out(store)
                .build(), broken);
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.INVALID);
        CheckResult judged = part(outcome, CheckerCatalog.WATCHES);
        List<WatchViolation> found = ((WatchesReport) judged.details()).violations();
        assertThat(found).filteredOn(v -> v.process() % 5 == 2).extracting(WatchViolation::rule)
                .contains("lost-trigger");
        assertThat(found).filteredOn(v -> v.process() % 5 == 3).extracting(WatchViolation::rule)
                .containsAnyOf("ordering", "event-before-data");
        assertThat(found).as("the correct session").noneMatch(v -> v.process() % 5 == 4);
        assertThat(eventsOf(outcome, 4)).as("events the correct session received").isPositive();
        assertThat(progress.toString()).contains("fault random-halves: applied 2 of 2");
        assertThat(found).allSatisfy(v -> assertThat(v.explanation()).containsPattern("at index \\d+")
                .contains("watch"));
        assertThat(judged.summary()).startsWith(found.size() + " watch guarantee(s) broken");
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }
}
