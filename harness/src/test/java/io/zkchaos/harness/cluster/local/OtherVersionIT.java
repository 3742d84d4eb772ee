package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.zookeeper.ServerClasspath;
import io.zkchaos.harness.cluster.zookeeper.VersionResolutionException;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The version under test is a setting: a 3.8 server resolved from Maven Central runs; a missing one is named. */
class OtherVersionIT extends ProcessesUnderRuns {

    @Test
    void runsA38Server() throws Exception {
        ServerClasspath cp = ZooKeeperResolver.fromEnvironment().resolve("3.8.4");
        assertThat(cp.jars().get(0).getFileName().toString()).isEqualTo("zookeeper-3.8.4.jar");
        assertThat(cp.jars()).anyMatch(p -> p.getFileName().toString().startsWith("metrics-core"))
                .anyMatch(p -> p.getFileName().toString().startsWith("logback-classic"))
                .anyMatch(p -> p.getFileName().toString().startsWith("snappy-java"));

        ClusterConfig config = ClusterConfig.builder().nodes(1).version("3.8.4").proxied(false)
                .runDirectory(runs.resolve("v38")).build();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            String[] hostPort = cluster.connectString("n1").split(":");
            String srvr = FourLetterWords.ask(new java.net.InetSocketAddress(hostPort[0],
                    Integer.parseInt(hostPort[1])), "srvr", Duration.ofSeconds(2));
            assertThat(srvr).contains("Zookeeper version: 3.8.4").contains("Mode: standalone");
        }
    }

    @Test
    void aVersionCentralDoesNotServeFailsNamingIt() {
        assertThatThrownBy(() -> ZooKeeperResolver.fromEnvironment().resolve("3.99.0"))
                .isInstanceOf(VersionResolutionException.class)
                .hasMessageContaining("ZooKeeper version '3.99.0' cannot be resolved");
    }
}
