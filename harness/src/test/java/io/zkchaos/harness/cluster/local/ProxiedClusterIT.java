package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ClusterFaults;
import io.zkchaos.harness.cluster.FaultRecord;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real ensembles with every link through the fault proxy. Each test starts its own and checks it leaves nothing. */
class ProxiedClusterIT {

    @TempDir
    Path runs;

    private LocalCluster cluster;

    private LocalCluster start(int nodes) {
        cluster = LocalCluster.start(ClusterConfig.builder().nodes(nodes).runDirectory(runs.resolve("c" + nodes))
                .build());
        return cluster;
    }

    @AfterEach
    void closeAndCheckNothingIsLeft() {
        if (cluster == null) {
            return;
        }
        List<Long> pids = ClusterChecks.pids(cluster);
        List<InetSocketAddress> ports = cluster.proxyListenAddresses();
        assertThat(ports).isNotEmpty();
        cluster.close();
        ClusterChecks.assertNothingLeft(cluster, pids.stream().filter(p -> p > 0).toList(), ports);
    }

    @Test
    void threeNodesServeWithEveryPeerConnectionThroughTheProxy() throws Exception {
        start(3);
        try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
            assertThat(Zk.write(zk, "/a")).isTrue();
        }
        assertThat(cluster.connectString()).doesNotContain(":" + cluster.layouts().get(0).clientPort());
        ClusterChecks.assertPeersOnlyThroughProxies(cluster);
        long peerBytes = cluster.links().allLinks().stream().filter(l -> !l.name().startsWith("client"))
                .mapToLong(l -> l.stats().bytesUpstream() + l.stats().bytesDownstream()).sum();
        assertThat(peerBytes).as("bytes the peers exchanged through the proxy").isPositive();
    }

    @Test
    void fiveNodesServeAndSurviveALeaderKill() throws Exception {
        start(5);
        ClusterFaults faults = new ClusterFaults(cluster, new Random(1));
        FaultRecord kill = faults.killLeader();
        String old = kill.nodes().get(0);
        Zk.eventually(Duration.ofSeconds(15), "a new leader", () ->
                cluster.leader().filter(l -> !l.equals(old)).isPresent());
        try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
            assertThat(Zk.write(zk, "/after-kill")).isTrue();
        }
        assertThat(new ObjectMapper().writeValueAsString(kill))
                .isEqualTo("{\"fault\":\"kill-leader\",\"description\":\"kill " + old + "\",\"nodes\":[\"" + old
                        + "\"],\"groups\":[],\"grudge\":{}}");
        faults.restartDown();
        Zk.eventually(Duration.ofSeconds(20), old + " follows", () ->
                cluster.status(old).mode() == Mode.FOLLOWER);
    }

    @Test
    void anIsolatedLeaderStopsTakingWritesTheMajorityElectsAndAfterHealItFollows() throws Exception {
        start(3);
        ClusterFaults faults = new ClusterFaults(cluster, new Random(2));
        String old = cluster.leader().orElseThrow();
        try (ZooKeeper pinned = Zk.connect(cluster.connectString(old), Duration.ofSeconds(4))) {
            FaultRecord isolate = faults.isolateLeader();
            assertThat(isolate.groups()).hasSize(2).first().isEqualTo(List.of(old));
            assertThat(isolate.grudge().get(old)).hasSize(2);

            assertThat(Zk.write(pinned, "/minority")).as("a write on the isolated leader").isFalse();
            Zk.eventually(Duration.ofSeconds(15), "the majority elects a new leader", () ->
                    cluster.leader().filter(l -> !l.equals(old)).isPresent());
            Zk.eventually(Duration.ofSeconds(5), old + " stops serving", () ->
                    !cluster.status(old).mode().serving());
            String majority = cluster.leader().orElseThrow();
            try (ZooKeeper zk = Zk.connect(cluster.connectString(majority), Duration.ofSeconds(10))) {
                assertThat(Zk.write(zk, "/majority")).isTrue();
            }
            ClusterChecks.assertPeersOnlyThroughProxies(cluster);

            faults.heal();
            Zk.eventually(Duration.ofSeconds(20), old + " rejoins as a follower", () ->
                    cluster.status(old).mode() == Mode.FOLLOWER);
            assertThat(pinned.exists("/minority", false)).isNull();
            assertThat(pinned.exists("/majority", false)).isNotNull();
        }
    }

    @Test
    void aPausedLeaderIsReplacedAndFollowsAfterResume() throws Exception {
        start(3);
        ClusterFaults faults = new ClusterFaults(cluster, new Random(3));
        String old = faults.pauseLeader().nodes().get(0);
        Zk.eventually(Duration.ofSeconds(15), "a new leader", () ->
                cluster.leader().filter(l -> !l.equals(old)).isPresent());
        try (ZooKeeper zk = Zk.connect(cluster.connectString(cluster.leader().orElseThrow()),
                Duration.ofSeconds(10))) {
            assertThat(Zk.write(zk, "/while-paused")).isTrue();
        }
        assertThat(faults.resumeAll().nodes()).containsExactly(old);
        Zk.eventually(Duration.ofSeconds(20), old + " follows", () ->
                cluster.status(old).mode() == Mode.FOLLOWER);
    }

    @Test
    void aClientCutOffPastItsSessionTimeoutExpires() throws Exception {
        start(3);
        CountDownLatch expired = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(cluster.connectString("n1"), 1000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.Expired) {
                expired.countDown();
            }
        });
        try (ZooKeeper observer = Zk.connect(cluster.connectString("n2"), Duration.ofSeconds(10))) {
            Zk.eventually(Duration.ofSeconds(10), "connected", () -> zk.getState().isConnected());
            zk.create("/owned", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            cluster.links().cutClient("n1");
            Zk.eventually(Duration.ofSeconds(5), "disconnected", () -> !zk.getState().isConnected());
            // The ensemble expires the session once its 1 s timeout passes without a heartbeat: its ephemeral goes.
            Zk.eventually(Duration.ofSeconds(10), "the ephemeral of the cut-off session is deleted", () -> {
                try {
                    return observer.exists("/owned", false) == null;
                } catch (Exception e) {
                    return false;
                }
            });
            assertThat(expired.getCount()).as("no Expired before the client could hear of it").isEqualTo(1);
            cluster.links().healClient("n1");
            assertThat(expired.await(10, TimeUnit.SECONDS)).as("client saw Expired after heal").isTrue();
        } finally {
            zk.close();
        }
    }

    @Test
    void aLatencyToxicDelaysEveryAnswerByAtLeastItsValue() throws Exception {
        start(3);
        try (ZooKeeper zk = Zk.connect(cluster.connectString("n1"), Duration.ofSeconds(10))) {
            Zk.write(zk, "/lat");
            cluster.links().clientLink("n1").addToxic(Toxic.latency("slow", Stream.DOWNSTREAM, 50, 0));
            // Lower bounds only: load can stretch a delay, never shorten it. How closely the delay matches the
            // toxic is a figure of ./zkchaos bench cluster (overhead), not a test.
            for (int i = 0; i < 10; i++) {
                long t0 = System.nanoTime();
                zk.getData("/lat", false, null);
                assertThat((System.nanoTime() - t0) / 1_000_000).as("ms for getData %d with a 50 ms latency toxic",
                        i).isGreaterThanOrEqualTo(50);
            }
            cluster.links().heal();
            assertThat(cluster.links().clientLink("n1").toxics()).isEmpty();
            assertThat(zk.getData("/lat", false, null)).as("answers flow after the heal").containsExactly(1);
        }
    }
}
