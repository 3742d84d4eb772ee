package io.zkchaos.checkers;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.history.History;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The examples of the checkers' pages ({@code docs/single-leader.md}, {@code docs/data-checkers.md} and
 * {@code docs/watches.md}, read in that order as one doc) are the output of these histories: every verdict block of
 * the doc (a fenced block that starts with {@code == }) must be, in order, exactly what the checker the CLI builds
 * ({@link CheckerCatalog#create}) prints for the history below, and every JSON excerpt must be part of the
 * {@code details} of the example it follows. When a checker's wording changes, this fails and shows the new text to
 * paste into the doc. The one thing masked is the search time in "(checked in N ms)", which varies from run to run.
 */
class DocExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path REPO = Path.of(System.getProperty("zkchaos.repo.root", ".."));
    private static final List<Path> DOC = List.of(REPO.resolve("docs/single-leader.md"),
            REPO.resolve("docs/data-checkers.md"), REPO.resolve("docs/watches.md"));

    /** One example: a history through one checker with options, as the doc shows it. */
    record Example(String checker, Map<String, String> options, History history) {

        CheckResult result() {
            return CheckerCatalog.create(checker, settings(options)).check(history);
        }

        /** The options as the CLI's flags set them: {@code max-overlap}, {@code failover-bound}, {@code strict}. */
        private static CheckerOptions settings(Map<String, String> options) {
            CheckerOptions o = CheckerOptions.defaults();
            if (options.containsKey("max-overlap")) {
                o = o.withMaxOverlap(DurationText.parse(options.get("max-overlap")).orElseThrow());
            }
            if (options.containsKey("failover-bound")) {
                o = o.withFailoverBound(DurationText.parse(options.get("failover-bound")).orElseThrow());
            }
            return o.withStrict(Boolean.parseBoolean(options.getOrDefault("strict", "false")));
        }

        /** The block the doc prints: the verdict line, the summary, one line per part. */
        String block() {
            CheckResult r = result();
            StringBuilder s = new StringBuilder("== " + checker + (options.isEmpty() ? "" : " " + options) + " -> "
                    + r.validity() + "\n" + r.summary() + "\n");
            for (CheckResult p : r.parts()) {
                s.append("  part ").append(p.checker()).append(" -> ").append(p.validity()).append(": ")
                        .append(p.summary()).append('\n');
            }
            return s.toString();
        }
    }

    /** The doc's examples, in the doc's order. */
    static List<Example> examples() {
        List<Example> all = new ArrayList<>();
        // single-leader: n1 paused, n2 takes over, n1 learns 700 ms later
        History paused = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, map("token", 1L, "czxid", 101L, "node", "n1"), 10)
                .nemesis("pause", 100, 101)
                .ok(2, map("token", 2L, "czxid", 102L, "node", "n2"), 200)
                .nemesis("heal", 850, 860)
                .invoke(1, "release", map("token", 1L, "reason", "session-expired"), 900).ok(1, null, 901)
                .build();
        all.add(new Example("single-leader", Map.of(), paused));
        all.add(new Example("single-leader", Map.of("max-overlap", "500ms"), paused));
        // two holders of token 3
        all.add(new Example("single-leader", Map.of(), new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, map("token", 3L, "czxid", 103L, "node", "n1"), 10)
                .invoke(1, "release", map("token", 3L, "reason", "closed"), 20).ok(1, null, 21)
                .ok(2, map("token", 3L, "czxid", 103L, "node", "n2"), 30)
                .build()));
        // a token going backwards
        all.add(new Example("single-leader", Map.of(), new HistoryBuilder()
                .invoke(1, "acquire", null, 0).ok(1, map("token", 5L, "node", "n1"), 10)
                .invoke(1, "release", map("token", 5L, "reason", "closed"), 20).ok(1, null, 21)
                .invoke(2, "acquire", null, 30).ok(2, map("token", 4L, "node", "n2"), 40)
                .build()));
        // no leader after a heal
        all.add(new Example("single-leader", Map.of("failover-bound", "1s"), new HistoryBuilder()
                .invoke(1, "acquire", null, 0).ok(1, map("token", 1L, "node", "n1"), 10)
                .nemesis("kill", 50, 51)
                .invoke(1, "release", map("token", 1L, "reason", "disconnected"), 60).ok(1, null, 61)
                .nemesis("heal", 100, 110)
                .invoke(2, "acquire", null, 200).info(2, 5_000)
                .build()));
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
        all.add(new Example("single-leader", Map.of("max-overlap", "500ms"), frozen));
        all.add(new Example("single-leader", Map.of("max-overlap", "100ms"), frozen));
        // no-lost-commit: add 2 lost on n2 and n3; n2 reads 4 (add failed), n3 reads 99 (never added)
        all.add(new Example("no-lost-commit", Map.of(), new HistoryBuilder()
                .invoke(1, "add", 1L, 10).ok(1, null, 12)
                .invoke(2, "add", 2L, 20).ok(2, null, 25)
                .invoke(1, "add", 3L, 30).info(1, 40)
                .invoke(3, "add", 4L, 50).fail(3, 55)
                .nemesis("heal", 60, 61)
                .okOp(9, "read", null, map("node", "n1", "values", List.of(1L, 2L, 3L)), 100)
                .okOp(9, "read", null, map("node", "n2", "values", List.of(1L, 4L)), 101)
                .okOp(9, "read", null, map("node", "n3", "values", List.of(1L, 99L)), 102)
                .build()));
        // fenced-writes: the store accepts token 1 after token 2
        all.add(new Example("fenced-writes", Map.of(), new HistoryBuilder()
                .invoke(2, "fenced-write", map("token", 2L, "value", "b"), 0).ok(2, null, 1)
                .invoke(1, "fenced-write", map("token", 1L, "value", "c"), 2).ok(1, null, 3)
                .okOp(9, "read", null, List.of(map("token", 2L, "value", "b"), map("token", 1L, "value", "c")), 4)
                .build()));
        // fenced-writes: the store holds a write it rejected and lacks one it acknowledged
        all.add(new Example("fenced-writes", Map.of(), new HistoryBuilder()
                .invoke(1, "fenced-write", map("token", 1L, "value", "a"), 0).ok(1, null, 1)
                .invoke(2, "fenced-write", map("token", 2L, "value", "b"), 2).ok(2, null, 3)
                .invoke(1, "fenced-write", map("token", 1L, "value", "c"), 4).fail(1, 5)
                .okOp(9, "read", null, List.of(map("token", 1L, "value", "a"), map("token", 1L, "value", "c")), 6)
                .build()));
        // zk-read-model: a follower-connected session reads 1 after 2 and 3 were acknowledged
        HistoryBuilder register = new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(1, "cas", "x", List.of(2L, 3L), 40).ok(1, null, 50)
                .invoke(2, "read", "x", null, 60).ok(2, 1L, 61)
                .invoke(3, "sync-read", "x", null, 70).ok(3, 3L, 71);
        all.add(new Example("zk-read-model", Map.of(), register.build()));
        all.add(new Example("zk-read-model", Map.of("strict", "true"), register.build()));
        // the same session then goes back in time
        all.add(new Example("zk-read-model", Map.of(), register.invoke(3, "read", "x", null, 80).ok(3, 2L, 81)
                .build()));
        // a stale sync-read
        all.add(new Example("zk-read-model", Map.of(), new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(3, "sync-read", "x", null, 70).ok(3, 1L, 71)
                .build()));
        // a sync-read of the initial null after an acknowledged write
        all.add(new Example("zk-read-model", Map.of(), new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(2, "sync-read", "x", null, 20).ok(2, null, 21)
                .build()));
        // log-prefix: two leaders' writes interleaved
        long e1 = 1L << 32;
        all.add(new Example("log-prefix", Map.of(), new HistoryBuilder()
                .okOp(1, "read-log", null, map("node", "n1", "log",
                        List.of(List.of(e1 + 1, "a"), List.of(e1 + 2, "b"), List.of(e1 + 3, "d"))), 1)
                .okOp(1, "read-log", null, map("node", "n2", "log",
                        List.of(List.of(e1 + 1, "a"), List.of(e1 + 2, "c"))), 2)
                .build()));
        // log-prefix: a committed entry rolled back everywhere
        all.add(new Example("log-prefix", Map.of(), new HistoryBuilder()
                .okOp(1, "read-log", null, map("node", "n1", "log",
                        List.of(List.of(e1 + 1, "a"), List.of(e1 + 2, "b"))), 1)
                .okOp(1, "read-log", null, map("node", "n1", "log", List.of(List.of(e1 + 1, "a"))), 2)
                .okOp(1, "read-log", null, map("node", "n2", "log", List.of(List.of(e1 + 1, "a"))), 3)
                .build()));
        all.addAll(WatchesDocExamples.examples());
        return all;
    }

    /** A fenced block of the doc: its language tag and its text (with a final newline). */
    record Block(String language, String text) {
        boolean isVerdict() {
            return text.startsWith("== ");
        }
    }

    static List<Block> blocks() throws IOException {
        List<Block> all = new ArrayList<>();
        for (Path doc : DOC) {
            all.addAll(blocks(doc));
        }
        return all;
    }

    /** The fenced blocks of {@code doc}, in order. */
    static List<Block> blocks(Path doc) throws IOException {
        List<Block> blocks = new ArrayList<>();
        Iterator<String> lines = Files.readAllLines(doc).iterator();
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("```")) {
                String language = line.substring(3).trim();
                StringBuilder text = new StringBuilder();
                while (lines.hasNext() && !(line = lines.next()).startsWith("```")) {
                    text.append(line).append('\n');
                }
                blocks.add(new Block(language, text.toString()));
            }
        }
        return blocks;
    }

    static String maskTimes(String s) {
        return s.replaceAll("\\(checked in \\d+ ms\\)", "(checked in N ms)");
    }

    @Test
    void everyVerdictBlockOfTheDocIsTheOutputOfItsExample() throws IOException {
        List<String> documented = blocks().stream().filter(Block::isVerdict).map(b -> maskTimes(b.text())).toList();
        List<String> printed = examples().stream().map(e -> maskTimes(e.block())).toList();
        assertThat(documented).as("verdict blocks of %s, in order", DOC).containsExactlyElementsOf(printed);
    }

    /**
     * Which example each JSON excerpt of the doc belongs to, in the doc's order (0-based): "Part of the details of
     * the first example" (single-leader), and the no-lost-commit example's details.
     */
    private static final List<Integer> JSON_EXCERPT_OF = List.of(0, 7);

    @Test
    void everyJsonExcerptIsPartOfTheDetailsOfItsExample() throws IOException {
        List<Example> examples = examples();
        List<Block> excerpts = blocks().stream().filter(b -> b.language().equals("json")).toList();
        assertThat(excerpts).as("JSON excerpts in %s", DOC).hasSameSizeAs(JSON_EXCERPT_OF);
        for (int i = 0; i < excerpts.size(); i++) {
            String fields = excerpts.get(i).text().strip();
            if (fields.endsWith(",")) {
                fields = fields.substring(0, fields.length() - 1);
            }
            JsonNode excerpt = JSON.readTree("{" + fields + "}");
            Example e = examples.get(JSON_EXCERPT_OF.get(i));
            // Through text both ways, so that numbers compare as numbers (an int 1 and a long 1 are equal).
            JsonNode details = JSON.readTree(JSON.writeValueAsString(e.result().details()));
            for (Iterator<String> names = excerpt.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                assertThat(details.get(name)).as("details.%s of example %d (%s %s)", name,
                        JSON_EXCERPT_OF.get(i) + 1, e.checker(), e.options()).isEqualTo(excerpt.get(name));
            }
        }
    }
}
