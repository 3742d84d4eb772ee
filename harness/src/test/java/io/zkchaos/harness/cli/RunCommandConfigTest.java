package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ZooKeeperVersion;
import io.zkchaos.harness.cluster.ssh.SshBackend;
import io.zkchaos.harness.run.config.RunConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run command's flags become the typed configuration in one place: the version and the backend choice. */
class RunCommandConfigTest {

    private static RunConfig config(String... args) {
        List<String> all = new ArrayList<>(List.of("--workload", "set", "--nemesis", "kill-leader"));
        all.addAll(List.of(args));
        return RunCommand.configOf(all);
    }

    @Test
    void theVersionIsTypedAndTextThatIsNoVersionIsRefusedNamingTheOption() {
        assertThat(config("--zookeeper", "3.8.6").cluster().zookeeper()).isEqualTo(ZooKeeperVersion.of("3.8.6"));
        assertThat(config().cluster().zookeeper()).isEqualTo(ZooKeeperVersion.DEFAULT);
        assertThatThrownBy(() -> config("--zookeeper", "trunk")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("zookeeper: must be a ZooKeeper version such as 3.9.5")
                .hasMessageEndingWith("got 'trunk'");
    }

    @Test
    void theBackendIsTypedAndTheSshOneCarriesTheHostsOfTheHostsFile(@TempDir Path tmp) throws Exception {
        assertThat(config().cluster().backend()).isSameAs(ClusterBackends.require("local"));
        assertThat(config("--backend", "docker").cluster().backend()).isSameAs(ClusterBackends.require("docker"));
        Path hosts = Files.writeString(tmp.resolve("hosts"), "db-1\ndb-2\ndb-3\ndb-4\n");

        RunConfig onHosts = config("--backend", "ssh", "--hosts", hosts.toString());
        assertThat(onHosts.cluster().backend()).isInstanceOf(SshBackend.class);
        assertThat(((SshBackend) onHosts.cluster().backend()).settings().hosts()).hasSize(4);
        assertThat(onHosts.cluster().hostNames()).as("one a node, in node order").containsExactly("db-1", "db-2",
                "db-3");
        assertThat(onHosts.saved().cluster().backend()).isEqualTo("ssh");
        assertThat(onHosts.saved().cluster().hosts()).containsExactly("db-1", "db-2", "db-3");

        assertThatThrownBy(() -> config("--backend", "ssh")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("hosts: --backend ssh runs on the hosts of a hosts file");
        assertThatThrownBy(() -> config("--hosts", hosts.toString())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hosts: only the ssh backend runs on hosts (--backend ssh); backend is local");
        assertThatThrownBy(() -> config("--backend", "ssh", "--hosts", hosts.toString(), "--nodes", "5"))
                .hasMessage("nodes: 5 nodes need 5 hosts; the hosts file names 4");
        assertThatThrownBy(() -> config("--backend", "nomad")).hasMessageStartingWith("unknown backend 'nomad'");
    }
}
