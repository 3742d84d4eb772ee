package io.zkchaos.checkers.servers;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One fault as the servers' checkers see it: which servers it acted on, from when until its stop was over, on the
 * history's clock, and what server behaviour it excuses there, for its window and {@code graceNanos} after it.
 *
 * @param fault      the fault's name ({@code kill-leader}, {@code isolate-follower}, ...)
 * @param nodes      the servers it acted on (for a partition, the servers cut off from the largest side that still
 *                   hears itself); empty for a fault on clients only
 * @param startNanos when it started: the invoke of its start (the start acts while it runs; a rolling restart's
 *                   record comes when its restarts are over)
 * @param endNanos   when its stop was over, or {@link Long#MAX_VALUE} when the history has none
 * @param excuses    what it may make its nodes do
 * @param graceNanos how long after {@code endNanos} its excuses still hold (a partitioned server takes a while to
 *                   rejoin, a server on a failing disk may exit when it next writes)
 */
public record FaultWindow(String fault, List<String> nodes, long startNanos, long endNanos,
                          Set<ServerBehaviour> excuses, long graceNanos) {

    public FaultWindow {
        Objects.requireNonNull(fault, "fault");
        nodes = List.copyOf(nodes);
        excuses = Set.copyOf(excuses);
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("fault " + fault + " ends (" + endNanos + ") before it starts ("
                    + startNanos + ")");
        }
    }

    /** Whether it acted on {@code node} at {@code timeNanos} (its window only, without the grace). */
    public boolean actsOn(String node, long timeNanos) {
        return nodes.contains(node) && timeNanos >= startNanos && timeNanos <= endNanos;
    }

    /** Whether it excuses {@code behaviour} of {@code node} at {@code timeNanos}: in its window or its grace after. */
    public boolean excuses(ServerBehaviour behaviour, String node, long timeNanos) {
        if (!excuses.contains(behaviour) || !nodes.contains(node) || timeNanos < startNanos) {
            return false;
        }
        return endNanos == Long.MAX_VALUE || timeNanos <= endNanos + graceNanos;
    }

    /** "kill-leader on n3 (2.28 s to 5.25 s, excuses exit, rejoin for 10 s after)", for a person. */
    public String describe() {
        return fault + " on " + String.join(", ", nodes);
    }
}
