package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.server.NodeLayout;
import io.zkchaos.harness.cluster.server.DirectRouting;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** Direct links (no proxy): nodes and clients reach servers at their own addresses; nothing can be cut. */
final class DirectNetwork extends DirectRouting implements LinkNetwork {

    DirectNetwork(List<NodeLayout> nodes) {
        super(nodes);
    }

    @Override
    public boolean faultable() {
        return false;
    }

    private static UnsupportedOperationException direct() {
        return new UnsupportedOperationException("links are direct (ClusterConfig.proxied=false): no fault network");
    }

    @Override
    public CutMode cutMode() {
        return CutMode.REFUSE;
    }

    @Override
    public void cutMode(CutMode mode) {
        throw direct();
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
    public SortedMap<String, SortedSet<String>> grudge() {
        SortedMap<String, SortedSet<String>> g = new TreeMap<>();
        nodes().forEach(n -> g.put(n.name(), new TreeSet<>()));
        return g;
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
    public Link clientLink(String node) {
        throw direct();
    }

    @Override
    public List<Link> peerLinks(String from, String to) {
        throw direct();
    }

    @Override
    public List<Link> allLinks() {
        return List.of();
    }
}
