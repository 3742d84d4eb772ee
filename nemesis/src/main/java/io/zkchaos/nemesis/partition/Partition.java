package io.zkchaos.nemesis.partition;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a partition is, as data: the groups it made and the grudge — for every node, the nodes it must not hear
 * from (Jepsen's term). It is what the nemesis records in the history; heal is the empty grudge.
 *
 * <p>A grudge may be asymmetric (the majorities ring on 3 nodes is): {@code a} not hearing {@code b} says nothing
 * of {@code b} hearing {@code a}. {@link #cutPairs()} turns it into the directed pairs whose traffic must stop.
 *
 * @param shape       which kind of partition
 * @param description one line for people, e.g. {@code halves {n1, n2} | {n3, n4, n5}}
 * @param nodes       every node the partition was computed over
 * @param groups      the components (for a bridge the two sides, each with the bridge node; for a ring each node's
 *                    majority), in the order the shape made them
 * @param grudge      for each node of {@code nodes}, the nodes it must not hear from (empty sets included)
 */
public record Partition(Shape shape, String description, SortedSet<String> nodes, List<SortedSet<String>> groups,
                        SortedMap<String, SortedSet<String>> grudge) {

    public Partition {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(description, "description");
        nodes = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(nodes, "nodes")));
        List<SortedSet<String>> g = new ArrayList<>();
        for (SortedSet<String> group : Objects.requireNonNull(groups, "groups")) {
            g.add(Collections.unmodifiableSortedSet(new TreeSet<>(group)));
        }
        groups = List.copyOf(g);
        SortedMap<String, SortedSet<String>> m = new TreeMap<>();
        for (String n : nodes) {
            m.put(n, Collections.unmodifiableSortedSet(new TreeSet<>()));
        }
        for (Map.Entry<String, SortedSet<String>> e : Objects.requireNonNull(grudge, "grudge").entrySet()) {
            if (!nodes.contains(e.getKey())) {
                throw new IllegalArgumentException("grudge names node '" + e.getKey() + "' which is not among "
                        + nodes);
            }
            for (String from : e.getValue()) {
                if (!nodes.contains(from)) {
                    throw new IllegalArgumentException("grudge of '" + e.getKey() + "' names node '" + from
                            + "' which is not among " + nodes);
                }
                if (from.equals(e.getKey())) {
                    throw new IllegalArgumentException("node '" + from + "' cannot hold a grudge against itself");
                }
            }
            m.put(e.getKey(), Collections.unmodifiableSortedSet(new TreeSet<>(e.getValue())));
        }
        grudge = Collections.unmodifiableSortedMap(m);
    }

    /** Whether {@code to} hears from {@code from} under this partition. */
    public boolean hears(String to, String from) {
        SortedSet<String> g = grudge.get(to);
        if (g == null || !nodes.contains(from)) {
            throw new IllegalArgumentException("unknown node: " + (g == null ? to : from) + " (nodes " + nodes + ")");
        }
        return !g.contains(from);
    }

    /** The nodes {@code node} hears from, itself included. */
    public SortedSet<String> heardBy(String node) {
        SortedSet<String> heard = new TreeSet<>(nodes);
        heard.removeAll(Objects.requireNonNull(grudge.get(node), () -> "unknown node: " + node));
        return Collections.unmodifiableSortedSet(heard);
    }

    /** Whether nothing is cut. */
    @JsonIgnore // derived from the grudge, not a field of the record
    public boolean isHealed() {
        return grudge.values().stream().allMatch(SortedSet::isEmpty);
    }

    /**
     * The directed pairs {@code (from, to)} whose traffic must stop: one for each {@code from} in the grudge of
     * each {@code to}. For a TCP link a→b this means: cut its upstream stream when (a, b) is listed and its
     * downstream stream when (b, a) is; a symmetric grudge lists both, so the whole link goes.
     */
    public SortedSet<DirectedPair> cutPairs() {
        SortedSet<DirectedPair> pairs = new TreeSet<>();
        grudge.forEach((to, froms) -> froms.forEach(from -> pairs.add(new DirectedPair(from, to))));
        return Collections.unmodifiableSortedSet(pairs);
    }
}
