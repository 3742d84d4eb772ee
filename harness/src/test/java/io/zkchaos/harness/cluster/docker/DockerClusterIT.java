package io.zkchaos.harness.cluster.docker;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.FaultActions;
import io.zkchaos.nemesis.NodeState;
import java.nio.file.Path;
import java.time.Duration;
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
            FaultActions faults = new FaultActions(docker.nemesisTarget(new Random(4)));

            String paused = faults.pauseLeader().nodes().get(0);
            assertThat(docker.state(paused)).isEqualTo(NodeState.PAUSED);
            await("a new leader while " + paused + " is frozen").atMost(Duration.ofSeconds(20)).until(() ->
                    docker.leader().filter(l -> !l.equals(paused)).isPresent());
            faults.resumeAll();
            await(paused + " follows after resume").atMost(Duration.ofSeconds(30)).until(() ->
                    docker.status(paused).mode() == Mode.FOLLOWER);

            String killed = faults.killLeader().nodes().get(0);
            assertThat(docker.state(killed)).isEqualTo(NodeState.DOWN);
            await("a new leader after killing " + killed).atMost(Duration.ofSeconds(20)).until(() ->
                    docker.leader().filter(l -> !l.equals(killed)).isPresent());
            faults.restartDown();
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
}
