package io.zkchaos.harness.cluster.local;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.checkers.state.FinalStateReport;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.state.FinalState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * The final-state comparison on a real ensemble: identical trees pass; a server whose data was changed behind the
 * ensemble's back (a planted snapshot, loaded when it restarts) is caught though no client ever read the znode.
 */
class FinalStateDivergenceIT extends ProcessesUnderRuns {

    @Test
    void aPlantedSnapshotIsCaughtAndIdenticalTreesPass() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).runDirectory(runs.resolve("plant")).build();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            Map<String, String> servers = new LinkedHashMap<>();
            cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
            Target target = new Target(cluster.connectString(), servers, Duration.ofSeconds(4),
                    Duration.ofSeconds(5));
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                zk.create("/plant", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.create("/plant/a", bytes("1"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.setData("/plant/a", bytes("2"), 0);
                zk.create("/plant/b", bytes("3"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            InMemoryRecorder before = new InMemoryRecorder();
            FinalState.read(target, before);
            CheckResult same = new FinalStateChecker().check(before.history());
            assertThat(same.validity()).as(same.summary()).isEqualTo(Validity.VALID);

            String leader = cluster.leader().orElseThrow();
            String victim = cluster.nodes().stream().filter(n -> !n.equals(leader)).findFirst().orElseThrow();
            cluster.stop(victim);
            SnapshotPlanter.setData(runs.resolve("plant").resolve(victim).resolve("data"), "/plant/a",
                    bytes("planted"));
            cluster.start(victim);
            await(victim + " follows again").atMost(Duration.ofSeconds(60)).until(() ->
                    cluster.status(victim).mode() == NodeStatus.Mode.FOLLOWER);

            InMemoryRecorder after = new InMemoryRecorder();
            // a divergence outlasts any wait: 2 s of rounds are enough to show it
            FinalState.read(target, after, Duration.ofSeconds(2));
            CheckResult r = new FinalStateChecker().check(after.history());
            assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
            FinalStateReport report = (FinalStateReport) r.details();
            assertThat(report.groups()).hasSize(2).last().isEqualTo(java.util.List.of(victim));
            assertThat(report.differences()).singleElement().satisfies(d -> {
                assertThat(d.path()).isEqualTo("/plant/a");
                assertThat(d.byNode().get(victim)).containsEntry("data", "planted").containsEntry("version", 1L);
                assertThat(d.byNode().get(leader)).containsEntry("data", "2").containsEntry("version", 1L);
            });
            assertThat(r.summary()).contains("/plant/a: ").contains(victim + " data \"planted\"");
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
