package io.zkchaos.nemesis.partition;

import java.util.Objects;

/**
 * A directed pair of nodes: {@code to} must not hear from {@code from}. Ordered by {@code from}, then {@code to}.
 */
public record DirectedPair(String from, String to) implements Comparable<DirectedPair> {

    public DirectedPair {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (from.equals(to)) {
            throw new IllegalArgumentException("a node cannot be cut from itself: " + from);
        }
    }

    @Override
    public int compareTo(DirectedPair o) {
        int c = from.compareTo(o.from);
        return c != 0 ? c : to.compareTo(o.to);
    }

    @Override
    public String toString() {
        return from + "->" + to;
    }
}
