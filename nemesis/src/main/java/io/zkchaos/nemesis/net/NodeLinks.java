package io.zkchaos.nemesis.net;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
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
 * The one enforcement path of link faults: the {@link LinkNetwork} of a set of nodes over their {@link Link}s,
 * whichever proxy serves them (the embedded proxy, Toxiproxy). A backend creates the links (it knows the addresses)
 * and hands them here; every cut, partition, grudge and heal is then applied the same way.
 *
 * <p>A TCP link opened by node {@code a} to node {@code b} carries {@code a}'s bytes to {@code b} on its upstream
 * stream and {@code b}'s bytes to {@code a} on its downstream. For "b does not hear a" the a→b stream of every link
 * between them stops. When both directions of a pair are cut the whole link is cut with the {@link #cutMode()}
 * ({@link CutMode#REFUSE}: disabled, so new connections are refused; {@link CutMode#BLACKHOLE}: bytes vanish both
 * ways); when only one is (the majorities ring on 3 nodes), that one stream is black-holed with a {@code timeout}
 * toxic, because a listening port cannot refuse one direction only.
 *
 * <p>Partition methods change only what partitions set (the enabled state and the black-hole toxics); other
 * toxics, such as latency, stay until {@link #heal()}. Thread-safe.
 */
public final class NodeLinks implements LinkNetwork, AutoCloseable {

    private final Network network;
    private final List<String> nodes;
    private final Map<String, Link> clientLinks;
    private final Map<String, List<Link>> peerLinks;
    private SortedMap<String, SortedSet<String>> grudge;
    private CutMode cutMode = CutMode.REFUSE;
    /** Each link's counters at the last heal: what a fault did is counted from here ({@link #feltSinceHeal}). */
    private Map<Link, LinkStats> atHeal = Map.of();

    /**
     * @param network     the proxy serving every link; closed with this
     * @param nodes       node names, in order
     * @param clientLinks per node, the link clients reach it through
     * @param peerLinks   per ordered pair {@code from -> to} (key {@link #pair}), the links {@code from} opens to
     *                    {@code to}
     */
    public NodeLinks(Network network, List<String> nodes, Map<String, Link> clientLinks,
                     Map<String, List<Link>> peerLinks) {
        this.network = Objects.requireNonNull(network, "network");
        this.nodes = List.copyOf(nodes);
        this.clientLinks = Collections.unmodifiableMap(new LinkedHashMap<>(clientLinks));
        Map<String, List<Link>> peers = new LinkedHashMap<>();
        peerLinks.forEach((k, v) -> peers.put(k, List.copyOf(v)));
        this.peerLinks = Collections.unmodifiableMap(peers);
        for (String n : this.nodes) {
            if (!this.clientLinks.containsKey(n)) {
                throw new IllegalArgumentException("no client link for node " + n);
            }
        }
        this.grudge = emptyGrudge();
    }

    /** The key of the ordered pair {@code from -> to} in the peer-link map. */
    public static String pair(String from, String to) {
        return from + "->" + to;
    }

    /** The proxy that serves the links. */
    public Network network() {
        return network;
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
        requireNode(a);
        requireNode(b);
        if (a.equals(b)) {
            throw new IllegalArgumentException("cannot cut node '" + a + "' from itself");
        }
        Map<String, Set<String>> g = new TreeMap<>();
        grudge.forEach((k, v) -> g.put(k, new TreeSet<>(v)));
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
        for (String n : nodes) {
            componentOf.putIfAbsent(n, c); // the rest: one more component
        }
        Map<String, Set<String>> g = new TreeMap<>();
        for (String to : nodes) {
            Set<String> notHeard = new TreeSet<>();
            for (String from : nodes) {
                if (!componentOf.get(from).equals(componentOf.get(to))) {
                    notHeard.add(from);
                }
            }
            g.put(to, notHeard);
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
        // Cut first, then heal, so that no moment joins what both the old and the new partition separate. One batch:
        // a network that sets its links elsewhere applies the whole grudge in one step per place.
        network.batch(() -> {
            List<Runnable> heals = new ArrayList<>();
            for (String from : nodes) {
                for (String to : nodes) {
                    if (from.equals(to)) {
                        continue;
                    }
                    boolean up = g.get(to).contains(from);   // to does not hear from: from→to bytes
                    boolean down = g.get(from).contains(to); // from does not hear to: to→from bytes
                    for (Link l : peerLinks.getOrDefault(pair(from, to), List.of())) {
                        if (up || down) {
                            setCut(l, up, down);
                        } else {
                            heals.add(() -> setCut(l, false, false));
                        }
                    }
                }
            }
            heals.forEach(Runnable::run);
        });
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
        grudge.forEach((k, v) -> copy.put(k, Collections.unmodifiableSortedSet(new TreeSet<>(v))));
        return Collections.unmodifiableSortedMap(copy);
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
        network.healAll();
        grudge = emptyGrudge();
        Map<Link, LinkStats> now = new java.util.HashMap<>();
        network.links().forEach(l -> now.put(l, l.stats()));
        atHeal = now;
    }

    /**
     * Counts, for every link that is cut or carries a toxic now, what its proxy did since the last heal, and gives
     * each node the sum over its faulted links (a peer link counts for both its ends). Links whose proxy keeps no
     * counts ({@link Link#counts()}) make the whole answer empty: not measured.
     */
    @Override
    public synchronized List<io.zkchaos.nemesis.Felt> feltSinceHeal() {
        Map<String, long[]> byNode = new TreeMap<>(); // node -> {connections reset, bytes dropped, bytes held}
        Map<Link, List<String>> ends = new LinkedHashMap<>();
        clientLinks.forEach((node, l) -> ends.put(l, List.of(node)));
        peerLinks.forEach((key, ls) -> {
            String[] ab = key.split("->", 2);
            ls.forEach(l -> ends.put(l, List.of(ab[0], ab[1])));
        });
        for (Map.Entry<Link, List<String>> e : ends.entrySet()) {
            Link l = e.getKey();
            if (!l.counts()) {
                return List.of();
            }
            boolean delayed = l.toxics().stream().anyMatch(t -> t.type() == ToxicType.LATENCY);
            if (l.enabled() && l.toxics().isEmpty()) {
                continue; // not faulted now
            }
            LinkStats now = l.stats();
            LinkStats then = atHeal.getOrDefault(l, new LinkStats(0, 0, 0, 0, 0));
            long reset = now.connectionsCut() - then.connectionsCut();
            long dropped = now.bytesDropped() - then.bytesDropped();
            long held = delayed ? (now.bytesUpstream() + now.bytesDownstream())
                    - (then.bytesUpstream() + then.bytesDownstream()) : 0;
            for (String node : e.getValue()) {
                long[] c = byNode.computeIfAbsent(node, n -> new long[3]);
                c[0] += reset;
                c[1] += dropped;
                c[2] += held;
            }
        }
        List<io.zkchaos.nemesis.Felt> out = new ArrayList<>();
        byNode.forEach((node, c) -> out.add(io.zkchaos.nemesis.Felt.of(node, c[0] + c[1] + c[2] > 0,
                c[0] + " connection" + (c[0] == 1 ? "" : "s") + " reset, " + c[1] + " bytes dropped"
                        + (c[2] > 0 ? ", " + c[2] + " bytes held back" : "") + " on its faulted links")));
        return out;
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
        List<Link> l = peerLinks.get(pair(from, to));
        if (l == null) {
            throw new IllegalArgumentException("no links from a node to itself: " + from);
        }
        return l;
    }

    @Override
    public List<Link> allLinks() {
        return network.links();
    }

    /** Closes the proxy: every link, connection and thread. */
    @Override
    public void close() {
        network.close();
    }

    private SortedMap<String, SortedSet<String>> emptyGrudge() {
        SortedMap<String, SortedSet<String>> g = new TreeMap<>();
        nodes.forEach(n -> g.put(n, new TreeSet<>()));
        return g;
    }

    private void requireNode(String n) {
        if (!nodes.contains(n)) {
            throw new IllegalArgumentException("unknown node '" + n + "': nodes are " + nodes);
        }
    }
}
