package io.zkchaos.harness.cluster.server;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Peers and clients reach every server at its own address, with nothing between: the local backend's direct links,
 * and the ssh backend, whose links are the hosts' own firewall rules.
 */
public class DirectRouting implements PeerRouting {

    private final List<NodeLayout> nodes;

    /** @param nodes every node, in id order */
    public DirectRouting(List<NodeLayout> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Every node, in id order. */
    protected final List<NodeLayout> nodes() {
        return nodes;
    }

    @Override
    public String peerAddress(int from, int to) {
        return nodes.get(to - 1).address();
    }

    @Override
    public InetSocketAddress clientAddress(int id) {
        return nodes.get(id - 1).clientAddress();
    }
}
