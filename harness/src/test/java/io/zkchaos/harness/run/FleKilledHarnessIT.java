package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.RunsAlone;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A harness running the fle nodes, killed with SIGKILL mid-run (no shutdown hook runs), leaves a checkable history
 * and orphaned node processes, which the next run in the same store ends — the fle nodes are reaped exactly like
 * ZooKeeper servers.
 */
@RunsAlone
class FleKilledHarnessIT {

    @TempDir
    Path store;

    @Test
    void theNextRunReapsTheNodesOfAKilledHarness() throws Exception {
        HarnessJvm harness = HarnessJvm.run(store, "--system", "fle", "--workload", "set", "--nemesis", "none",
                "--time-limit", "120s", "--seed", "5");
        Path history;
        try {
            // a few hundred lines: the nodes serve, clients write, the observer records the leader
            history = harness.awaitHistory(300, Duration.ofSeconds(120));
        } finally {
            harness.kill();
        }
        Path runDir = history.getParent();
        assertThat(LeftOvers.serversOf(runDir)).as("the killed harness's fle nodes are orphaned").hasSize(3);

        History h = HistoryFiles.read(history);
        assertThat(h.operations()).extracting(o -> o.f()).contains("add", "acquire");

        // The next run in the store reaps them before it starts its own cluster.
        new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(RunConfig.builder()
                .system("fle").workload("register").nemesis("none").timeLimit(Duration.ofSeconds(2))
                .recover(Duration.ZERO).seed(1).out(store).build());
        assertThat(LeftOvers.serversOf(runDir)).as("orphans after the next run started").isEmpty();
    }
}
