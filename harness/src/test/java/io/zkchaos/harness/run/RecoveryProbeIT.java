package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.recovery.RecoveryChecker;
import io.zkchaos.checkers.recovery.RecoveryReport;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recovery probe on a real ensemble with a server that never comes back: n3's configuration is broken and it is
 * killed; the heal starts it again and it exits at once, as a server that crash-loops on restart. The quorum of n1 and
 * n2 acknowledges the probe's write; the checker finds n3 and shows why from its log.
 */
class RecoveryProbeIT {

    @TempDir
    Path runs;

    @Test
    void aServerThatNeverComesBackAfterTheHealIsInvalidWithItsLog() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).runDirectory(runs.resolve("recovery"))
                .startTimeout(Duration.ofSeconds(120)).build();
        InMemoryRecorder recorder = new InMemoryRecorder();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            String broken = cluster.nodes().stream().filter(n -> !cluster.leader().orElseThrow().equals(n))
                    .reduce((a, b) -> b).orElseThrow();
            Path cfg = runs.resolve("recovery").resolve(broken).resolve("zoo.cfg");
            Files.writeString(cfg, "tickTime=not-a-number\n", StandardOpenOption.APPEND); // it refuses to start
            var heal = recorder.nemesis(OpType.INVOKE, "heal", "all");
            cluster.kill(broken);
            cluster.start(broken); // the heal's restart: it exits at once
            recorder.nemesis(OpType.INFO, "heal", java.util.Map.of("fault", "heal", "nodes", java.util.List.of(broken)));
            assertThat(heal).isNotNull();
            await("the restarted " + broken + " exits").atMost(Duration.ofMinutes(2))
                    .until(() -> cluster.state(broken) == io.zkchaos.nemesis.NodeState.DOWN);

            String said = new RecoveryProbe(cluster, recorder, Duration.ofSeconds(15), Duration.ofSeconds(5),
                    java.util.Set.of("add")).run();
            assertThat(said).isEqualTo("a write acknowledged, not serving: " + broken);
        }
        CheckResult r = new RecoveryChecker().check(recorder.history());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        RecoveryReport d = (RecoveryReport) r.details();
        assertThat(d.writeBy()).isEqualTo("probe");
        assertThat(d.servers()).filteredOn(s -> !s.served()).singleElement().satisfies(s -> {
            assertThat(s.state()).isEqualTo("DOWN, unreachable (down)");
            assertThat(s.log()).contains("not-a-number");
        });
        assertThat(d.servers()).filteredOn(RecoveryReport.ServerRecovery::served).hasSize(2);
    }
}
