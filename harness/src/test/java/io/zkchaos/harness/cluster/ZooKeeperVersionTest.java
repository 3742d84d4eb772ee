package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.Json;
import org.junit.jupiter.api.Test;

/** The version's one check and one default, where each input takes a version in (builder, CLI, JSON). */
class ZooKeeperVersionTest {

    @Test
    void textThatIsNoVersionIsRefusedNamingTheFieldAndTheText() {
        assertThatThrownBy(() -> ZooKeeperVersion.of("master")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("version: must be a ZooKeeper version such as 3.9.5 (X.Y.Z, optionally -qualifier), "
                        + "got 'master'");
        assertThatThrownBy(() -> ZooKeeperVersion.of("zookeeper", null)).hasMessageStartingWith("zookeeper: ")
                .hasMessageEndingWith("got null");
        assertThatThrownBy(() -> RunConfig.builder().zookeeper("3.9")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("zookeeper: must be a ZooKeeper version").hasMessageEndingWith("got '3.9'");
        assertThatThrownBy(() -> ClusterConfig.builder().version("latest")).hasMessageStartingWith("version: ")
                .hasMessageContaining("'latest'");
    }

    @Test
    void theDefaultIsOneReleaseAndEveryDefaultNamesIt() {
        assertThat(ZooKeeperVersion.DEFAULT).isEqualTo(ZooKeeperVersion.of("3.9.5"));
        assertThat(ClusterConfig.builder().build().version()).isEqualTo(ZooKeeperVersion.DEFAULT);
        assertThat(RunConfig.builder().build().cluster().zookeeper()).isEqualTo(ZooKeeperVersion.DEFAULT);
    }

    @Test
    void versionsTheTestsAndTheHuntUseParseAndKeepTheirText() {
        for (String text : new String[] {"3.4.6", "3.4.14", "3.5.3-beta", "3.5.10", "3.7.99", "3.99.0", "3.9.5"}) {
            ZooKeeperVersion v = ZooKeeperVersion.of(text);
            assertThat(v.text()).isEqualTo(text);
            assertThat(v.toString()).isEqualTo(text);
        }
        assertThat(ZooKeeperVersion.of(" 3.8.4 ").text()).as("trimmed").isEqualTo("3.8.4");
        assertThat(ZooKeeperVersion.of("3.5.3-beta").atLeast(3, 5, 3)).isTrue();
    }

    @Test
    void jsonWritesAndReadsTheTextAlone() throws Exception {
        assertThat(Json.MAPPER.writeValueAsString(ZooKeeperVersion.of("3.8.6"))).isEqualTo("\"3.8.6\"");
        assertThat(Json.MAPPER.readValue("\"3.5.10\"", ZooKeeperVersion.class))
                .isEqualTo(ZooKeeperVersion.of("3.5.10"));
        assertThatThrownBy(() -> Json.MAPPER.readValue("\"three\"", ZooKeeperVersion.class))
                .hasMessageContaining("must be a ZooKeeper version").hasMessageContaining("'three'");
    }
}
