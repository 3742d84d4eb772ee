package io.zkchaos.harness.cluster.docker;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ProxiedClusterContract;
import io.zkchaos.harness.testing.Prerequisites;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scenarios every backend must pass ({@link ProxiedClusterContract}), on ZooKeeper containers behind a Toxiproxy
 * container; skipped, saying why, where no Docker engine can be used. Seven ensembles, each started afresh: it runs
 * with the chaos suite ({@code mvn -Pchaos verify}); {@code mvn verify} runs {@link DockerClusterIT}, which covers
 * the docker-specific parts on one ensemble.
 */
class DockerProxiedClusterChaosIT extends ProxiedClusterContract {

    @RegisterExtension
    static final ExecutionCondition DOCKER = Prerequisites.forClass("docker", DockerEngine::unavailable);

    @Override
    protected Cluster startCluster(ClusterConfig config) {
        return DockerCluster.start(config);
    }

    @Override
    protected void assertPeersOnlyThroughProxies(Cluster c) {
        DockerChecks.assertPeersOnlyThroughProxies(c);
    }

    @Override
    protected Runnable leftoverCheck(Cluster c) {
        return DockerChecks.leftoverCheck(c);
    }
}
