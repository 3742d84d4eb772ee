package io.zkchaos.harness.cluster.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.ContainerNetwork;
import io.zkchaos.harness.cluster.Cluster;
import java.util.List;
import java.util.Map;

/** Assertions about a docker ensemble, asked of the engine. */
final class DockerChecks {

    private DockerChecks() {
    }

    /** Removes what a test made on the engine, by force, ignoring what is already gone; the images last. */
    static void removeQuietly(DockerClient client, List<String> containers, List<String> networks,
            List<String> images) {
        for (String c : containers) {
            try {
                client.removeContainerCmd(c).withForce(true).exec();
            } catch (RuntimeException ignored) {
                // already gone (reaped, or never started)
            }
        }
        for (String n : networks) {
            try {
                client.removeNetworkCmd(n).exec();
            } catch (RuntimeException ignored) {
                // already gone
            }
        }
        for (String i : images) {
            try {
                client.removeImageCmd(i).withForce(true).exec();
            } catch (RuntimeException ignored) {
                // already gone (pruned)
            }
        }
    }

    /**
     * No node can reach another node except through the proxy: each node's container is on exactly one network, and
     * the only other container on it is the Toxiproxy container.
     */
    static void assertPeersOnlyThroughProxies(Cluster c) {
        DockerCluster cluster = (DockerCluster) c;
        DockerClient client = DockerEngine.client();
        String proxyId = null;
        for (String node : cluster.nodes()) {
            InspectContainerResponse info = client.inspectContainerCmd(cluster.containerId(node)).exec();
            Map<String, ContainerNetwork> nets = info.getNetworkSettings().getNetworks();
            assertThat(nets).as("%s's networks", node).hasSize(1);
            String netId = nets.values().iterator().next().getNetworkID();
            Map<String, com.github.dockerjava.api.model.Network.ContainerNetworkConfig> members =
                    client.inspectNetworkCmd().withNetworkId(netId).exec().getContainers();
            assertThat(members).as("containers on %s's network", node).hasSize(2)
                    .containsKey(cluster.containerId(node));
            String other = members.keySet().stream().filter(id -> !id.equals(cluster.containerId(node))).findFirst()
                    .orElseThrow();
            if (proxyId == null) {
                proxyId = other;
            }
            assertThat(other).as("the other container on %s's network is the proxy", node).isEqualTo(proxyId);
            assertThat(client.inspectContainerCmd(other).exec().getConfig().getLabels())
                    .containsEntry("io.zkchaos.role", "toxiproxy");
        }
    }

    /** A check, run after close, that no container or network of the cluster's run is left on the engine. */
    static Runnable leftoverCheck(Cluster c) {
        String run = ((DockerCluster) c).runId();
        return () -> {
            DockerClient client = DockerEngine.client();
            assertThat(client.listContainersCmd().withShowAll(true)
                    .withLabelFilter(Map.of(DockerReaper.RUN, run)).exec()).as("containers of run %s", run).isEmpty();
            assertThat(client.listNetworksCmd().exec().stream()
                    .filter(n -> n.getLabels() != null && run.equals(n.getLabels().get(DockerReaper.RUN)))
                    .map(com.github.dockerjava.api.model.Network::getName).toList())
                    .as("networks of run %s", run).isEqualTo(List.of());
        };
    }
}
