package io.zkchaos.results.report;

import static io.zkchaos.checkers.HistoryBuilder.map;

import java.util.List;
import java.util.Map;

/** Partition records as the harness writes them into a history, as plain data, for the report's tests. */
final class FaultRecords {

    private FaultRecords() {
    }

    /** {@code isolate n3 from {n1, n2}}. */
    static Map<String, Object> isolate(String node, String a, String b) {
        return map("fault", "isolate-leader", "description", "isolate " + node + " from {" + a + ", " + b + "}",
                "nodes", List.of(a, b, node), "groups", List.of(List.of(node), List.of(a, b)),
                "grudge", map(a, List.of(node), b, List.of(node), node, List.of(a, b)));
    }

    /** {@code kill n2}. */
    static Map<String, Object> kill(String node) {
        return map("fault", "kill", "description", "kill " + node, "nodes", List.of(node));
    }

    static Map<String, Object> healed() {
        return map("fault", "heal", "description", "heal: all connected", "nodes", List.of(), "groups", List.of(),
                "grudge", map());
    }
}
