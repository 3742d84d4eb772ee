package io.zkchaos.checkers;

import static io.zkchaos.checkers.HistoryBuilder.map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.zkchaos.checkers.history.History;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Prints the verdicts quoted in {@code docs/checkers.md}: one small history per planted violation, run through the
 * checker the CLI would build. Run: see docs/checkers.md ("Reproducing the examples").
 */
public final class DocExamples {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DocExamples() {
    }

    public static void main(String[] args) throws Exception {
        boolean details = Arrays.asList(args).contains("--details");
        // single-leader: n1 paused, n2 takes over, n1 learns 700 ms later
        History paused = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, map("token", 1L, "czxid", 101L, "node", "n1"), 10)
                .nemesis("pause", 100, 101)
                .ok(2, map("token", 2L, "czxid", 102L, "node", "n2"), 200)
                .nemesis("heal", 850, 860)
                .invoke(1, "release", map("token", 1L, "reason", "session-expired"), 900).ok(1, null, 901)
                .build();
        show("single-leader", Map.of(), paused, details);
        show("single-leader", Map.of("max-overlap", "500ms"), paused, details);
        // single-leader: client process p1 frozen by the nemesis (pause-leader-client) from 100 ms to the heal at
        // 2 000 ms; p2 leads at 1 200 ms; p1, awake again, learns it lost at 2 150 ms
        History frozen = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, map("token", 1L, "czxid", 101L, "node", "p1"), 10)
                .nemesis("pause-leader-client", map("fault", "pause-leader-client", "description", "pause client p1",
                        "nodes", List.of("p1")), 100, 101)
                .ok(2, map("token", 2L, "czxid", 102L, "node", "p2"), 1200)
                .nemesis("heal", map("fault", "resume-clients", "description", "resume client p1", "nodes",
                        List.of("p1")), 1990, 2000)
                .invoke(1, "release", map("token", 1L, "reason", "session-expired"), 2150).ok(1, null, 2151)
                .build();
        show("single-leader", Map.of("max-overlap", "500ms"), frozen, details);
        show("single-leader", Map.of("max-overlap", "100ms"), frozen, details);
        show("single-leader", Map.of(), new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, map("token", 3L, "czxid", 103L, "node", "n1"), 10)
                .invoke(1, "release", map("token", 3L, "reason", "closed"), 20).ok(1, null, 21)
                .ok(2, map("token", 3L, "czxid", 103L, "node", "n2"), 30)
                .build(), details);
        show("single-leader", Map.of(), new HistoryBuilder()
                .invoke(1, "acquire", null, 0).ok(1, map("token", 5L, "node", "n1"), 10)
                .invoke(1, "release", map("token", 5L, "reason", "closed"), 20).ok(1, null, 21)
                .invoke(2, "acquire", null, 30).ok(2, map("token", 4L, "node", "n2"), 40)
                .build(), details);
        show("single-leader", Map.of("failover-bound", "1s"), new HistoryBuilder()
                .invoke(1, "acquire", null, 0).ok(1, map("token", 1L, "node", "n1"), 10)
                .nemesis("kill", 50, 51)
                .invoke(1, "release", map("token", 1L, "reason", "disconnected"), 60).ok(1, null, 61)
                .nemesis("heal", 100, 110)
                .invoke(2, "acquire", null, 200).info(2, 5_000)
                .build(), details);
        // no-lost-commit
        HistoryBuilder adds = new HistoryBuilder()
                .invoke(1, "add", 1L, 10).ok(1, null, 12)
                .invoke(2, "add", 2L, 20).ok(2, null, 25)
                .invoke(1, "add", 3L, 30).info(1, 40)
                .invoke(3, "add", 4L, 50).fail(3, 55)
                .nemesis("heal", 60, 61);
        show("no-lost-commit", Map.of(), adds
                .okOp(9, "read", null, map("node", "n1", "values", List.of(1L, 2L, 3L)), 100)
                .okOp(9, "read", null, map("node", "n2", "values", List.of(1L, 4L)), 101)
                .okOp(9, "read", null, map("node", "n3", "values", List.of(1L, 99L)), 102)
                .build(), details);
        // fenced-writes
        show("fenced-writes", Map.of(), new HistoryBuilder()
                .invoke(2, "fenced-write", map("token", 2L, "value", "b"), 0).ok(2, null, 1)
                .invoke(1, "fenced-write", map("token", 1L, "value", "c"), 2).ok(1, null, 3)
                .okOp(9, "read", null, List.of(map("token", 2L, "value", "b"), map("token", 1L, "value", "c")), 4)
                .build(), details);
        // zk-read-model
        HistoryBuilder register = new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(1, "cas", "x", List.of(2L, 3L), 40).ok(1, null, 50)
                .invoke(2, "read", "x", null, 60).ok(2, 1L, 61)
                .invoke(3, "sync-read", "x", null, 70).ok(3, 3L, 71);
        show("zk-read-model", Map.of(), register.build(), details);
        show("zk-read-model", Map.of("strict", "true"), register.build(), details);
        show("zk-read-model", Map.of(), register.invoke(3, "read", "x", null, 80).ok(3, 2L, 81).build(), details);
        show("zk-read-model", Map.of(), new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(3, "sync-read", "x", null, 70).ok(3, 1L, 71)
                .build(), details);
        show("zk-read-model", Map.of(), new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(2, "sync-read", "x", null, 20).ok(2, null, 21)
                .build(), details);
        show("fenced-writes", Map.of(), new HistoryBuilder()
                .invoke(1, "fenced-write", map("token", 1L, "value", "a"), 0).ok(1, null, 1)
                .invoke(2, "fenced-write", map("token", 2L, "value", "b"), 2).ok(2, null, 3)
                .invoke(1, "fenced-write", map("token", 1L, "value", "c"), 4).fail(1, 5)
                .okOp(9, "read", null, List.of(map("token", 1L, "value", "a"), map("token", 1L, "value", "c")), 6)
                .build(), details);
        // log-prefix
        long e1 = 1L << 32;
        show("log-prefix", Map.of(), new HistoryBuilder()
                .okOp(1, "read-log", null, map("node", "n1", "log",
                        List.of(List.of(e1 + 1, "a"), List.of(e1 + 2, "b"), List.of(e1 + 3, "d"))), 1)
                .okOp(1, "read-log", null, map("node", "n2", "log",
                        List.of(List.of(e1 + 1, "a"), List.of(e1 + 2, "c"))), 2)
                .build(), details);
        show("log-prefix", Map.of(), new HistoryBuilder()
                .okOp(1, "read-log", null, map("node", "n1", "log",
                        List.of(List.of(e1 + 1, "a"), List.of(e1 + 2, "b"))), 1)
                .okOp(1, "read-log", null, map("node", "n1", "log", List.of(List.of(e1 + 1, "a"))), 2)
                .okOp(1, "read-log", null, map("node", "n2", "log", List.of(List.of(e1 + 1, "a"))), 3)
                .build(), details);
    }

    private static void show(String name, Map<String, String> options, History h, boolean details)
            throws Exception {
        CheckerOptions o = CheckerOptions.defaults();
        if (options.containsKey("max-overlap")) {
            o = o.withMaxOverlap(DurationText.parse(options.get("max-overlap")).orElseThrow());
        }
        if (options.containsKey("failover-bound")) {
            o = o.withFailoverBound(DurationText.parse(options.get("failover-bound")).orElseThrow());
        }
        o = o.withStrict(Boolean.parseBoolean(options.getOrDefault("strict", "false")));
        CheckResult r = CheckerCatalog.create(name, o).check(h);
        System.out.println("== " + name + (options.isEmpty() ? "" : " " + options) + " -> " + r.validity());
        System.out.println(r.summary());
        for (CheckResult p : r.parts()) {
            System.out.println("  part " + p.checker() + " -> " + p.validity() + ": " + p.summary());
        }
        if (details) {
            System.out.println(JSON.writeValueAsString(r.details()));
        }
        System.out.println();
    }
}
