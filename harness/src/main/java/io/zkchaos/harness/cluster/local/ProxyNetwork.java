package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.ClusterNetwork;
import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Network;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.nemesis.proxy.ProxyLink;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every link of a local ensemble through the fault proxy. Node i reaches node j through the links
 * {@code ni-nj-quorum} and {@code ni-nj-election}, which listen on the address {@link Addresses#link(int, int)}
 * with j's own port numbers and forward to j; clients reach node i through {@code client-ni}, which listens on a
 * free port of i's address (found beforehand with the servers' ports, so the two can never collide).
 */
final class ProxyNetwork implements ClusterNetwork, PeerRouting, AutoCloseable {

    private final Network proxy;
    private final List<NodeLayout> nodes;
    private final Addresses addresses;
    private final Map<String, Link> clientLinks = new LinkedHashMap<>();
    private final Map<String, List<Link>> peerLinks = new LinkedHashMap<>();
    private SortedMap<String, SortedSet<String>> grudge;
    private CutMode cutMode = CutMode.REFUSE;

    /**
     * Creates every link on {@code proxy}, which this network then owns and closes.
     *
     * @param clientProxyPorts per node (in order), the free port of the node's address its client link listens on
     */
    ProxyNetwork(Network proxy, List<NodeLayout> nodes, Addresses addresses, List<Integer> clientProxyPorts) {
        this.proxy = proxy;
        this.nodes = List.copyOf(nodes);
        this.addresses = addresses;
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
                    peerLinks.put(key(from.name(), to.name()), List.of(q, e));
                }
            }
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        this.grudge = emptyGrudge();
    }

    private static String key(String from, String to) {
        return from + "->" + to;
    }

    @Override
    public String peerAddress(int from, int to) {
        return addresses.link(from, to);
    }

    @Override
    public InetSocketAddress clientAddress(int id) {
        return clientLinks.get("n" + id).listenAddress();
    }

    @Override
    public boolean faultable() {
        return true;
    }

    @Override
    public synchronized CutMode cutMode() {
        return cutMode;
    }

    @Override
    public synchronized void cutMode(CutMode mode) {
        this.cutMode = Objects.requireNonNull(mode, "mode");
    }

    @Override
    public synchronized void cut(String a, String b) {
        Map<String, Set<String>> g = new TreeMap<>();
        grudge.forEach((k, v) -> g.put(k, new TreeSet<>(v)));
        requireNode(a);
        requireNode(b);
        if (a.equals(b)) {
            throw new IllegalArgumentException("cannot cut node '" + a + "' from itself");
        }
        g.get(a).add(b);
        g.get(b).add(a);
        applyGrudge(g);
    }

    @Override
    public synchronized void partition(Collection<? extends Collection<String>> components) {
        Map<String, Integer> componentOf = new TreeMap<>();
        int c = 0;
        for (Collection<String> component : components) {
            for (String n : component) {
                requireNode(n);
                if (componentOf.put(n, c) != null) {
                    throw new IllegalArgumentException("node '" + n + "' is named in more than one component of "
                            + components);
                }
            }
            c++;
        }
        for (NodeLayout n : nodes) {
            componentOf.putIfAbsent(n.name(), c); // the rest: one more component
        }
        Map<String, Set<String>> g = new TreeMap<>();
        for (NodeLayout to : nodes) {
            Set<String> notHeard = new TreeSet<>();
            for (NodeLayout from : nodes) {
                if (!componentOf.get(from.name()).equals(componentOf.get(to.name()))) {
                    notHeard.add(from.name());
                }
            }
            g.put(to.name(), notHeard);
        }
        applyGrudge(g);
    }

    @Override
    public synchronized void applyGrudge(Map<String, ? extends Collection<String>> newGrudge) {
        SortedMap<String, SortedSet<String>> g = emptyGrudge();
        newGrudge.forEach((to, froms) -> {
            requireNode(to);
            for (String from : froms) {
                requireNode(from);
                if (from.equals(to)) {
                    throw new IllegalArgumentException("node '" + to + "' cannot hold a grudge against itself");
                }
                g.get(to).add(from);
            }
        });
        // Cut first, then heal, so that no moment joins what both the old and the new partition separate.
        List<Runnable> heals = new ArrayList<>();
        for (NodeLayout from : nodes) {
            for (NodeLayout to : nodes) {
                if (from.id() == to.id()) {
                    continue;
                }
                boolean up = g.get(to.name()).contains(from.name());   // to does not hear from: from→to bytes
                boolean down = g.get(from.name()).contains(to.name()); // from does not hear to: to→from bytes
                for (Link l : peerLinks.get(key(from.name(), to.name()))) {
                    if (up || down) {
                        setCut(l, up, down);
                    } else {
                        heals.add(() -> setCut(l, false, false));
                    }
                }
            }
        }
        heals.forEach(Runnable::run);
        grudge = g;
    }

    /** Sets the partition state of one link: which of its streams carry nothing. */
    private void setCut(Link l, boolean up, boolean down) {
        if (up && down && cutMode == CutMode.REFUSE) {
            if (l.enabled()) {
                l.setEnabled(false);
            }
            setToxic(l, Link.BLACKHOLE_UPSTREAM, Stream.UPSTREAM, false);
            setToxic(l, Link.BLACKHOLE_DOWNSTREAM, Stream.DOWNSTREAM, false);
            return;
        }
        setToxic(l, Link.BLACKHOLE_UPSTREAM, Stream.UPSTREAM, up);
        setToxic(l, Link.BLACKHOLE_DOWNSTREAM, Stream.DOWNSTREAM, down);
        if (!l.enabled()) {
            l.setEnabled(true);
        }
    }

    private static void setToxic(Link l, String name, Stream stream, boolean present) {
        boolean has = l.toxics().stream().anyMatch(t -> t.name().equals(name));
        if (present && !has) {
            l.addToxic(Toxic.timeout(name, stream, 0));
        } else if (!present && has) {
            l.removeToxic(name);
        }
    }

    @Override
    public synchronized SortedMap<String, SortedSet<String>> grudge() {
        SortedMap<String, SortedSet<String>> copy = new TreeMap<>();
        grudge.forEach((k, v) -> copy.put(k, java.util.Collections.unmodifiableSortedSet(new TreeSet<>(v))));
        return java.util.Collections.unmodifiableSortedMap(copy);
    }

    @Override
    public synchronized void cutClient(String node) {
        clientLink(node).cut(cutMode);
    }

    @Override
    public synchronized void healClient(String node) {
        clientLink(node).heal();
    }

    @Override
    public synchronized void heal() {
        proxy.healAll();
        grudge = emptyGrudge();
    }

    @Override
    public Link clientLink(String node) {
        requireNode(node);
        return clientLinks.get(node);
    }

    @Override
    public List<Link> peerLinks(String from, String to) {
        requireNode(from);
        requireNode(to);
        List<Link> l = peerLinks.get(key(from, to));
        if (l == null) {
            throw new IllegalArgumentException("no links from a node to itself: " + from);
        }
        return l;
    }

    @Override
    public List<Link> allLinks() {
        return proxy.links();
    }

    /** Every listen address of every link, e.g. to check that none is left bound after close. */
    List<InetSocketAddress> listenAddresses() {
        return proxy.links().stream().map(Link::listenAddress).toList();
    }

    @Override
    public void close() {
        proxy.close();
    }

    private SortedMap<String, SortedSet<String>> emptyGrudge() {
        SortedMap<String, SortedSet<String>> g = new TreeMap<>();
        nodes.forEach(n -> g.put(n.name(), new TreeSet<>()));
        return g;
    }

    private void requireNode(String n) {
        Set<String> names = new HashSet<>();
        nodes.forEach(x -> names.add(x.name()));
        if (!names.contains(n)) {
            throw new IllegalArgumentException("unknown node '" + n + "': nodes are "
                    + nodes.stream().map(NodeLayout::name).toList());
        }
    }
}
