package io.zkchaos.harness.run;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A run's totals of how often each switched-on bug flag's code path ran on the fle nodes, from the counts the nodes
 * report in their status. A node counts from 0 in each process, so when a node reports a count below the last one
 * seen of it, it was restarted: what its earlier process had counted (as last seen) is kept, and the new process's
 * counts add to it.
 *
 * <p>The totals are a lower bound: what a process counted after its last observation, before it was killed, is not
 * seen, nor a restart whose new process had already counted past the old one by its first observation.
 *
 * <p>Thread-safe.
 */
final class BugPathTally {

    /** Per node, flag to the counts of its earlier processes. */
    private final Map<String, Map<String, Long>> earlier = new HashMap<>();
    /** Per node, flag to the count last seen of its current process. */
    private final Map<String, Map<String, Long>> current = new HashMap<>();

    /** What {@code node} reported now; empty counts (a node down, paused, or without bug flags) change nothing. */
    synchronized void observed(String node, Map<String, Long> counts) {
        if (counts.isEmpty()) {
            return;
        }
        Map<String, Long> last = current.computeIfAbsent(node, n -> new HashMap<>());
        boolean restarted = counts.entrySet().stream()
                .anyMatch(e -> e.getValue() < last.getOrDefault(e.getKey(), 0L));
        if (restarted) {
            Map<String, Long> kept = earlier.computeIfAbsent(node, n -> new HashMap<>());
            last.forEach((flag, n) -> kept.merge(flag, n, Long::sum));
            last.clear();
        }
        last.putAll(counts);
    }

    /** Whether any node has reported counts (only fle nodes with bug flags on do). */
    synchronized boolean any() {
        return !current.isEmpty();
    }

    /** Every flag reported, with its count over every node and every process of it, by flag name. */
    synchronized Map<String, Long> totals() {
        Map<String, Long> out = new TreeMap<>();
        for (Map<String, Map<String, Long>> part : List.of(earlier, current)) {
            part.values().forEach(counts -> counts.forEach((flag, n) -> out.merge(flag, n, Long::sum)));
        }
        return out;
    }
}
