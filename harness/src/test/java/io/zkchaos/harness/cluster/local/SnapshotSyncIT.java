package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SyncMode;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.frame.FrameTaps;
import io.zkchaos.nemesis.frame.FrameTrigger;
import io.zkchaos.nemesis.frame.SeenFrame;
import io.zkchaos.nemesis.frame.TriggerRecord;
import io.zkchaos.nemesis.net.Stream;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * Sync steering and snapshot triggers on a real 3-node ensemble run with {@code sync snap}: every sync is a SNAP, a
 * stall lands after exactly N bytes of the snapshot, and a kill of the sender right after the snapshot leaves the
 * follower without the NEWLEADER that would have followed.
 */
class SnapshotSyncIT extends ProcessesUnderRuns {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private static void write(LocalCluster cluster, String prefix, int n) throws Exception {
        try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
            for (int i = 0; i < n; i++) {
                assertThat(Zk.write(zk, "/" + prefix + i)).isTrue();
            }
        }
    }

    private static void holds(LocalCluster cluster, String node, String prefix, int n) throws Exception {
        try (ZooKeeper zk = Zk.connect(cluster.directConnectString(node), Duration.ofSeconds(10))) {
            List<String> children = zk.getChildren("/", false);
            for (int i = 0; i < n; i++) {
                assertThat(children).as("%s holds /%s%d", node, prefix, i).contains(prefix + i);
            }
        }
    }

    @Test
    void withSyncSnapEverySyncIsASnapAndTriggersLandInsideTheSnapshot() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(ClusterConfig.builder().nodes(3).sync(SyncMode.SNAP)
                .runDirectory(runs.resolve("snap")).build())) {
            FrameTaps taps = cluster.frames().orElseThrow();
            write(cluster, "a", 30);
            String leader = cluster.leader().orElseThrow();
            String f = cluster.nodes().stream().filter(n -> !n.equals(leader)).findFirst().orElseThrow();

            // 1. a stall after 300 bytes of the snapshot
            taps.arm(new FrameTrigger("stall", Set.of("SNAPSHOT"), "sync", 1, 300, FrameTrigger.Action.STALL,
                    FrameTrigger.Victim.RECEIVER, Duration.ZERO, null), cluster);
            cluster.kill(f);
            cluster.start(f);
            await().atMost(BOUND).until(() -> !taps.waiting("stall"));
            TriggerRecord stall = taps.disarm("stall").get(0);
            assertThat(stall.frame()).isEqualTo("SNAPSHOT");
            assertThat(stall.bodyBytes()).isEqualTo(300);
            assertThat(stall.receiver()).isEqualTo(f);
            assertThat(taps.seen().stream().filter(s -> s.connection() == stall.connection()
                    && s.link().equals(stall.link()) && s.stream() == Stream.DOWNSTREAM).map(s -> s.frame().type()))
                    .as("the stalled snapshot never completed on that connection")
                    .contains("SNAP").doesNotContain("SNAPSHOT", "NEWLEADER");
            cluster.awaitServing(f, BOUND);
            holds(cluster, f, "a", 30);

            // 2. the leader killed right after a follower received the whole snapshot, before NEWLEADER
            write(cluster, "b", 20);
            long before = taps.lastSeq();
            taps.arm(new FrameTrigger("crash", Set.of("SNAPSHOT"), "sync", 1, -1, FrameTrigger.Action.KILL,
                    FrameTrigger.Victim.SENDER, Duration.ZERO, null), cluster);
            cluster.kill(f);
            cluster.start(f);
            await().atMost(BOUND).until(() -> !taps.waiting("crash"));
            TriggerRecord crash = taps.disarm("crash").get(0);
            assertThat(crash.frame()).isEqualTo("SNAPSHOT");
            assertThat(crash.sender()).isEqualTo(leader);
            assertThat(crash.nodes()).containsExactly(leader);
            assertThat(cluster.state(leader)).isEqualTo(NodeState.DOWN);
            List<SeenFrame> onIt = taps.seenAfter(before).stream().filter(s -> s.connection() == crash.connection()
                    && s.link().equals(crash.link()) && s.stream() == Stream.DOWNSTREAM).toList();
            assertThat(onIt.get(onIt.size() - 1).frame().type()).as("last frame the follower got from " + leader)
                    .isEqualTo("SNAPSHOT");
            cluster.start(leader);
            cluster.awaitQuorum(BOUND);
            for (String n : cluster.nodes()) {
                cluster.awaitServing(n, BOUND);
                holds(cluster, n, "b", 20);
            }
            // forced: every sync the taps saw open was a SNAP
            assertThat(taps.seen().stream().filter(s -> s.frame().phase().equals("sync")
                    && Set.of("DIFF", "TRUNC", "SNAP").contains(s.frame().type())).map(s -> s.frame().type()))
                    .isNotEmpty().containsOnly("SNAP");
        }
    }
}
