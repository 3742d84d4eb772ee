package io.zkchaos.nemesis.partition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Partition shapes over node names, as Jepsen's grudges. Pure functions: the result depends only on the node
 * list (in the order given) and, for the random shapes, the {@link Random} passed in — seed it and the result is
 * reproducible. Node names must be distinct and non-blank.
 */
public final class Partitions {
    private Partitions() {
    }

    /** Everyone hears everyone. */
    public static Partition heal(Collection<String> nodes) {
        List<String> ns = check(nodes, 1, "heal");
        return new Partition(Shape.HEAL, "heal: all of " + fmt(ns) + " connected", new TreeSet<>(ns),
                List.of(new TreeSet<>(ns)), new TreeMap<>());
    }

    /** {@code node} (e.g. the current leader) is cut off from every other node, both ways. */
    public static Partition isolate(Collection<String> nodes, String node) {
        List<String> ns = check(nodes, 2, "isolate");
        if (!ns.contains(node)) {
            throw new IllegalArgumentException("cannot isolate '" + node + "': not among " + fmt(ns));
        }
        List<String> rest = new ArrayList<>(ns);
        rest.remove(node);
        return complete(Shape.ISOLATE, "isolate " + node + " from " + fmt(rest), ns, List.of(List.of(node), rest));
    }

    /** A node chosen by {@code random} is cut off from every other node. */
    public static Partition isolateRandom(Collection<String> nodes, Random random) {
        List<String> ns = check(nodes, 2, "isolate");
        return isolate(ns, ns.get(random.nextInt(ns.size())));
    }

    /** The first ⌊n/2⌋ nodes (a minority) against the rest (a majority), in the order given. */
    public static Partition halves(Collection<String> nodes) {
        List<String> ns = check(nodes, 2, "halves");
        return bisect(Shape.HALVES, ns);
    }

    /** {@link #halves} over the nodes shuffled by {@code random}. */
    public static Partition randomHalves(Collection<String> nodes, Random random) {
        List<String> ns = new ArrayList<>(check(nodes, 2, "random halves"));
        Collections.shuffle(ns, random);
        return randomHalvesInOrder(ns);
    }

    /** {@link #randomHalves} without shuffling: the nodes in the order given, as a shuffle made them. */
    public static Partition randomHalvesInOrder(Collection<String> nodes) {
        return bisect(Shape.RANDOM_HALVES, check(nodes, 2, "random halves"));
    }

    private static Partition bisect(Shape shape, List<String> ns) {
        int cut = ns.size() / 2;
        List<String> minority = ns.subList(0, cut);
        List<String> majority = ns.subList(cut, ns.size());
        return complete(shape, shape.wireName() + " " + fmt(minority) + " | " + fmt(majority), ns,
                List.of(minority, majority));
    }

    /**
     * Two halves that do not hear each other, joined by a bridge node that both hear and that hears both. The
     * nodes are shuffled by {@code random}; the bridge is the middle one. Needs at least 3 nodes.
     */
    public static Partition bridge(Collection<String> nodes, Random random) {
        List<String> ns = new ArrayList<>(check(nodes, 3, "bridge"));
        Collections.shuffle(ns, random);
        return bridgeInOrder(ns);
    }

    /** {@link #bridge} without shuffling: the middle node of the given order is the bridge. */
    public static Partition bridgeInOrder(Collection<String> nodes) {
        List<String> ns = check(nodes, 3, "bridge");
        int mid = ns.size() / 2;
        String bridge = ns.get(mid);
        List<String> left = ns.subList(0, mid);
        List<String> right = ns.subList(mid + 1, ns.size());
        SortedMap<String, SortedSet<String>> grudge = new TreeMap<>();
        left.forEach(n -> grudge.put(n, new TreeSet<>(right)));
        right.forEach(n -> grudge.put(n, new TreeSet<>(left)));
        List<SortedSet<String>> groups = List.of(withNode(left, bridge), withNode(right, bridge));
        return new Partition(Shape.BRIDGE, "bridge " + fmt(left) + " <- " + bridge + " -> " + fmt(right),
                new TreeSet<>(ns), groups, grudge);
    }

    /**
     * Every node hears a majority, no two the same (Jepsen's perfect majorities ring): the nodes, shuffled by
     * {@code random}, form a ring; each window of ⌊n/2⌋+1 consecutive nodes is the majority heard by the node at
     * the window's middle. The grudge is symmetric for n ≥ 4 with odd majorities and asymmetric for n = 3.
     */
    public static Partition majoritiesRing(Collection<String> nodes, Random random) {
        List<String> ns = new ArrayList<>(check(nodes, 3, "majorities ring"));
        Collections.shuffle(ns, random);
        return majoritiesRingInOrder(ns);
    }

    /** {@link #majoritiesRing} without shuffling: the ring in the order given. */
    public static Partition majoritiesRingInOrder(Collection<String> nodes) {
        List<String> ns = check(nodes, 3, "majorities ring");
        int n = ns.size();
        int m = n / 2 + 1;
        SortedMap<String, SortedSet<String>> grudge = new TreeMap<>();
        List<SortedSet<String>> groups = new ArrayList<>();
        List<String> views = new ArrayList<>();
        for (int start = 0; start < n; start++) {
            List<String> window = new ArrayList<>(m);
            for (int k = 0; k < m; k++) {
                window.add(ns.get((start + k) % n));
            }
            String owner = window.get(m / 2);
            SortedSet<String> others = new TreeSet<>(ns);
            others.removeAll(window);
            grudge.put(owner, others);
            groups.add(new TreeSet<>(window));
            views.add(owner + " hears " + fmt(new TreeSet<>(window)));
        }
        return new Partition(Shape.MAJORITIES_RING, "majorities ring " + String.join("; ", views),
                new TreeSet<>(ns), groups, grudge);
    }

    /** A grudge in which each node holds a grudge against every node outside its own group. */
    private static Partition complete(Shape shape, String description, List<String> ns, List<List<String>> groups) {
        SortedMap<String, SortedSet<String>> grudge = new TreeMap<>();
        for (List<String> group : groups) {
            SortedSet<String> outside = new TreeSet<>(ns);
            outside.removeAll(group);
            for (String node : group) {
                grudge.put(node, outside);
            }
        }
        List<SortedSet<String>> gs = groups.stream().map(g -> (SortedSet<String>) new TreeSet<>(g)).toList();
        return new Partition(shape, description, new TreeSet<>(ns), gs, grudge);
    }

    private static SortedSet<String> withNode(List<String> group, String node) {
        SortedSet<String> s = new TreeSet<>(group);
        s.add(node);
        return s;
    }

    private static List<String> check(Collection<String> nodes, int min, String what) {
        if (nodes == null) {
            throw new IllegalArgumentException(what + ": nodes are missing");
        }
        if (nodes.stream().anyMatch(java.util.Objects::isNull)) {
            throw new IllegalArgumentException(what + ": node names must not be null, got " + nodes);
        }
        List<String> ns = List.copyOf(nodes);
        if (ns.size() < min) {
            throw new IllegalArgumentException(what + " needs at least " + min + " nodes, got " + ns);
        }
        if (new HashSet<>(ns).size() != ns.size()) {
            throw new IllegalArgumentException(what + ": node names must be distinct, got " + ns);
        }
        for (String n : ns) {
            if (n.isBlank()) {
                throw new IllegalArgumentException(what + ": node names must not be blank, got " + ns);
            }
        }
        return ns;
    }

    private static String fmt(Collection<String> group) {
        return group.stream().collect(Collectors.joining(", ", "{", "}"));
    }
}
