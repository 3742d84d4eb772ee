package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.harness.cluster.NodeStatus;
import java.time.Duration;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/** A 3-node ensemble with direct links: process faults only. */
class DirectClusterIT extends ProcessesUnderRuns {

    @Test
    void killTheLeaderAndANewOneServesWrites() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).proxied(false)
                .runDirectory(runs.resolve("direct")).build();
        LocalCluster cluster = LocalCluster.start(config);
        try {
            String old = cluster.leader().orElseThrow();
            // Direct links: the check that proxied ensembles pass must fail here, or it proves nothing.
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ClusterChecks.assertPeersOnlyThroughProxies(
                    cluster)).isInstanceOf(AssertionError.class).hasMessageContaining("connected directly");
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                assertThat(Zk.write(zk, "/before")).isTrue();
            }
            cluster.kill(old);
            assertThat(cluster.state(old)).isEqualTo(NodeState.DOWN);
            assertThat(cluster.status(old).mode()).isEqualTo(NodeStatus.Mode.UNREACHABLE);
            // Bounds for a loaded machine: a failover takes about 0.5 s, a restarted follower's sync a few seconds.
            await("a new leader").atMost(Duration.ofSeconds(30))
                    .until(() -> cluster.leader().filter(l -> !l.equals(old)).isPresent());
            cluster.awaitQuorum(Duration.ofSeconds(30));
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                assertThat(Zk.write(zk, "/after")).isTrue();
                assertThat(zk.exists("/before", false)).isNotNull();
            }
            cluster.start(old);
            await(old + " follows again").atMost(Duration.ofSeconds(60))
                    .until(() -> cluster.status(old).mode() == NodeStatus.Mode.FOLLOWER);
        } finally {
            cluster.close();
        }
        // A nemesis still running when the cluster closes (a shutdown hook's close, say) must not start a server
        // that nothing would stop.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> cluster.start("n1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot start n1: its cluster is closed");
        assertThat(cluster.state("n1")).isEqualTo(NodeState.DOWN);
    }
}
