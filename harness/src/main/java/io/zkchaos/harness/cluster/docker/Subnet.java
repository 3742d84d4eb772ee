package io.zkchaos.harness.cluster.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.testcontainers.containers.Network;

/**
 * A Testcontainers {@link Network} with a subnet of its own, so that containers get fixed addresses on it: a
 * ZooKeeper container keeps its address when it is killed and started again, as a local server keeps its loopback
 * address (Docker hands out addresses in turn, so a restarted container would otherwise get a new one, and the
 * proxy's links would point at nothing). The subnet is the one the engine itself picks for a new network (it knows
 * which ranges are free on its machine, remote or not): a probe network is created and removed, then the network is
 * created with that subnet.
 *
 * @param network the Testcontainers network (created)
 * @param name    its name
 * @param base    the subnet's network address, e.g. 172.19.0.0
 * @param prefix  the subnet's prefix length
 */
record Subnet(Network network, String name, String base, int prefix) {

    /** The {@code k}-th host address of the subnet (1 is the gateway). */
    String host(int k) {
        String[] p = base.split("\\.");
        long a = (Long.parseLong(p[0]) << 24) | (Long.parseLong(p[1]) << 16) | (Long.parseLong(p[2]) << 8)
                | Long.parseLong(p[3]);
        a += k;
        return ((a >> 24) & 0xff) + "." + ((a >> 16) & 0xff) + "." + ((a >> 8) & 0xff) + "." + (a & 0xff);
    }

    /**
     * Creates a labelled network named {@code name} with a subnet of its own.
     *
     * @throws DockerUnavailableException when the engine gives no subnet after three tries
     */
    static Subnet create(DockerClient client, String name, Map<String, String> labels) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            String probe = client.createNetworkCmd().withName(name + "-probe").withLabels(labels)
                    .withCheckDuplicate(true).exec().getId();
            com.github.dockerjava.api.model.Network.Ipam.Config config;
            try {
                List<com.github.dockerjava.api.model.Network.Ipam.Config> configs = client.inspectNetworkCmd()
                        .withNetworkId(probe).exec().getIpam().getConfig();
                config = configs.stream().filter(c -> c.getSubnet() != null && c.getSubnet().contains("."))
                        .findFirst().orElseThrow(() -> new DockerUnavailableException("the engine gave network "
                                + name + " no IPv4 subnet"));
            } finally {
                client.removeNetworkCmd(probe).exec();
            }
            String subnet = config.getSubnet();
            String gateway = config.getGateway();
            Map<String, String> all = new HashMap<>(labels);
            Network network = Network.builder().createNetworkCmdModifier(cmd -> {
                com.github.dockerjava.api.model.Network.Ipam.Config c =
                        new com.github.dockerjava.api.model.Network.Ipam.Config().withSubnet(subnet);
                if (gateway != null) {
                    c.withGateway(gateway);
                }
                cmd.withName(name).withLabels(all)
                        .withIpam(new com.github.dockerjava.api.model.Network.Ipam().withConfig(c));
            }).build();
            try {
                network.getId();
                int slash = subnet.indexOf('/');
                return new Subnet(network, name, subnet.substring(0, slash),
                        Integer.parseInt(subnet.substring(slash + 1)));
            } catch (DockerException e) {
                last = e; // another network took the subnet meanwhile: ask again
            }
        }
        throw new DockerUnavailableException("cannot create network " + name + " with a subnet of its own: "
                + last.getMessage(), last);
    }
}
