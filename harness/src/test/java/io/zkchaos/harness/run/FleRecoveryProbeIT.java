package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.recovery.RecoveryChecker;
import io.zkchaos.checkers.recovery.RecoveryReport;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.workloads.fle.FleNodes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: the fle nodes get a probe write after the final heal, like ZooKeeper's. On a real three-node fle
 * ensemble the probe puts its own key through the nodes' client links: acknowledged while a quorum serves (and the
 * value is in the leader's log), and a failed probe write once a majority is down, which the checker finds invalid.
 * Before, the probe recorded no write on the fle nodes, and recovery never judged one.
 */
class FleRecoveryProbeIT {

    @TempDir
    Path runs;

    @Test
    void theProbeWritesToTheFleNodesAndFailsWithoutAQuorum() throws Exception {
        ClusterConfig config = ClusterConfig.builder().system(SystemUnderTest.FLE).nodes(3)
                .runDirectory(runs.resolve("fle")).startTimeout(Duration.ofSeconds(120)).build();
        InMemoryRecorder healthy = new InMemoryRecorder();
        InMemoryRecorder broken = new InMemoryRecorder();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            assertThat(cluster.probesWrites()).isTrue();
            finalHeal(healthy);
            String said = new RecoveryProbe(cluster, healthy, Duration.ofSeconds(10), Duration.ofSeconds(60),
                    Set.of("write", "cas")).run();
            assertThat(said).isEqualTo("a write acknowledged, every server serves");
            String leader = cluster.leader().orElseThrow();
            try (FleClient c = new FleClient(FleNodes.address(cluster.connectString(leader)), Duration.ofSeconds(10))) {
                assertThat(c.readLog()).as("the probe's put is committed")
                        .anySatisfy(e -> assertThat(e.toString()).contains(Cluster.FLE_PROBE_KEY));
            }

            List<String> others = cluster.nodes().stream().filter(n -> !n.equals(leader)).toList();
            for (String n : others) {
                cluster.kill(n);
            }
            await("the majority is down").atMost(Duration.ofSeconds(30))
                    .until(() -> others.stream().allMatch(n -> cluster.state(n) == NodeState.DOWN));
            finalHeal(broken);
            String saidBroken = new RecoveryProbe(cluster, broken, Duration.ofSeconds(2), Duration.ofSeconds(3),
                    Set.of("write", "cas")).run();
            assertThat(saidBroken).startsWith("NO write acknowledged");
        }
        Op invoke = healthy.history().ops().stream()
                .filter(o -> o.type() == OpType.INVOKE && RecoveryChecker.WRITE.equals(o.f())).findFirst().orElseThrow();
        assertThat(invoke.value()).isEqualTo(Map.of("boundMs", 60_000L, RecoveryChecker.WRITES, List.of("cas",
                "write")));
        CheckResult ok = new RecoveryChecker().check(healthy.history());
        assertThat(ok.validity()).as(ok.summary()).isEqualTo(Validity.VALID);
        assertThat(((RecoveryReport) ok.details()).writeBy()).isEqualTo("probe");

        CheckResult failed = new RecoveryChecker().check(broken.history());
        assertThat(failed.validity()).as(failed.summary()).isEqualTo(Validity.INVALID);
        assertThat(failed.summary()).contains("no write was acknowledged within 3.0 s of the final heal");
    }

    private static void finalHeal(InMemoryRecorder recorder) {
        recorder.nemesis(OpType.INVOKE, "heal", "all");
        recorder.nemesis(OpType.INFO, "heal", Map.of("fault", "heal", "nodes", List.of()));
    }
}
