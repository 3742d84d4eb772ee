package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.harness.cluster.docker.DockerEngine;
import io.zkchaos.harness.cluster.docker.DockerReaper;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.harness.testing.RunsAlone;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A whole run with {@code --backend docker}: the same scenario as {@link RunnerIT}'s, against containers. */
@RunsAlone
class DockerRunnerIT {

    @TempDir
    Path store;

    @RegisterExtension
    static final ExecutionCondition DOCKER = Prerequisites.forClass("docker", DockerEngine::unavailable);

    @Test
    void aSetRunUnderLeaderKillsOnContainersIsValidAndLeavesNoContainer() throws Exception {
        StringWriter progress = new StringWriter();
        RunOutcome outcome = new Runner(new PrintWriter(progress), Duration.ofSeconds(2)).run(RunConfig.builder()
                .backend("docker").workload("set").nemesis("kill-leader").seed(7).timeLimit(Duration.ofSeconds(12))
                .faultFor(Duration.ofSeconds(3)).healFor(Duration.ofSeconds(3)).concurrency(4)
                .recover(Duration.ofSeconds(2))
                // that the ensemble serves after the final heal is the recovery checker's (a write and every server);
                // the set's own clients, retired by the last kill, may not be back within 2 s on a loaded machine
                .relax(java.util.List.of("acked-after-heal")).out(store).build());
        assertThat(progress.toString()).as("the run says which images it uses").contains("zookeeper image")
                .contains("toxiproxy image").contains("the final heal took");
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.VALID);
        History h = HistoryFiles.read(outcome.directory().historyFile());
        List<Op> nemesis = h.nemesisOps();
        assertThat(nemesis).extracting(Op::f).contains("kill-leader", "heal");
        assertThat(h.operations()).filteredOn(o -> o.f().equals("read") && o.isOk()).hasSize(3);
        assertThat(Files.readString(outcome.directory().configFile())).contains("\"backend\" : \"docker\"");
        Path nodes = outcome.directory().path().resolve("nodes");
        assertThat(nodes.resolve("n1/server.log")).content().contains("QuorumPeerMain");
        String run = Files.readAllLines(nodes.resolve("run.properties")).get(0).substring("run=".length());
        assertThat(DockerEngine.client().listContainersCmd().withShowAll(true)
                .withLabelFilter(java.util.Map.of(DockerReaper.RUN, run)).exec()).as("containers of the run").isEmpty();
    }
}
