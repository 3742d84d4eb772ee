package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ClusterNotReadyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** A server that cannot serve: start fails within its bound, naming the node, the expectation and its log. */
class ReadinessIT extends ProcessesUnderRuns {

    @Test
    void aServerThatDiesIsNamedWithItsExitCodeAndLog() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(1).proxied(false)
                .serverConfig("tickTime", "not-a-number") // ZooKeeper refuses this config and exits
                .startTimeout(Duration.ofSeconds(60)).runDirectory(runs.resolve("bad")).build();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> LocalCluster.start(config))
                .isInstanceOf(ClusterNotReadyException.class)
                .hasMessageContaining("no quorum served (n1 exited during start-up): expected n1 to serve standalone")
                .hasMessageContaining("n1 is DOWN, exited with code")
                .hasMessageContaining("last lines of " + runs.resolve("bad").toAbsolutePath().resolve("n1")
                        .resolve("server.log"))
                .hasMessageContaining("not-a-number");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("fails fast, not after the 60 s bound").isLessThan(Duration.ofSeconds(30));
        try (Stream<Path> pidFiles = Files.find(runs, 4, (p, a) -> p.endsWith("server.pid"))) {
            assertThat(pidFiles).isEmpty();
        }
    }
}
