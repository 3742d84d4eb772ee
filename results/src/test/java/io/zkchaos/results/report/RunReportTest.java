package io.zkchaos.results.report;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static io.zkchaos.results.report.RunDirs.server;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.model.Models;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reports rendered from fixed run directories: the page has the elements a reader needs for each finding. */
class RunReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static JsonNode data(Document doc) throws Exception {
        return JSON.readTree(doc.getElementById("data").data());
    }

    private static List<String> cells(Element row) {
        return row.select("td").eachText();
    }

    @Test
    void aValidRunShowsItsVerdictFaultsAndWhoLedAccordingToTheServers() throws Exception {
        History h = new HistoryBuilder()
                .invoke(1, "write", "r0", 1L, 0).ok(1, null, 10)
                .invoke(2, "read", "r0", null, 20).ok(2, 1L, 25)
                .nemesis("isolate-leader", FaultRecords.isolate("n3", "n1", "n2"), 100, 110)
                .invoke(1, "write", "r0", 2L, 120).ok(1, null, 300)
                .invoke(2, "read", "r0", null, 310).ok(2, 2L, 320)
                .nemesis("heal", FaultRecords.healed(), 400, 405)
                .invoke(1, "cas", "r0", List.of(2L, 3L), 410).ok(1, null, 420)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("run"), RunDirs.run("register", "isolate-leader", 11, 3),
                h, CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of(
                server(1, "n1", "follower", 1), server(1, "n2", "follower", 1), server(1, "n3", "leader", 1),
                server(105, "n1", "not_serving", -1), server(150, "n1", "leader", 2),
                server(200, "n3", "not_serving", -1), server(450, "n3", "follower", 2),
                // the observer's last word, after the history's last entry: the state at the end, repeated
                server(600, "n1", "leader", 2), server(600, "n2", "follower", 1), server(600, "n3", "follower", 2)));

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("valid");
        assertThat(doc.selectFirst("header.banner").hasClass("valid")).isTrue();
        assertThat(doc.select("h1").text()).isEqualTo("register-isolate-leader");
        assertThat(doc.select("article[data-checker=zk-read-model] .badge.valid")).hasSize(1);
        assertThat(doc.select("article[data-checker=linearizable].depth-2 .badge.valid")).hasSize(1);
        assertThat(doc.getElementById("facts").text())
                .contains("ZooKeeper leaders n3 (epoch 1) → n1 (epoch 2) at 0.150 s").contains("seed 11");
        Elements faults = doc.select("table.faults tr:has(td)");
        assertThat(faults).hasSize(1);
        assertThat(cells(faults.first())).containsSubsequence("isolate-leader", "isolate n3 from {n1, n2}",
                "n1–n3, n2–n3", "0.100 s", "305.0 ms");
        assertThat(faults.first().select("a.ref").eachAttr("data-entry")).containsExactly("4", "5", "11");

        JsonNode d = data(doc);
        assertThat(d.path("hasTimes").asBoolean()).isTrue();
        assertThat(d.path("operations").path("process")).hasSize(5);
        assertThat(d.path("faults").get(0).path("start").asLong()).isEqualTo(100_000);
        assertThat(d.path("faults").get(0).path("end").asLong()).isEqualTo(405_000);
        assertThat(d.path("end").asLong()).as("the axis runs to the end of the observation").isEqualTo(600_000);
        List<String> n1 = new ArrayList<>();
        d.path("servers").path("spans").forEach(sp -> {
            if (sp.path("node").asText().equals("n1")) {
                n1.add(sp.path("mode").asText() + "@" + sp.path("start").asLong() + "-" + sp.path("end").asLong());
            }
        });
        assertThat(n1).containsExactly("follower@1000-105000", "not_serving@105000-150000", "leader@150000-600000");
        JsonNode overlaps = d.path("servers").path("overlaps");
        assertThat(overlaps).hasSize(1);
        assertThat(overlaps.get(0).path("start").asLong()).isEqualTo(150_000);
        assertThat(overlaps.get(0).path("end").asLong()).isEqualTo(200_000);
        assertThat(overlaps.get(0).path("nodes").toString()).contains("n3 (epoch 1)", "n1 (epoch 2)");
        assertSelfContained(doc);
    }

    /** Nothing on the page may point anywhere: no external source, link or style, and a policy that forbids it. */
    private static void assertSelfContained(Document doc) {
        assertThat(doc.select("meta[http-equiv=Content-Security-Policy]").attr("content"))
                .contains("default-src 'none'");
        assertThat(doc.select("[src]")).isEmpty();
        assertThat(doc.select("link[href]").eachAttr("href")).allMatch(h -> h.startsWith("data:"));
        assertThat(doc.select("a[href]").eachAttr("href")).allMatch(h -> h.startsWith("#"));
        assertThat(doc.select("script")).hasSize(2);
    }

    @Test
    void aRunsConfigurationGivesItsFiguresAndEverySetting() {
        History h = new HistoryBuilder().invoke(1, "add", null, 1L, 10).ok(1, null, 20).build();
        RunSettings settings = new RunSettings("set-kill-leader",
                new RunSettings.Cluster("local", 5, "3.8.4", "AUTO", "zookeeper", List.of()),
                new RunSettings.Workload("set", 4, Map.of("keys", 3L, "rate", 100.0), Duration.ofSeconds(4),
                        Duration.ofSeconds(3), "THREAD"),
                new RunSettings.Nemesis("kill-leader", Duration.ofSeconds(4), Duration.ofSeconds(10)),
                CheckerOptions.defaults(), new RunSettings.Timing(Duration.ofSeconds(60), Duration.ofSeconds(10)), 7,
                "store", new RunSettings.Storage(false, true));
        RunDirectory run = RunDirs.write(tmp.resolve("parts"), settings, h, null, List.of());
        assertThat(run.readConfig()).contains(settings);
        Document doc = RunDirs.render(run);
        assertThat(doc.select("h1").text()).isEqualTo("set-kill-leader");
        assertThat(doc.getElementById("facts").text()).contains("nodes 5").contains("zookeeper 3.8.4")
                .contains("seed 7");
        assertThat(doc.select("table.config tr").eachText()).startsWith("workload set", "nemesis kill-leader",
                "nodes 5", "zookeeper 3.8.4", "backend local", "system zookeeper", "seed 7")
                .contains("workload.options.keys 3", "nemesis.faultFor PT4S", "storage.forceSync true")
                .noneMatch(row -> row.startsWith("command") || row.startsWith("scenario"));
    }

    @Test
    void aRunsConfigurationSavedBeforeItNamedItsCommandAndScenarioIsReadAsARuns() throws Exception {
        History h = new HistoryBuilder().invoke(1, "add", null, 1L, 10).ok(1, null, 20).build();
        RunDirectory run = RunDirs.write(tmp.resolve("older"), RunDirs.run("set", "kill-leader"), h, null,
                List.of());
        Files.writeString(run.configFile(), """
                {"cluster": {"backend": "local", "nodes": 3, "zookeeper": "3.9.5"},
                 "workload": {"name": "set", "concurrency": 5, "options": {"keys": 3}, "sessionTimeout": "PT4S",
                              "requestTimeout": "PT3S"},
                 "nemesis": {"name": "kill-leader", "faultFor": "PT10S", "healFor": "PT10S"},
                 "checks": {"failoverBound": "PT10S"}, "timing": {"timeLimit": "PT1M", "recover": "PT10S"},
                 "seed": 5, "out": "store"}
                """);
        assertThat(run.readConfig()).get().isInstanceOf(RunSettings.class);
        Document doc = RunDirs.render(run);
        assertThat(doc.select("h1").text()).isEqualTo("set-kill-leader");
        assertThat(doc.getElementById("facts").text()).contains("nodes 3").contains("seed 5");
        assertThat(doc.getElementById("notes").text()).doesNotContain("config.json");
    }

    @Test
    void aConfigurationThatIsNeitherARunsNorAChecksIsLeftOutWithANote() throws Exception {
        History h = new HistoryBuilder().invoke(1, "add", null, 1L, 10).ok(1, null, 20).build();
        RunDirectory run = RunDirs.write(tmp.resolve("flat"), RunDirs.run("set", "none"), h, null, List.of());
        Files.writeString(run.configFile(), "{\"workload\": \"set\", \"nemesis\": \"none\", \"nodes\": 3}");
        Document doc = RunDirs.render(run);
        assertThat(doc.select("h1").text()).as("the directory's name").isEqualTo("flat");
        assertThat(doc.getElementById("notes").text()).contains("config.json cannot be read");
        assertThat(doc.select("table.config")).isEmpty();
    }

    @Test
    void aRunOnHostsNamesTheHostOfEachNode() {
        History h = new HistoryBuilder().invoke(1, "add", null, 1L, 10).ok(1, null, 20).build();
        RunSettings r = RunDirs.run("set", "halves");
        r = new RunSettings(r.scenario(), new RunSettings.Cluster("ssh", 3, "3.9.5", "AUTO", "zookeeper", List.of(),
                List.of("db-a", "db-b", "db-c")), r.workload(), r.nemesis(), r.checks(), r.timing(), 3, r.out(),
                r.storage());
        Document doc = RunDirs.render(RunDirs.write(tmp.resolve("hosts"), r, h, null, List.of()));
        assertThat(doc.getElementById("facts").text()).contains("hosts n1 db-a, n2 db-b, n3 db-c");
        assertThat(doc.select("table.config").text()).contains("backend ssh").contains("hosts n1 db-a");
    }

    @Test
    void aRunOfTheFleNodesSaysSoAndNamesItsBugsNotAZooKeeperVersion() {
        History h = new HistoryBuilder().invoke(1, "add", null, 1L, 10).ok(1, null, 20).build();
        RunSettings fle = RunDirs.run("set", "kill-all");
        fle = new RunSettings("fle+ack-before-durable-set-kill-all", new RunSettings.Cluster("local", 3, "3.9.5",
                "AUTO", "fle", List.of("ack-before-durable")), fle.workload(), fle.nemesis(), fle.checks(),
                fle.timing(), 3, fle.out(), fle.storage());
        Document doc = RunDirs.render(RunDirs.write(tmp.resolve("fle"), fle, h, null, List.of()));
        assertThat(doc.select("h1").text()).isEqualTo("fle+ack-before-durable-set-kill-all");
        String facts = doc.getElementById("facts").text();
        assertThat(facts).contains("system fle").contains("bugs ack-before-durable").doesNotContain("zookeeper");
    }

    @Test
    void aLinearizabilityFailureShowsTheFailingOperationItsConcurrentOnesThePrefixAndTheStates() throws Exception {
        // Knossos's rethink-fail-minimal: write 0; then a read and a write of 4 run concurrently; the read says 3.
        History h = new HistoryBuilder()
                .invoke(0, "write", 0L, 0).ok(0, null, 1)
                .invoke(1, "read", null, 2).invoke(2, "write", 4L, 3).ok(1, 3L, 4).ok(2, null, 5)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("lin"), RunDirs.check("rethink-fail-minimal"), h,
                LinearizabilityChecker.builder(Models.byName("cas-register", 0L)).build(), List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("INVALID");
        assertThat(doc.select("p.headline a.ref").eachAttr("data-entry")).containsExactly("2", "4");
        Element lin = doc.getElementById("linearizability");
        assertThat(lin).isNotNull();
        Element failing = lin.selectFirst("tr.failing");
        assertThat(cells(failing)).containsSubsequence("1", "read -> 3", "3", "ok");
        assertThat(failing.select("a.ref").eachAttr("data-entry")).containsExactly("2", "4");
        assertThat(lin.select("ul.states code").eachText()).containsExactlyInAnyOrder("4", "0");
        assertThat(lin.select("h5").text()).contains("Longest linearizable prefix: 2 operation(s)");
        assertThat(lin.selectFirst("button.show").attr("data-entries").split(","))
                .contains("2", "4", "0", "1", "3", "5");
        assertThat(data(doc).path("marks").toString()).contains("{\"entry\":2,\"kind\":\"failing\"}");
    }

    @Test
    void lostCommitsAreListedWithTheirTimesAndTheServersThatLackThem() throws Exception {
        History h = new HistoryBuilder()
                .invoke(1, "add", 1L, 10).ok(1, null, 12)
                .invoke(2, "add", 2L, 20).ok(2, null, 25)
                .invoke(1, "add", 3L, 30).info(1, 40)
                .invoke(3, "add", 4L, 50).fail(3, 55)
                .nemesis("heal", FaultRecords.healed(), 60, 61)
                .invoke(9, "read", null, 100).ok(9, map("node", "n1", "values", List.of(1L, 2L, 3L)), 100)
                .invoke(9, "read", null, 101).ok(9, map("node", "n2", "values", List.of(1L, 4L)), 101)
                .invoke(9, "read", null, 102).ok(9, map("node", "n3", "values", List.of(1L, 99L)), 102)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("set"), RunDirs.run("set", "kill-leader"), h,
                CheckerCatalog.create("no-lost-commit", CheckerOptions.defaults()), List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("INVALID");
        Elements lost = doc.select("table.lost tr:has(td)");
        assertThat(lost).hasSize(1);
        assertThat(cells(lost.first())).containsExactly("2", "process 2", "0.020 s (entry 2)", "0.025 s (entry 3)",
                "n2, n3");
        assertThat(lost.first().select("a.ref").eachAttr("data-entry")).containsExactly("2", "3");
        assertThat(doc.select("table.unexpected tr:has(td)").eachText())
                .containsExactly("4 add failed n2 13", "99 never added n3 15");
        assertThat(data(doc).path("marks").toString()).contains("{\"entry\":2,\"kind\":\"lost\"}");
    }

    @Test
    void aResultsFileSavedBeforeFindingsHadAKindStillRendersAsPlainCardsWithANote() throws Exception {
        History h = new HistoryBuilder()
                .invoke(1, "add", 1L, 10).ok(1, null, 12)
                .invoke(2, "add", 2L, 20).ok(2, null, 25)
                .invoke(9, "read", null, 100).ok(9, map("node", "n1", "values", List.of(1L)), 100)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("old"), RunDirs.run("set", "kill-leader"), h,
                CheckerCatalog.create("no-lost-commit", CheckerOptions.defaults()), List.of());
        assertThat(RunDirs.render(run).select("table.lost tr:has(td)")).as("as this version saves it").hasSize(1);
        String saved = Files.readString(run.resultsFile());
        assertThat(saved).contains("\"kind\" : \"set\",");
        Files.writeString(run.resultsFile(), saved.replace("\"kind\" : \"set\",", ""));

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("INVALID");
        assertThat(doc.select("article[data-checker=no-lost-commit] .badge.invalid")).hasSize(1);
        assertThat(doc.select("article[data-checker=no-lost-commit] p.summary").text()).contains("lost");
        assertThat(doc.select("table.lost")).isEmpty();
        assertThat(doc.select("article[data-checker=no-lost-commit] pre").text()).contains("\"lost\"");
        assertThat(doc.getElementById("notes").text()).contains("results.json was written before findings had a kind");
    }

    @Test
    void twoLeadersAtOnceAreListedAndDrawnAsAnOverlap() throws Exception {
        // p1 leads; its server is paused at 100 ms and its session expires; p2 leads at 200 ms; p1 learns at 900 ms.
        // (A server pause freezes no candidate, so the whole overlap is judged against max-overlap.)
        History h = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, map("token", 1L, "czxid", 101L, "node", "p1"), 10)
                .nemesis("pause", map("fault", "pause", "description", "pause n3", "nodes", List.of("n3")), 100, 101)
                .ok(2, map("token", 2L, "czxid", 102L, "node", "p2"), 200)
                .nemesis("heal", FaultRecords.healed(), 850, 860)
                .invoke(1, "release", map("token", 1L, "reason", "session-expired"), 900).ok(1, null, 901)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("election"), RunDirs.run("election", "pause-leader"), h,
                CheckerCatalog.create("single-leader", CheckerOptions.defaults().withMaxOverlap(
                        Duration.ofMillis(500))), List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("INVALID");
        Elements overlaps = doc.select("table.overlaps tr:has(td)");
        assertThat(overlaps).hasSize(1);
        assertThat(cells(overlaps.first())).containsSubsequence("p1 (token 1, process 1)", "p2 (token 2, process 2)",
                "0.200 s (entry 5)", "700.0 ms", "yes");
        assertThat(doc.select("article[data-checker=single-leader] ol.findings li").text())
                .contains("overlapped for 700.0 ms, more than max-overlap 500.0 ms");
        JsonNode leaders = data(doc).path("leaders");
        assertThat(leaders.path("intervals")).hasSize(2);
        assertThat(leaders.path("overlaps")).hasSize(1);
        assertThat(leaders.path("overlaps").get(0).path("start").asLong()).isEqualTo(200_000);
        assertThat(leaders.path("overlaps").get(0).path("end").asLong()).isEqualTo(900_000);
        assertThat(doc.select("table.faults td").eachText()).contains("pause n3");
    }

    @Test
    void anOverlapWhileTheStaleLeadersOwnProcessWasFrozenIsReportedNotFailed() throws Exception {
        // The same, but the nemesis froze p1's own process (a client pause names the candidate): of the 700 ms
        // only the 50 ms after the heal count against max-overlap.
        History h = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, map("token", 1L, "czxid", 101L, "node", "p1"), 10)
                .nemesis("pause-leader-client", map("fault", "pause-leader-client", "description", "pause p1",
                        "nodes", List.of("p1")), 100, 101)
                .ok(2, map("token", 2L, "czxid", 102L, "node", "p2"), 200)
                .nemesis("heal", FaultRecords.healed(), 850, 860)
                .invoke(1, "release", map("token", 1L, "reason", "session-expired"), 900).ok(1, null, 901)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("frozen"), RunDirs.run("election", "pause-leader-client"),
                h, CheckerCatalog.create("single-leader", CheckerOptions.defaults().withMaxOverlap(
                        Duration.ofMillis(500))), List.of());
        Document doc = RunDirs.render(run);
        assertThat(doc.getElementById("verdict").text()).isEqualTo("valid");
        assertThat(doc.select("table.overlaps tr:has(td)")).hasSize(1);
        assertThat(data(doc).path("leaders").path("overlaps")).hasSize(1);
    }

    @Test
    void aStaleReadShowsTheReadTheWriteItMissedAndTheSession() throws Exception {
        History h = new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(1, "cas", "x", List.of(2L, 3L), 40).ok(1, null, 50)
                .invoke(2, "read", "x", null, 60).ok(2, 1L, 61)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("stale"), RunDirs.run("register", "none"), h,
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults().withStrict(true)), List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("INVALID");
        Elements stale = doc.select("table.stale tr:has(td)");
        assertThat(stale).hasSize(1);
        assertThat(cells(stale.first())).containsExactly("process 2", "x", "1", "0.060 s (entry 6)", "2",
                "process 1", "0.030 s (entries 2–3)", "30.0 ms");
    }

    @Test
    void valuesFromTheHistoryAreTextNeverMarkup() throws Exception {
        String script = "<script>alert(1)</script>";
        String img = "<img src=x onerror=alert(2)>";
        History h = new HistoryBuilder()
                .invoke(1, "write", "<i class=\"pwn\">k</i>", script, 0).ok(1, null, 10)
                .invoke(2, "read", "<i class=\"pwn\">k</i>", null, 20).ok(2, script, 25)
                .nemesis("partition", map("fault", "partition", "description", img, "nodes", List.of("n1")), 30, 31)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("markup"), RunDirs.check("</title><script>alert(3)</script>"), h,
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.select("script")).hasSize(2);
        assertThat(doc.select("img")).isEmpty();
        assertThat(doc.select("i.pwn")).isEmpty();
        assertThat(doc.title()).contains("</title><script>alert(3)</script>");
        assertThat(doc.select("h1").text()).isEqualTo("</title><script>alert(3)</script>");
        assertThat(doc.select("table.faults td").eachText()).contains(img);
        String raw = doc.getElementById("data").data();
        assertThat(raw).doesNotContain("<script").doesNotContain("<img").doesNotContain("</")
                .contains("\\u003Cscript\\u003E");
        JsonNode d = data(doc);
        assertThat(d.path("operations").path("input").get(0).asText()).isEqualTo("\"" + script + "\"");
        assertThat(d.path("keys").get(0).asText()).isEqualTo("<i class=\"pwn\">k</i>");
    }

    @Test
    void jepsensNemesisPairsOfInfoEntriesMakeOneFaultWindowEach() throws Exception {
        List<Op> ops = List.of(
                Op.invoke(0, 0, "write", null, 1L, 1_000_000), new Op(1, 0, OpType.OK, "write", null, 1L, null, 2_000_000),
                new Op(2, Op.NEMESIS, OpType.INFO, "start", null, null, null, 3_000_000),
                new Op(3, Op.NEMESIS, OpType.INFO, "start", null, "Cut off {n1 [n2 n3]}", null, 4_000_000),
                new Op(4, Op.NEMESIS, OpType.INFO, "stop", null, null, null, 9_000_000),
                new Op(5, Op.NEMESIS, OpType.INFO, "stop", null, "fully connected", null, 10_000_000));
        RunDirectory run = RunDirs.write(tmp.resolve("jepsen"), RunDirs.check("jepsen"), History.of(ops), null,
                List.of());

        Document doc = RunDirs.render(run);

        Elements faults = doc.select("table.faults tr:has(td)");
        assertThat(faults).hasSize(1);
        assertThat(cells(faults.first())).containsSubsequence("start", "start \"Cut off {n1 [n2 n3]}\"", "0.003 s",
                "7.0 ms");
    }

    @Test
    void overlappingFaultsEachEndAtTheHealThatNamesThem() throws Exception {
        // --compose: halves from 3 to 9 ms, kill-random from 5 to 13 ms; the final heal ends what is left
        List<Op> ops = List.of(
                Op.invoke(0, 0, "write", null, 1L, 1_000_000), new Op(1, 0, OpType.OK, "write", null, 1L, null, 2_000_000),
                new Op(2, Op.NEMESIS, OpType.INVOKE, "halves", null, "halves", null, 3_000_000),
                new Op(3, Op.NEMESIS, OpType.INFO, "halves", null, Map.of("description", "cut n1"), null, 4_000_000),
                new Op(4, Op.NEMESIS, OpType.INVOKE, "kill-random", null, "kill-random", null, 5_000_000),
                new Op(5, Op.NEMESIS, OpType.INFO, "kill-random", null, Map.of("description", "kill n2"), null,
                        6_000_000),
                new Op(6, Op.NEMESIS, OpType.INVOKE, "heal", null, "halves", null, 8_000_000),
                new Op(7, Op.NEMESIS, OpType.INFO, "heal", null, Map.of("description", "heal"), null, 9_000_000),
                new Op(8, Op.NEMESIS, OpType.INVOKE, "heal", null, "all", null, 12_000_000),
                new Op(9, Op.NEMESIS, OpType.INFO, "heal", null, Map.of("description", "heal"), null, 13_000_000));
        RunDirectory run = RunDirs.write(tmp.resolve("compose"), RunDirs.check("compose"), History.of(ops), null,
                List.of());

        Elements faults = RunDirs.render(run).select("table.faults tr:has(td)");
        assertThat(faults).hasSize(2);
        assertThat(cells(faults.get(0))).containsSubsequence("halves", "cut n1", "0.003 s", "6.0 ms");
        assertThat(cells(faults.get(1))).containsSubsequence("kill-random", "kill n2", "0.005 s", "8.0 ms");
    }

    @Test
    void aRunThatWasNeverCheckedStillRendersAndSaysSo() throws Exception {
        History h = new HistoryBuilder().invoke(1, "add", 1L, 10).ok(1, null, 12).invoke(2, "add", 2L, 20).build();
        RunDirectory run = RunDirs.write(tmp.resolve("crashed"), RunDirs.run("set", "none"), h, null,
                List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("NOT CHECKED");
        assertThat(doc.getElementById("notes").text()).contains("never checked");
        JsonNode d = data(doc);
        assertThat(d.path("operations").path("outcome").toString()).isEqualTo("[0,3]"); // ok, never completed
    }

    @Test
    void aHistoryWithoutTimesIsDrawnByEntryNumber() throws Exception {
        List<Op> ops = List.of(Op.invoke(0, 0, "write", null, 1L, -1),
                new Op(1, 0, OpType.OK, "write", null, 1L, null, -1));
        RunDirectory run = RunDirs.write(tmp.resolve("edn"), RunDirs.check("imported"), History.of(ops),
                LinearizabilityChecker.builder(Models.byName("register", 0L)).build(), List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("notes").text()).contains("no times").contains("entry number");
        JsonNode d = data(doc);
        assertThat(d.path("hasTimes").asBoolean()).isFalse();
        assertThat(d.path("operations").path("start").get(0).asLong()).isEqualTo(0);
        assertThat(d.path("operations").path("end").get(0).asLong()).isEqualTo(1);
    }

    @Test
    void longValuesAreCutShortOnThePageAndCounted() throws Exception {
        List<Long> many = new ArrayList<>(LongStream.rangeClosed(1, 2_000).boxed().toList());
        History h = new HistoryBuilder().invoke(1, "read", null, 0).ok(1, map("node", "n1", "values", many), 5).build();
        RunDirectory run = RunDirs.write(tmp.resolve("long"), RunDirs.check("long"), h, null, List.of());

        Document doc = RunDirs.render(run);

        JsonNode d = data(doc);
        assertThat(d.path("clippedValues").asInt()).isEqualTo(1);
        assertThat(d.path("operations").path("output").get(0).asText()).hasSizeLessThan(RunPages.MAX_VALUE_CHARS + 60)
                .contains("more characters");
        assertThat(doc.getElementById("notes").text()).contains("1 value(s) longer than 160 characters");
        assertThat(Files.size(run.reportFile())).isLessThan(Files.size(run.historyFile()) + 200_000);
    }
}
