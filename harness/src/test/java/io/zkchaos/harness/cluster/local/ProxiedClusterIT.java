package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ProxiedClusterContract;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real local ensembles with every link through the embedded fault proxy: the scenarios every backend must pass
 * ({@link ProxiedClusterContract}), plus what only the local backend can show (the proxy's byte counters, the
 * servers' sockets in /proc).
 */
class ProxiedClusterIT extends ProxiedClusterContract {

    @Override
    protected Cluster startCluster(ClusterConfig config) {
        return LocalCluster.start(config);
    }

    @Override
    protected void assertPeersOnlyThroughProxies(Cluster c) throws Exception {
        ClusterChecks.assertPeersOnlyThroughProxies((LocalCluster) c);
    }

    @Override
    protected Runnable leftoverCheck(Cluster c) {
        LocalCluster local = (LocalCluster) c;
        List<Long> pids = ClusterChecks.pids(local).stream().filter(p -> p > 0).toList();
        List<InetSocketAddress> ports = local.proxyListenAddresses();
        assertThat(ports).isNotEmpty();
        return () -> ClusterChecks.assertNothingLeft(local, pids, ports);
    }

    @Test
    void peersExchangeBytesThroughTheProxyAndClientsNeverReachAServerDirectly() throws Exception {
        LocalCluster local = (LocalCluster) start(3);
        assertThat(local.connectString()).doesNotContain(":" + local.layouts().get(0).clientPort());
        long peerBytes = local.links().allLinks().stream().filter(l -> !l.name().startsWith("client"))
                .mapToLong(l -> l.stats().bytesUpstream() + l.stats().bytesDownstream()).sum();
        assertThat(peerBytes).as("bytes the peers exchanged through the proxy").isPositive();
    }
}
