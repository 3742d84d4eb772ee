package io.zkchaos.nemesis;

import java.util.Objects;

/**
 * What the system felt of a fault on one node, as the system itself showed it (not what the harness asked): the
 * process seen gone or stopped, the disk's errors returned, the server's clock read back, the proxy's connections
 * reset and bytes dropped. A fault for which no measure was taken has no such record: unknown, not "not felt".
 *
 * @param fault the fault it belongs to (a final heal carries the measures of every fault it ended)
 * @param node  the node measured
 * @param felt  whether the node felt the fault
 * @param what  what was measured, in words: {@code 3 fsyncs failed (5 writes, 3 fsyncs in its window)}
 */
public record Felt(String fault, String node, boolean felt, String what) {

    public Felt {
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(what, "what");
    }

    /** A measure of {@code node} not yet named for its fault (the nemesis names it when it records the action). */
    public static Felt of(String node, boolean felt, String what) {
        return new Felt("", node, felt, what);
    }

    /** This measure, named for {@code fault}. */
    public Felt forFault(String fault) {
        return new Felt(fault, node, felt, what);
    }
}
