package io.zkchaos.harness.cluster.docker;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.checkers.servers.ServerEvent.Kind;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.harness.testing.RunsAlone;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.PauseFaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Random;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One docker ensemble through what only containers do: no peer can reach another but through the proxy, kill is the
 * container's process killed (its data and address kept for the restart), pause freezes the container, the run says
 * which images it uses, and nothing is left. (The whole contract of every backend runs with the chaos suite:
 * {@link DockerProxiedClusterChaosIT}.) Skipped, saying why, where no Docker engine can be used.
 */
@RunsAlone
class DockerClusterIT {

    @TempDir
    Path runs;

    @RegisterExtension
    static final ExecutionCondition DOCKER = Prerequisites.forClass("docker", DockerEngine::unavailable);

    @Test
    void killPauseAndRestartActOnContainersAndTheDataSurvives() throws Exception {
        DockerCluster docker = DockerCluster.start(ClusterConfig.builder().nodes(3).runDirectory(runs.resolve("c"))
                .build());
        Runnable leftovers = DockerChecks.leftoverCheck(docker);
        try {
            assertThat(docker.summary()).contains("zookeeper image").contains("toxiproxy image");
            DockerChecks.assertPeersOnlyThroughProxies(docker);
            try (ZooKeeper zk = Zk.connect(docker.connectString(), Duration.ofSeconds(10))) {
                assertThat(Zk.write(zk, "/before-kill")).isTrue();
            }
            NemesisTarget target = docker.nemesisTarget(new Random(4));

            String paused = new PauseFaults(target, "pause-leader").pauseLeader().nodes().get(0);
            assertThat(docker.state(paused)).isEqualTo(NodeState.PAUSED);
            await("a new leader while " + paused + " is frozen").atMost(Duration.ofSeconds(20)).until(() ->
                    docker.leader().filter(l -> !l.equals(paused)).isPresent());
            new PauseFaults(target, "heal").resumeAll();
            await(paused + " follows after resume").atMost(Duration.ofSeconds(30)).until(() ->
                    docker.status(paused).mode() == Mode.FOLLOWER);

            String killed = new CrashFaults(target, "kill-leader").killLeader().nodes().get(0);
            assertThat(docker.state(killed)).isEqualTo(NodeState.DOWN);
            await("a new leader after killing " + killed).atMost(Duration.ofSeconds(20)).until(() ->
                    docker.leader().filter(l -> !l.equals(killed)).isPresent());
            new CrashFaults(target, "heal").restartDown();
            docker.awaitQuorum(Duration.ofSeconds(30));
            await(killed + " serves again").atMost(Duration.ofSeconds(30)).until(() ->
                    docker.status(killed).mode().serving());
            DockerChecks.assertPeersOnlyThroughProxies(docker);
            // Read from the restarted node alone, directly: its data survived the kill in the container.
            try (ZooKeeper zk = Zk.connect(docker.directConnectString(killed), Duration.ofSeconds(10))) {
                await("the write is on " + killed).atMost(Duration.ofSeconds(10)).until(() -> {
                    try {
                        return zk.exists("/before-kill", false) != null;
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
            assertThat(docker.logFile(killed)).content().contains("QuorumPeerMain");
        } finally {
            docker.close();
        }
        leftovers.run();
    }

    /**
     * A container whose server ends without the harness (its process killed through the engine by this test, not by
     * the cluster) is an exit by itself, seen within a bounded wait, with its exit code and the end of its log; the
     * cluster's own kill and restart are the nemesis', its close the harness's; the logs reach the run directory.
     */
    @Test
    void aContainerThatEndsByItselfIsRecordedAndTheClustersOwnActionsAreNot() throws Exception {
        Path dir = runs.resolve("exits");
        DockerCluster docker = DockerCluster.start(ClusterConfig.builder().nodes(3).runDirectory(dir).build());
        Runnable leftovers = DockerChecks.leftoverCheck(docker);
        List<ServerEvent> events = new CopyOnWriteArrayList<>();
        String victim = "n2";
        try {
            long t0 = System.nanoTime();
            docker.servers().record(events::add, () -> System.nanoTime() - t0);
            DockerEngine.client().killContainerCmd(docker.containerId(victim)).withSignal("KILL").exec();
            await("the exit recorded").atMost(Duration.ofSeconds(10))
                    .until(() -> events.stream().anyMatch(ServerEvent::endedByItself));
            ServerEvent exit = events.stream().filter(ServerEvent::endedByItself).findFirst().orElseThrow();
            assertThat(exit.node()).isEqualTo(victim);
            assertThat(exit.exitCode()).isEqualTo(137);
            assertThat(exit.signal()).isEqualTo("KILL");
            assertThat(exit.lastLines()).isNotEmpty();
            assertThat(docker.state(victim)).as("down, so that a heal starts it").isEqualTo(NodeState.DOWN);

            docker.servers().nemesis(() -> "kill-random", () -> "kill-random");
            docker.start(victim);
            docker.kill("n3");
        } finally {
            docker.close();
        }
        leftovers.run();
        assertThat(events).filteredOn(ServerEvent::endedByItself).as("only the test's kill").hasSize(1);
        assertThat(events).extracting(ServerEvent::node, ServerEvent::kind, ServerEvent::by, ServerEvent::fault)
                .containsExactly(
                        tuple("n1", Kind.STARTED, "harness", null), tuple("n2", Kind.STARTED, "harness", null),
                        tuple("n3", Kind.STARTED, "harness", null), tuple("n2", Kind.EXITED, null, null),
                        tuple("n2", Kind.STARTED, "nemesis", "kill-random"),
                        tuple("n3", Kind.EXITED, "nemesis", "kill-random"),
                        tuple("n1", Kind.EXITED, "harness", null), tuple("n2", Kind.EXITED, "harness", null));
        assertThat(events.get(5).exitCode()).isEqualTo(137);
        for (String n : List.of("n1", "n2", "n3")) {
            assertThat(dir.resolve(n).resolve("server.log")).as(n + "'s log in the run directory").content()
                    .containsPattern("(?m)^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) INFO ");
        }
    }
}
