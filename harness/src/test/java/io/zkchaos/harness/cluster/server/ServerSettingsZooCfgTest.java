package io.zkchaos.harness.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed server settings reach zoo.cfg through the one renderer, before the extra settings that may override. */
class ServerSettingsZooCfgTest {

    private static final NodeLayout N1 = new NodeLayout("n1", 1, "127.0.0.101", 2181, 2888, 3888, Path.of("/tmp/n1"));

    @Test
    void forceSyncAndSnapCountAreWrittenOnlyWhenTheyDifferFromZooKeepersOwn() {
        Map<String, String> plain = ServerFiles.zooCfg(ClusterConfig.builder().nodes(1).build(), N1, List.of(N1), true);
        assertThat(plain).doesNotContainKeys("forceSync", "snapCount");

        Map<String, String> set = ServerFiles.zooCfg(ClusterConfig.builder().nodes(1)
                .server(new ServerSettings(false, 100)).build(), N1, List.of(N1), true);
        assertThat(set).containsEntry("forceSync", "no").containsEntry("snapCount", "100");

        Map<String, String> overridden = ServerFiles.zooCfg(ClusterConfig.builder().nodes(1)
                .server(new ServerSettings(true, 100)).serverConfig("snapCount", "7").build(), N1, List.of(N1), true);
        assertThat(overridden).as("extra settings come last").containsEntry("snapCount", "7");

        assertThatThrownBy(() -> new ServerSettings(true, 1)).hasMessageStartingWith("snap-count must be at least 2");
    }
}
