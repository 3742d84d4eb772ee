package io.zkchaos.harness.cluster.docker;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DockerSmokeIT {
    @TempDir
    Path runs;

    @BeforeAll
    static void docker() {
        DockerAvailable.assume();
    }

    @Test
    void threeNodesServe() {
        try (DockerCluster c = DockerCluster.start(ClusterConfig.builder().nodes(3).runDirectory(runs.resolve("c"))
                .build())) {
            System.out.println(c.summary());
            System.out.println("leader " + c.leader() + " connect " + c.connectString());
            assertThat(c.leader()).isPresent();
        }
    }
}
