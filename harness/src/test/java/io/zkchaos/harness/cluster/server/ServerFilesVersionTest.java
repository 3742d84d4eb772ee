package io.zkchaos.harness.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each zoo.cfg holds only the keys its release reads. */
class ServerFilesVersionTest {

    private static Map<String, String> cfg(String version) {
        ClusterConfig c = ClusterConfig.builder().version(version).runDirectory(Path.of("target/none")).build();
        List<NodeLayout> nodes = List.of(
                new NodeLayout("n1", 1, "127.0.0.101", 2181, 2888, 3888, Path.of("target/none/n1")),
                new NodeLayout("n2", 2, "127.0.0.102", 2181, 2888, 3888, Path.of("target/none/n2")),
                new NodeLayout("n3", 3, "127.0.0.103", 2181, 2888, 3888, Path.of("target/none/n3")));
        return ServerFiles.zooCfg(c, nodes.get(0), nodes);
    }

    @Test
    void olderReleasesGetOnlyTheKeysTheyKnow() {
        assertThat(cfg("3.4.14")).containsEntry("quorumListenOnAllIPs", "false")
                .containsKey("4lw.commands.whitelist")
                .doesNotContainKeys("standaloneEnabled", "reconfigEnabled", "admin.enableServer",
                        "multiAddress.enabled");
        assertThat(cfg("3.5.10")).containsEntry("standaloneEnabled", "false").containsEntry("reconfigEnabled", "false")
                .doesNotContainKey("multiAddress.enabled");
        assertThat(cfg("3.5.2-alpha")).doesNotContainKey("reconfigEnabled");
        assertThat(cfg("3.9.5")).containsEntry("multiAddress.enabled", "false")
                .containsEntry("server.2", "n2:2888:3888");
    }
}
