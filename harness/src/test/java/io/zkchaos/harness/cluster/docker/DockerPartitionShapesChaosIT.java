package io.zkchaos.harness.cluster.docker;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.PartitionShapesContract;
import io.zkchaos.harness.testing.Prerequisites;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every partition shape on a docker 5-node ensemble ({@link PartitionShapesContract}); skipped without Docker. */
class DockerPartitionShapesChaosIT extends PartitionShapesContract {

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

    /** The links answer from what they set; Toxiproxy itself must hold exactly that. */
    @Override
    protected void assertProxyAgrees(Cluster c) {
        assertThat(((DockerCluster) c).toxiproxy().divergences()).as("Toxiproxy's state vs the links'").isEmpty();
    }
}
