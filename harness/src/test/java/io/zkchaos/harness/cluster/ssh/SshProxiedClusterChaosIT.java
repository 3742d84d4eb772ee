package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ProxiedClusterContract;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scenarios every backend must pass ({@link ProxiedClusterContract}) on five namespace hosts
 * ({@link NamespaceHosts}), each link a pair of iptables rules on the hosts. Where this machine's kernel has no
 * {@code tc netem}, the latency scenario checks that the host refuses it, naming itself.
 */
class SshProxiedClusterChaosIT extends ProxiedClusterContract {

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

    @Override
    protected Optional<String> latencyRefusal(Cluster c) {
        return NamespaceHosts.kernelLacks("netem", "delay 1ms").map(why -> "tc netem on n1 (h1, " + HOSTS.hosts().address(1)
                + ")");
    }
}
