package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.Json;
import io.zkchaos.nemesis.Fault;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a run on hosts may ask: refused at config, naming what the ssh backend lacks and why; no host is contacted. */
class SshBackendTest {

    private static final SshSettings HOSTS = SshSettings.of(List.of(new SshHost("db-1", null, null, null),
            new SshHost("db-2", null, null, null), new SshHost("db-3", null, null, null)));

    private static RunConfig.Builder onHosts() {
        return RunConfig.builder().backend(new SshBackend(HOSTS)).nodes(3).workload("set");
    }

    @Test
    void faultsAHostCannotMakeAreRefusedNamingTheMissingPartAndMixedGoesWithoutThem() {
        assertThatThrownBy(() -> onHosts().nemesis("slow-network").build())
                .hasMessageContaining("the ssh backend running zookeeper cannot do 'slow-network'")
                .hasMessageContaining("delays the data of its links")
                .hasMessageContaining("what the clients send leaves the harness's own machine");
        assertThatThrownBy(() -> onHosts().nemesis("cut-during-sync").build())
                .hasMessageContaining("taps the quorum links").hasMessageContaining("no proxy sees the quorum's bytes");
        assertThatThrownBy(() -> onHosts().nemesis("kill-lose-unfsynced").build())
                .hasMessageContaining("lazyfs: the ssh backend cannot put the data directories on the lazy file "
                        + "system (the servers keep their data on the hosts' own file systems)");

        List<String> mixed = onHosts().nemesis("mixed").build().nemesisDescriptor().faults().stream()
                .map(Fault::name).toList();
        assertThat(mixed).contains("kill-leader", "pause-leader", "halves", "majorities-ring", "client-partition")
                .doesNotContain("slow-network", "cut-during-sync", "stall-during-snapshot", "kill-lose-unfsynced");
        assertThat(onHosts().nemesis("halves").build().saved().cluster().hosts()).containsExactly("db-1", "db-2",
                "db-3");
    }

    @Test
    void clockFaultsAndTheReplacedDiskRunOnHostsAndOnlyZooKeepersDataIsEmptied() {
        assertThat(onHosts().nemesis("clock-skew").build().clusterConfig(java.nio.file.Path.of("/tmp/zkc-nodes"))
                .clocks()).as("the servers start with libfaketime preloaded").isTrue();
        assertThat(onHosts().nemesis("replace-disk").build().nemesisDescriptor().faults()).extracting(Fault::name)
                .containsExactly("replace-disk");
        assertThat(onHosts().nemesis("mixed").build().nemesisDescriptor().faults()).extracting(Fault::name)
                .contains("clock-skew", "clock-bump", "clock-strobe", "replace-disk");
        assertThatThrownBy(() -> onHosts().system("fle").nemesis("replace-disk").build())
                .hasMessageContaining("empties a server's data directory")
                .hasMessageContaining("only ZooKeeper servers' data directories are emptied");
    }

    @Test
    void hostsGoWithTheSshBackendOnlyAndNameEnoughOfThem() {
        assertThatThrownBy(() -> RunConfig.builder().backend(SshBackend.NAME).build())
                .hasMessageContaining("hosts: --backend ssh runs on the hosts of a hosts file: --hosts FILE");
        assertThatThrownBy(() -> ClusterBackends.named("local", HOSTS))
                .hasMessageContaining("hosts: only the ssh backend runs on hosts");
        assertThatThrownBy(() -> onHosts().nodes(5).build()).hasMessageContaining("nodes: 5 nodes need 5 hosts; "
                + "the hosts file names 3");
        assertThatThrownBy(() -> new SshBackend().start(null)).hasMessageContaining("needs its hosts");
    }

    @Test
    void theSshChoiceIsAValueOfItsHostsAndConfigJsonKeepsItsNameAndTheHostsNames() {
        assertThat(ClusterBackends.named("ssh", HOSTS)).isEqualTo(new SshBackend(HOSTS)).isNotEqualTo(new SshBackend());
        assertThat(ClusterBackends.named("docker", null)).isSameAs(ClusterBackends.require("docker"));
        assertThat(new SshBackend(HOSTS).hostNames(2)).containsExactly("db-1", "db-2");
        assertThat(ClusterBackends.require("local").hostNames(3)).isEmpty();
        RunConfig c = onHosts().nemesis("halves").build();
        JsonNode own = Json.MAPPER.valueToTree(c.cluster());
        assertThat(own).as("the part's own JSON is what config.json saves").isEqualTo(
                Json.MAPPER.valueToTree(c.saved().cluster()));
        assertThat(own.path("backend").asText()).isEqualTo("ssh");
        assertThat(own.path("hosts")).extracting(JsonNode::asText).containsExactly("db-1", "db-2", "db-3");
    }
}
