package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.server.NodeLayout;
import io.zkchaos.harness.cluster.server.PeerRouting;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Network;
import io.zkchaos.nemesis.net.NodeLinks;
import io.zkchaos.nemesis.proxy.ProxyLink;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every link of a local ensemble through the fault proxy. Node i reaches node j through the links
 * {@code ni-nj-quorum} and {@code ni-nj-election}, which listen on the address {@link Addresses#link(int, int)}
 * with j's own port numbers and forward to j; clients reach node i through {@code client-ni}, which listens on a
 * free port of i's address (found beforehand with the servers' ports, so the two can never collide). Faults on
 * these links are applied by {@link NodeLinks}, the one enforcement path of every backend.
 */
final class ProxyNetwork implements PeerRouting, AutoCloseable {

    private final Addresses addresses;
    private final NodeLinks links;

    /**
     * Creates every link on {@code proxy}, which this network then owns and closes.
     *
     * @param clientProxyPorts per node (in order), the free port of the node's address its client link listens on
     */
    ProxyNetwork(Network proxy, List<NodeLayout> nodes, Addresses addresses, List<Integer> clientProxyPorts) {
        this.addresses = addresses;
        Map<String, Link> clientLinks = new LinkedHashMap<>();
        Map<String, List<Link>> peerLinks = new LinkedHashMap<>();
        try {
            for (NodeLayout to : nodes) {
                Link client = proxy.createLink("client-" + to.name(),
                        new InetSocketAddress(to.address(), clientProxyPorts.get(to.id() - 1)), to.clientAddress());
                if (client instanceof ProxyLink p) {
                    // A ZooKeeper client takes a closed connection like a refusal and tries its next server, so
                    // holding it while a down server's port refuses would only slow it. Peer links keep the hold:
                    // a follower connecting to a leader that binds its quorum port a moment later must get in.
                    p.upstreamRetry(Duration.ZERO);
                }
                clientLinks.put(to.name(), client);
                for (NodeLayout from : nodes) {
                    if (from.id() == to.id()) {
                        continue;
                    }
                    String listen = addresses.link(from.id(), to.id());
                    String prefix = from.name() + "-" + to.name();
                    Link q = proxy.createLink(prefix + "-quorum",
                            new InetSocketAddress(listen, to.quorumPort()), to.quorumAddress());
                    Link e = proxy.createLink(prefix + "-election",
                            new InetSocketAddress(listen, to.electionPort()), to.electionAddress());
                    peerLinks.put(NodeLinks.pair(from.name(), to.name()), List.of(q, e));
                }
            }
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        this.links = new NodeLinks(proxy, nodes.stream().map(NodeLayout::name).toList(), clientLinks, peerLinks);
    }

    /** The fault network over these links. */
    NodeLinks links() {
        return links;
    }

    @Override
    public String peerAddress(int from, int to) {
        return addresses.link(from, to);
    }

    @Override
    public InetSocketAddress clientAddress(int id) {
        return links.clientLink("n" + id).listenAddress();
    }

    /** Every listen address of every link, e.g. to check that none is left bound after close. */
    List<InetSocketAddress> listenAddresses() {
        return links.allLinks().stream().map(Link::listenAddress).toList();
    }

    @Override
    public void close() {
        links.close();
    }
}
