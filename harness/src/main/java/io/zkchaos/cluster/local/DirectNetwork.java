package io.zkchaos.cluster.local;

import io.zkchaos.cluster.ClusterNetwork;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Direct links (no proxy): nodes and clients reach servers at their own addresses; nothing can be cut. */
final class DirectNetwork implements ClusterNetwork, PeerRouting {

    private final List<NodeLayout> nodes;

    DirectNetwork(List<NodeLayout> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    @Override
    public String peerAddress(int from, int to) {
        return nodes.get(to - 1).address();
    }

    @Override
    public InetSocketAddress clientAddress(int id) {
        return nodes.get(id - 1).clientAddress();
    }

    @Override
    public boolean faultable() {
        return false;
    }

    private static UnsupportedOperationException direct() {
        return new UnsupportedOperationException("links are direct (ClusterConfig.proxied=false): nothing to cut");
    }

    @Override
    public void cut(String a, String b) {
        throw direct();
    }

    @Override
    public void partition(Collection<? extends Collection<String>> components) {
        throw direct();
    }

    @Override
    public void applyGrudge(Map<String, ? extends Collection<String>> grudge) {
        throw direct();
    }

    @Override
    public void cutClient(String node) {
        throw direct();
    }

    @Override
    public void healClient(String node) {
        throw direct();
    }

    @Override
    public void heal() {
        // nothing is ever cut
    }

    @Override
    public Set<Set<String>> cutPairs() {
        return Set.of();
    }
}
