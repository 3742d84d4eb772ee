package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.PartitionShapesContract;
import java.net.InetSocketAddress;
import java.util.List;

/** Every partition shape on a real local 5-node ensemble ({@link PartitionShapesContract}). */
class PartitionShapesIT extends PartitionShapesContract {

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
        List<Long> pids = ClusterChecks.pids(local);
        List<InetSocketAddress> ports = local.proxyListenAddresses();
        return () -> ClusterChecks.assertNothingLeft(local, pids, ports);
    }
}
