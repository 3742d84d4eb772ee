package io.zkchaos.harness.cluster.local;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.nemesis.frame.FrameTaps;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One release of every minor line the harness claims (3.4 to 3.9, resolved from Maven Central) starts as a proxied
 * 3-node ensemble and serves: a write through the ensemble is read from every server's own port, each server reports
 * its version, and the quorum taps decoded every stream of that release (a follower's sync included). Narrow or
 * widen it with {@code -Dzkchaos.versions=3.4.14,3.5.7,...}.
 */
class VersionMatrixIT extends ProcessesUnderRuns {

    /** One release per minor line, the last of each on Maven Central (3.9: the default). */
    static final List<String> CLAIMED = List.of("3.4.14", "3.5.10", "3.6.4", "3.7.2", "3.8.4", "3.9.5");

    static Stream<String> versions() {
        String v = System.getProperty("zkchaos.versions", "").trim();
        return v.isEmpty() ? CLAIMED.stream() : Arrays.stream(v.split(",")).map(String::trim);
    }

    @ParameterizedTest(name = "ZooKeeper {0}")
    @MethodSource("versions")
    void aThreeNodeEnsembleStartsAndServes(String version) throws Exception {
        try (LocalCluster cluster = LocalCluster.start(ClusterConfig.builder().nodes(3).version(version)
                .runDirectory(runs.resolve(version)).build())) {
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                assertThat(Zk.write(zk, "/written")).isTrue();
            }
            for (String n : cluster.nodes()) {
                String[] hp = cluster.directConnectString(n).split(":");
                String srvr = FourLetterWords.ask(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), "srvr",
                        Duration.ofSeconds(2));
                assertThat(srvr).contains("Zookeeper version: " + version);
                try (ZooKeeper zk = Zk.connect(cluster.directConnectString(n), Duration.ofSeconds(10))) {
                    zk.sync("/", (rc, path, ctx) -> { }, null);
                    await(n + " holds /written").atMost(Duration.ofSeconds(10)).until(() -> {
                        try {
                            return zk.exists("/written", false) != null;
                        } catch (Exception e) {
                            return false;
                        }
                    });
                }
            }
            FrameTaps taps = cluster.frames().orElseThrow();
            assertThat(taps.decodingErrors()).isEqualTo("none");
            assertThat(taps.counts().keySet()).as("quorum packets decoded from %s", version)
                    .contains("FOLLOWERINFO", "LEADERINFO", "ACKEPOCH", "NEWLEADER", "UPTODATE", "PROPOSAL",
                            "COMMIT", "ACK")
                    .containsAnyElementsOf(Set.of("DIFF", "SNAP", "TRUNC"));
        }
    }
}
