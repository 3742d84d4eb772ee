package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.PartitionShapesContract;
import io.zkchaos.harness.testing.RunsAlone;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every partition shape on five namespace hosts ({@link PartitionShapesContract}): the links match each grudge, and
 * the hosts' iptables hold exactly the rules the links ask for.
 */
@RunsAlone
class SshPartitionShapesIT extends PartitionShapesContract {

    @RegisterExtension
    static final HostsFixture HOSTS = new HostsFixture(5);

    @Override
    protected Cluster startCluster(ClusterConfig config) {
        return SshCluster.start(config, HOSTS.hosts().settings());
    }

    @Override
    protected void assertPeersOnlyThroughProxies(Cluster c) {
        SshChecks.assertPeersOnlyThroughHostRules((SshCluster) c, HOSTS.hosts());
    }

    @Override
    protected Runnable leftoverCheck(Cluster c) {
        return SshChecks.leftoverCheck(c, HOSTS.hosts());
    }

    /** The links answer from what they set; the hosts' iptables must hold exactly that. */
    @Override
    protected void assertProxyAgrees(Cluster c) {
        assertThat(((SshCluster) c).firewallDivergences()).as("the hosts' rules vs the links'").isEmpty();
    }
}
