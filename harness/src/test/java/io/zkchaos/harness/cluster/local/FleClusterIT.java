package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.server.FleServers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.LogEntry;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.docker.DockerBackend;
import io.zkchaos.harness.process.ProcessMarkers;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.faults.PauseFaults;
import io.zkchaos.workloads.fle.FleNodes;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The project's own fle nodes under the local backend, exactly like ZooKeeper servers: each its own JVM with its own
 * directory, every election and quorum link through the fault proxy, killed, paused, isolated and restarted through
 * the same {@link FaultActions}, and nothing left after close.
 */
class FleClusterIT extends ProcessesUnderRuns {

    private static final Duration OP = Duration.ofSeconds(10);
    /** Elections and restarts on a loaded 2-core machine (JVM starts included). */
    private static final Duration RECOVERY = Duration.ofSeconds(60);

    private LocalCluster cluster;
    private Runnable leftoverCheck;

    private LocalCluster start() {
        cluster = LocalCluster.start(ClusterConfig.builder().system(SystemUnderTest.FLE).nodes(3)
                .runDirectory(runs.resolve("fle")).build());
        List<Long> pids = ClusterChecks.pids(cluster);
        List<InetSocketAddress> ports = cluster.proxyListenAddresses();
        leftoverCheck = () -> ClusterChecks.assertNothingLeft(cluster, pids, ports);
        return cluster;
    }

    @AfterEach
    void closeAndCheckNothingIsLeft() {
        if (cluster != null) {
            cluster.close();
            leftoverCheck.run();
        }
    }

    private FleClient client(String node) {
        return new FleClient(FleNodes.address(cluster.connectString(node)), OP);
    }

    @Test
    void threeNodesElectAndServeWithEveryPeerConnectionThroughTheProxy() throws Exception {
        start();
        assertThat(Files.readString(cluster.runDirectory().resolve("n1").resolve("node.cfg")))
                .contains("server.2=n2:").contains("myid=1");
        assertThat(ProcessMarkers.cmdline(cluster.pid("n1"))).contains(FleServers.MAIN_CLASS)
                .contains(ProcessMarkers.RUN + cluster.runId()).contains(ProcessMarkers.ROLE + "server");
        String leader = cluster.leader().orElseThrow();
        NodeStatus status = cluster.status(leader);
        assertThat(status.mode()).isEqualTo(Mode.LEADER);
        try (FleClient c = client(leader)) {
            assertThat(status.epoch()).as("the epoch srvr states is the node's own")
                    .isEqualTo(c.status().currentEpoch()).isPositive();
        }
        String follower = cluster.nodes().stream().filter(n -> !n.equals(leader)).findFirst().orElseThrow();
        // The start returns once a quorum serves: leader and one follower; this one may still be syncing.
        cluster.awaitServing(follower, RECOVERY);
        try (FleClient c = client(follower)) {
            c.put("k", "v1"); // forwarded to the leader through the proxy
            assertThat(c.get("k")).isEqualTo("v1");
        }
        ClusterChecks.assertPeersOnlyThroughProxies(cluster);
        long peerBytes = cluster.links().allLinks().stream().filter(l -> !l.name().startsWith("client"))
                .mapToLong(l -> l.stats().bytesUpstream() + l.stats().bytesDownstream()).sum();
        assertThat(peerBytes).as("bytes the peers exchanged through the proxy").isPositive();
    }

    @Test
    void aKilledLeaderIsReplacedAndRejoinsFromItsDataAfterARestart() throws Exception {
        start();
        NemesisTarget target = cluster.nemesisTarget(new Random(1));
        String first = cluster.leader().orElseThrow();
        long firstEpoch = cluster.status(first).epoch();
        try (FleClient c = client(first)) {
            c.put("before", "kill");
        }
        FaultRecord kill = new CrashFaults(target, "kill-leader").killLeader();
        assertThat(kill.nodes()).containsExactly(first);
        assertThat(cluster.state(first)).isEqualTo(NodeState.DOWN);
        await().atMost(RECOVERY).untilAsserted(() -> {
            java.util.Optional<String> next = cluster.leader();
            assertThat(next).isPresent().get().isNotEqualTo(first);
            assertThat(cluster.status(next.get()).epoch()).isGreaterThan(firstEpoch);
        });
        new CrashFaults(target, "heal").restartDown();
        cluster.awaitQuorum(RECOVERY);
        await().atMost(RECOVERY).untilAsserted(() ->
                assertThat(cluster.status(first).mode()).isEqualTo(Mode.FOLLOWER));
        try (FleClient c = client(first)) {
            assertThat(c.readLog()).extracting(LogEntry::toString).anyMatch(e -> e.contains("before"));
        }
    }

    @Test
    void anIsolatedLeaderIsReplacedByTheMajorityAndFollowsItAfterTheHeal() throws Exception {
        start();
        NemesisTarget target = cluster.nemesisTarget(new Random(2));
        String old = new NetworkFaults(target, "isolate-leader").isolateLeader().groups().get(0).get(0);
        await().atMost(RECOVERY).untilAsserted(() -> {
            assertThat(cluster.leader()).get().isNotEqualTo(old);
            assertThat(cluster.status(old).mode()).as("the isolated leader steps down").isNotEqualTo(Mode.LEADER);
        });
        String majority = cluster.leader().orElseThrow();
        try (FleClient c = client(majority)) {
            c.put("during", "isolation");
        }
        try (FleClient c = client(old)) {
            assertThatThrownBy(() -> c.put("lost", "write")).as("the isolated node serves no write")
                    .isInstanceOf(io.zkchaos.fle.client.FleException.class);
        }
        new NetworkFaults(target, "heal").heal();
        await().atMost(RECOVERY).untilAsserted(() ->
                assertThat(cluster.status(old).mode()).isEqualTo(Mode.FOLLOWER));
        try (FleClient c = client(old)) {
            assertThat(c.syncGet("during")).isEqualTo("isolation");
        }
    }

    @Test
    void aPausedLeaderIsReplacedAndFollowsOnceResumed() throws Exception {
        start();
        NemesisTarget target = cluster.nemesisTarget(new Random(3));
        String old = new PauseFaults(target, "pause-leader").pauseLeader().nodes().get(0);
        assertThat(cluster.status(old).error()).isEqualTo("paused");
        await().atMost(RECOVERY).untilAsserted(() -> assertThat(cluster.leader()).get().isNotEqualTo(old));
        new PauseFaults(target, "heal").resumeAll();
        await().atMost(RECOVERY).untilAsserted(() ->
                assertThat(cluster.status(old).mode()).isEqualTo(Mode.FOLLOWER));
    }

    @Test
    void theDockerBackendRefusesTheFleNodesNamingTheLocalOne() {
        assertThatThrownBy(() -> new DockerBackend().start(ClusterConfig.builder().system(SystemUnderTest.FLE)
                .runDirectory(runs.resolve("docker")).build()))
                .hasMessageContaining("the docker backend runs zookeeper only, not fle")
                .hasMessageContaining("it runs on --backend local");
    }
}
