package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.docker.DockerBackend;
import io.zkchaos.harness.cluster.docker.DockerCluster;
import io.zkchaos.harness.cluster.local.LocalBackend;
import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.harness.cluster.ssh.SshBackend;
import io.zkchaos.harness.cluster.ssh.SshCluster;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * The capabilities that follow from a cluster's optional controls ({@link Capability#following}) and what each backend
 * adds for its system: the same sets the backends declared by hand before the controls were interfaces.
 */
class CapabilityControlsTest {

    @Test
    void aClusterTypeHasTheCapabilitiesOfTheControlsItImplements() {
        assertThat(Capability.following(LocalCluster.class))
                .containsExactlyInAnyOrder(Capability.CLOCKS, Capability.LAZY_FS, Capability.EMPTIES_DATA);
        assertThat(Capability.following(SshCluster.class))
                .containsExactlyInAnyOrder(Capability.CLOCKS, Capability.EMPTIES_DATA);
        assertThat(Capability.following(DockerCluster.class)).isEmpty();
        assertThat(Capability.following(Cluster.class)).isEmpty();
    }

    @Test
    void eachBackendCanDoWhatItDidForEachSystem() {
        assertThat(new LocalBackend().capabilities(SystemUnderTest.ZOOKEEPER)).isEqualTo(EnumSet.of(Capability.RUNS,
                Capability.LAZY_FS, Capability.PROTOCOL_TAPS, Capability.LINK_DELAY, Capability.EMPTIES_DATA,
                Capability.CLOCKS));
        assertThat(new LocalBackend().capabilities(SystemUnderTest.FLE)).isEqualTo(EnumSet.of(Capability.RUNS,
                Capability.LAZY_FS, Capability.LINK_DELAY, Capability.CLOCKS));
        assertThat(new SshBackend().capabilities(SystemUnderTest.ZOOKEEPER)).isEqualTo(EnumSet.of(Capability.RUNS,
                Capability.CLOCKS, Capability.EMPTIES_DATA));
        assertThat(new SshBackend().capabilities(SystemUnderTest.FLE)).isEqualTo(EnumSet.of(Capability.RUNS,
                Capability.CLOCKS));
        assertThat(new DockerBackend().capabilities(SystemUnderTest.ZOOKEEPER)).isEqualTo(EnumSet.of(Capability.RUNS,
                Capability.LINK_DELAY));
        assertThat(new DockerBackend().capabilities(SystemUnderTest.FLE)).isEmpty();
    }
}
