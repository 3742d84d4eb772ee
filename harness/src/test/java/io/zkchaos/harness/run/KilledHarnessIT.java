package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.history.History;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.RunsAlone;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A harness killed with SIGKILL mid-run (no shutdown hook runs) leaves a checkable history, and its orphaned
 * ZooKeeper servers are ended by the next run that starts in the same store.
 */
@RunsAlone
class KilledHarnessIT {

    @TempDir
    Path store;

    @Test
    void aKilledRunLeavesItsHistoryAndTheNextRunReapsItsServers() throws Exception {
        HarnessJvm harness = HarnessJvm.run(store, "--workload", "set", "--nemesis", "none", "--time-limit", "120s",
                "--seed", "5");
        Path history;
        try {
            history = harness.awaitHistory(300, Duration.ofSeconds(90));
        } finally {
            harness.kill();
        }
        Path runDir = history.getParent();
        assertThat(LeftOvers.serversOf(runDir)).as("the killed harness's servers are orphaned").isNotEmpty();

        // A SIGKILL can cut the line being written (see JsonLinesRecorder): at most that last line is dropped.
        List<String> cut = new ArrayList<>();
        History h = HistoryFiles.read(history, ReadOptions.tolerateTruncatedTail(cut::add));
        assertThat(cut).as("lines dropped").hasSizeLessThanOrEqualTo(1);
        assertThat(h.operations()).hasSizeGreaterThanOrEqualTo(150); // the 300 whole lines seen before the kill
        assertThat(h.operations()).filteredOn(o -> o.process() < History.HARNESS_PROCESS_BASE)
                .extracting(o -> o.f()).containsOnly("add"); // the clients'; the availability probe's beside them

        // The next run in the store reaps them before it starts its own cluster.
        new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(RunConfig.builder()
                .workload("register").nemesis("none").timeLimit(Duration.ofSeconds(2)).recover(Duration.ZERO)
                .seed(1).out(store).build());
        assertThat(LeftOvers.serversOf(runDir)).as("orphans after the next run started").isEmpty();
    }
}
