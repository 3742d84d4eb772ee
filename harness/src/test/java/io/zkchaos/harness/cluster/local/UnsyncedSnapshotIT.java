package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.cluster.lazyfs.LazyFs;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.CrashFaults;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the strictest power failure does to ZooKeeper 3.9.5 (every byte not fsynced lost, nothing written back by the
 * kernel meanwhile): a server writes its first snapshot ({@code snapshot.0}, the empty tree) without fsync, then
 * fsyncs its transaction log on every commit. Crash the whole ensemble before anything wrote the snapshot back and
 * every server that logged a transaction (a majority at least) comes back with an empty {@code snapshot.0} beside its
 * log, and refuses to start:
 * "No snapshot found, but there are log entries. Something is broken!" (the guard of ZOOKEEPER-2325; the escape
 * hatch is {@code zookeeper.snapshot.trust.empty=true}). No acknowledged write is lost — but the ensemble stays down
 * until an operator steps in. This is why runs write the start-up back ({@code Cluster#writeBack}) before any fault.
 */
class UnsyncedSnapshotIT extends ProcessesUnderRuns {

    @RegisterExtension
    static final ExecutionCondition LAZY_FS = Prerequisites.forClass("the lazy file system", LazyFs::unavailable);

    @Test
    void aPowerFailureBeforeTheFirstSnapshotIsWrittenBackLeavesNoServerThatStarts() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).lazyFs(true).runDirectory(runs.resolve("snap"))
                .build();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                for (int i = 0; i < 5; i++) {
                    assertThat(Zk.write(zk, "/acked-" + i)).isTrue();
                }
            }
            NemesisTarget target = cluster.nemesisTarget(new Random(1));
            new CrashFaults(target, "kill-all-lose-unfsynced").killAllLoseUnfsynced();
            for (String n : cluster.nodes()) {
                assertThat(Files.size(runs.resolve("snap").resolve(n).resolve("data.disk/version-2/snapshot.0")))
                        .as("%s's first snapshot after the power failure", n).isZero();
            }
            Map<String, Integer> before = new HashMap<>();
            for (String n : cluster.nodes()) {
                before.put(n, Files.readString(cluster.logFile(n)).length());
            }
            new CrashFaults(target, "heal").restartDown();
            // Every acknowledged write was fsynced in a majority's logs, and that majority refuses to start. A node
            // that logged nothing before the power failure (a follower lagging on a loaded machine) starts on an
            // empty tree instead (FileTxnSnapLog#restore saves it as snapshot 0), alone: no quorum.
            String refusal = "No snapshot found, but there are log entries. Something is broken!";
            String empty = "Snapshotting: 0x0 to";
            List<String> refused = new ArrayList<>();
            for (String n : cluster.nodes()) {
                try {
                    await().atMost(Duration.ofSeconds(60)).until(() -> cluster.state(n) == NodeState.DOWN
                            || Files.readString(cluster.logFile(n)).substring(before.get(n)).contains(empty));
                } catch (ConditionTimeoutException e) {
                    throw new AssertionError(n + " neither ended nor started empty in 60 s: " + cluster.state(n)
                            + ", seen " + cluster.processSeen(n) + "; its log since the restart:\n"
                            + Files.readString(cluster.logFile(n)).substring(before.get(n)), e);
                }
                if (cluster.state(n) == NodeState.DOWN) {
                    assertThat(cluster.logTail(n, 200)).as("why %s ended", n).contains(refusal);
                    refused.add(n);
                }
            }
            assertThat(refused).as("the nodes that refuse to start").hasSizeGreaterThanOrEqualTo(2);
        }
    }
}
