package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterConfig;
import java.nio.file.Path;

/**
 * The default backend: every server its own JVM process on a loopback address of this machine, every link through
 * the embedded fault proxy. Needs no Docker and no root.
 */
public final class LocalBackend implements ClusterBackend {

    @Override
    public String name() {
        return "local";
    }

    @Override
    public String description() {
        return "one JVM process per server on 127.0.0.x, every link through the embedded fault proxy";
    }

    @Override
    public Cluster start(ClusterConfig config) {
        return LocalCluster.start(config);
    }

    /** Ends the processes and lazy file systems of dead harnesses ({@link LocalCluster#reapLeftovers}). */
    @Override
    public void reapLeftovers(Path storeRoot) {
        LocalCluster.reapLeftovers(storeRoot);
    }
}
