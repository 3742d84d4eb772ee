package io.zkchaos.results.report;

import static io.zkchaos.results.report.RunDirs.server;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.servers.AvailabilityReport;
import io.zkchaos.checkers.servers.LogRule.Verdict;
import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.checkers.servers.ServerReport;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.ServerEventLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "What the servers said": the server and availability checkers' tables, servers.jsonl, and the marks on the servers'
 * lanes in "Who led when", rendered from run directories as runs leave them, old ones included.
 */
class ServersSectionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long S = 1_000_000_000L;

    @TempDir
    Path tmp;

    private static JsonNode data(Document doc) throws Exception {
        return JSON.readTree(doc.getElementById("data").data());
    }

    /** A 6 s register run: n2 killed by the nemesis at 1 s and restarted at 3 s; n1 exits by itself at 4.2 s. */
    private static History history() {
        return new HistoryBuilder()
                .invoke(1, "write", "r0", 1L, 0).ok(1, null, 10)
                .nemesis("kill", FaultRecords.kill("n2"), 1_000, 1_010)
                .invoke(1, "write", "r0", 2L, 2_000).ok(1, null, 2_100)
                .nemesis("heal", FaultRecords.healed(), 3_000, 3_010)
                .invoke(2, "read", "r0", null, 3_800).ok(2, 2L, 3_900)
                .invoke(1, "write", "r0", 3L, 5_500).ok(1, null, 6_000)
                .build();
    }

    private static List<ServerEvent> events() {
        return List.of(
                event("n1", ServerEvent.Kind.STARTED, 0, ServerEvent.BY_HARNESS, null, null, null),
                event("n2", ServerEvent.Kind.STARTED, 0, ServerEvent.BY_HARNESS, null, null, null),
                event("n3", ServerEvent.Kind.STARTED, 0, ServerEvent.BY_HARNESS, null, null, null),
                event("n2", ServerEvent.Kind.EXITED, S, ServerEvent.BY_NEMESIS, "kill", 137, "KILL"),
                event("n2", ServerEvent.Kind.STARTED, 3 * S, ServerEvent.BY_NEMESIS, "kill", null, null),
                new ServerEvent("n1", ServerEvent.Kind.EXITED, 4_200_000_000L, 0, null, null, 1, null,
                        List.of("ERROR [QuorumPeer] - Severe unrecoverable error, exiting"), null, null));
    }

    private static ServerEvent event(String node, ServerEvent.Kind kind, long nanos, String by, String fault,
                                     Integer code, String signal) {
        return new ServerEvent(node, kind, nanos, 0, by, fault, code, signal, List.of(), null, null);
    }

    /** n1's crash is a finding; an NPE is an error; a known race is excused with its reason; n3's rejoins excused. */
    private static ServerReport serverReport() {
        ServerReport.Occurrence npe = new ServerReport.Occurrence("n1", 2_500_000_000L, 40,
                "WARN [QuorumPeer[myid=1]] Learner - Exception when following the leader");
        ServerReport.Occurrence race = new ServerReport.Occurrence("n3", 1_500_000_000L, 12,
                "WARN [NIOWorkerThread-1] NIOServerCnxn - Unexpected exception");
        ServerReport.Occurrence eof = new ServerReport.Occurrence("n2", 1_100_000_000L, 7,
                "WARN [QuorumPeer[myid=2]] Follower - Exception when following the leader");
        return new ServerReport("the harness's server events (6, 0 clock moves)",
                List.of(new ServerReport.NodeRead("n1", 220, 140, 1, 0L, 4_200_000_000L, 1, 1),
                        new ServerReport.NodeRead("n2", 180, 120, 2, 0L, 6_000_000_000L, 2, 2)),
                List.of("n3: no server.log"),
                List.of(new ServerReport.SignatureCount("java.lang.NullPointerException at Learner.syncWithLeader",
                                "java.lang.NullPointerException", "java.lang.NullPointerException",
                                List.of("org.apache.zookeeper.server.quorum.Learner.syncWithLeader",
                                        "org.apache.zookeeper.server.quorum.Follower.followLeader"), Verdict.ERROR,
                                "a programming error", "server-log-rules.tsv:27", 2, List.of("n1"), npe,
                                "java.lang.NullPointerException: qp is null"),
                        new ServerReport.SignatureCount("java.lang.IllegalStateException at NIOServerCnxn.doIO",
                                "java.lang.IllegalStateException", "java.lang.IllegalStateException",
                                List.of("org.apache.zookeeper.server.NIOServerCnxn.doIO"), Verdict.EXCUSED,
                                "ZOOKEEPER-9999: a closed connection read once more; harmless", "server-log-rules.tsv:40",
                                3, List.of("n3"), race, "java.lang.IllegalStateException: closed"),
                        new ServerReport.SignatureCount("java.io.EOFException at Learner.readPacket",
                                "java.io.EOFException", "java.io.EOFException",
                                List.of("org.apache.zookeeper.server.quorum.Learner.readPacket"), Verdict.EXPECTED,
                                "the leader went away", "server-log-rules.tsv:12", 5, List.of("n2", "n3"), eof,
                                "java.io.EOFException: null")),
                List.of(new ServerReport.Crash("n1", 4_200_000_000L, 1, null,
                        List.of("ERROR [QuorumPeer] - Severe unrecoverable error, exiting"), null, null)),
                List.of(),
                List.of(new ServerReport.RejoinLoop("n3", 4, 1_200_000_000L, 2_000_000_000L, 2_800_000_000L,
                        List.of(), "kill on n2 (1.00 s to 3.00 s, excuses rejoin for 10.00 s after)")),
                true, 3, 60 * S, 30 * S, List.of("n1 exited by itself at 4.200 s (exit code 1)"));
    }

    /** No whole majority from 1 s to 3 s; n1 acknowledged nothing from 4.0 s to 5.5 s. */
    private static AvailabilityReport availabilityReport() {
        AvailabilityReport.Stretch whole = new AvailabilityReport.Stretch(3 * S, 6 * S, List.of("n1", "n2", "n3"),
                List.of());
        AvailabilityReport.Stretch excused = new AvailabilityReport.Stretch(S, 3 * S, List.of("n1"),
                List.of("kill on n2", "isolate on n3"));
        return new AvailabilityReport(1_000, List.of("n1", "n2", "n3"), 60, 50, 1, 3_000, List.of(excused),
                List.of(new AvailabilityReport.Stall("n1", whole, 4 * S, 5_500_000_000L, 3_900_000_000L, 6L, 4,
                        "ConnectionLoss")));
    }

    private RunDirectory run(String name, boolean withEvents) {
        RunDirectory run = RunDirs.write(tmp.resolve(name), RunDirs.run("register", "kill"), history(), null,
                List.of(server(1, "n1", "leader", 1), server(1, "n2", "follower", 1), server(1, "n3", "follower", 1)));
        run.writeResults(new CheckResult("register", Validity.INVALID, "the servers' account has findings", null,
                List.of(CheckResult.of("server", Validity.INVALID, "1 crash, 1 error signature", serverReport()),
                        CheckResult.of("availability", Validity.INVALID, "1 stall", availabilityReport()))));
        if (withEvents) {
            try (ServerEventLog.Appender log = ServerEventLog.append(run.serversFile())) {
                events().forEach(log::write);
            }
        }
        return run;
    }

    @Test
    void theServersAccountHasItsSectionUnexcusedFindingsFirst() {
        Document doc = RunDirs.render(run("full", true));

        Element section = doc.getElementById("servers-section");
        assertThat(section.selectFirst("h2").text()).isEqualTo("What the servers said");
        assertThat(doc.getElementById("servers-missing")).as("nothing is missing").isNull();
        assertThat(doc.getElementById("servers-chart-hint").text()).contains("Click a mark to go to its row here");
        assertThat(doc.getElementById("account-legend").text()).contains("first occurrence of an error signature");
        Element card = section.selectFirst("article.servers-card[data-checker=server]");
        assertThat(card.select(".badge").text()).isEqualTo("INVALID");
        // Not excused, first: the crash (how it ended, the nemesis then, the last lines folded), then the error.
        List<String> headings = card.select("h4, h5").eachText();
        assertThat(headings).containsSubsequence("Not excused", "Crashes: a server process that ended by itself",
                "Programming errors logged", "Excused by a fault", "Every signature logged", "What was read");
        Element crash = card.selectFirst("table.crashes tr#srv-crash-0");
        assertThat(crash.select("td").eachText()).startsWith("n1", "4.200 s", "exit code 1", "nothing");
        assertThat(crash.selectFirst("details pre").text()).contains("Severe unrecoverable error, exiting");
        Element error = card.selectFirst("table.errors tr.bad");
        assertThat(error.select("td").get(0).text()).contains("java.lang.NullPointerException")
                .contains("qp is null");
        assertThat(error.select("td").get(1).text()).contains("Learner.syncWithLeader")
                .contains("Follower.followLeader");
        assertThat(error.select("td").get(2).text()).isEqualTo("2");
        assertThat(error.selectFirst("a").attr("href")).isEqualTo("#srv-sig-0");
        // Excused: n3's rejoins, with the fault that excuses them.
        assertThat(card.select("table.excused tr#srv-rejoin-0 td").eachText()).containsExactly(
                "rejoin loop (4 syncs)", "n3", "1.200 s to 2.800 s",
                "kill on n2 (1.00 s to 3.00 s, excuses rejoin for 10.00 s after)");
        // Every signature with its verdict; the excused one shows its reason.
        assertThat(card.select("table.signatures tr[id]").eachAttr("class"))
                .containsExactly("sig-error", "sig-excused", "sig-expected");
        assertThat(doc.getElementById("srv-sig-1").select("td").eachText()).containsSubsequence(
                "excused", "3", "n3", "ZOOKEEPER-9999: a closed connection read once more; harmless",
                "server-log-rules.tsv:40");
        assertThat(card.select("table.reads tr:has(td)").eachText()).containsExactly(
                "n1 220 140 1 0.000 s 4.200 s 1 1", "n2 180 120 2 0.000 s 6.000 s 2 2");
        assertThat(card.select("li.missing-log").text()).isEqualTo("not read: n3: no server.log");
        assertThat(card.select("ul.reads-notes").text()).contains("the harness's server events")
                .contains("3 syncs within 60.00 s without serving make a loop");

        Element avail = section.selectFirst("article.servers-card[data-checker=availability]");
        assertThat(avail.select("table.stalls tr#stall-0 td").eachText()).containsSubsequence("n1",
                "4.000 s to 5.500 s", "1.50 s", "3.900 s (entry 6)", "4", "ConnectionLoss", "n1, n2, n3");
        assertThat(avail.select("table.stalls a.ref").attr("data-entry")).isEqualTo("6");
        assertThat(avail.select("p.judged").text()).isEqualTo("Judged (a whole majority): 1 stretch, 3.00 s in all.");
        assertThat(avail.select("table.stretches tr:has(td)").eachText()).containsExactly(
                "1.000 s to 3.000 s 2.00 s n1 kill on n2; isolate on n3");

        // The processes as servers.jsonl recorded them, the crash marked.
        assertThat(section.select("details.processes summary").text())
                .isEqualTo("4 starts, 2 exits (1 by itself)");
        assertThat(section.select("table.processes tr.bad td").eachText())
                .containsExactly("n1", "4.200 s", "exited", "by itself", "exit code 1");
        assertThat(section.select("table.processes tr:has(td)").eachText())
                .contains("n2 1.000 s exited the nemesis (kill) signal KILL (exit code 137)");

        // In the checkers' list, each card keeps its verdict and findings and links to its tables here.
        Element listed = doc.selectFirst("#checkers article[data-checker=server]");
        assertThat(listed.select("ol.findings").text()).contains("n1 exited by itself at 4.200 s");
        String link = listed.selectFirst("p.to-servers a").attr("href");
        assertThat(doc.getElementById(link.substring(1))).isSameAs(card);
        assertThat(listed.select("details")).as("the raw details are shown once, with the tables").isEmpty();
        // Every link on the page goes to something on it.
        for (String href : doc.select("a[href^=#]:not(.ref)").eachAttr("href")) {
            assertThat(href.length() == 1 || doc.getElementById(href.substring(1)) != null)
                    .as("target of " + href).isTrue();
        }
    }

    @Test
    void theChartsDataPutsEachMarkOnItsServersLaneAtItsTime() throws Exception {
        Document doc = RunDirs.render(run("marks", true));
        JsonNode a = data(doc).path("account");

        assertThat(a.path("nodes").toString()).isEqualTo("[\"n1\",\"n2\",\"n3\"]");
        List<String> procs = new ArrayList<>();
        a.path("processes").forEach(p -> procs.add(p.path("node").asText() + " " + p.path("kind").asText() + " @"
                + p.path("at").asLong() + (p.path("id").isTextual() ? " #" + p.path("id").asText() : "")));
        assertThat(procs).containsExactly("n1 start @0", "n2 start @0", "n3 start @0", "n2 exit @1000000",
                "n2 start @3000000", "n1 crash @4200000 #srv-crash-0");
        JsonNode crash = a.path("processes").get(5);
        assertThat(crash.path("excused").isNull()).isTrue();
        assertThat(crash.path("text").asText()).isEqualTo("n1 exited by itself (exit code 1)");
        assertThat(doc.getElementById("srv-crash-0")).as("the crash's mark links to its row").isNotNull();

        List<String> sigs = new ArrayList<>();
        a.path("signatures").forEach(s -> sigs.add(s.path("node").asText() + " " + s.path("verdict").asText() + " @"
                + s.path("at").asLong() + " #" + s.path("id").asText()));
        assertThat(sigs).containsExactly("n1 error @2500000 #srv-sig-0", "n3 excused @1500000 #srv-sig-1",
                "n2 expected @1100000 #srv-sig-2");
        assertThat(a.path("signatures").get(0).path("text").asText()).contains("NullPointerException")
                .contains("first at line 40");
        assertThat(doc.getElementById("srv-sig-0").hasClass("sig-error")).isTrue();

        JsonNode loop = a.path("loops").get(0);
        assertThat(loop.path("node").asText()).isEqualTo("n3");
        assertThat(loop.path("kind").asText()).isEqualTo("rejoin-loop");
        assertThat(loop.path("start").asLong()).isEqualTo(1_200_000);
        assertThat(loop.path("end").asLong()).isEqualTo(2_800_000);
        assertThat(loop.path("excused").asText()).startsWith("kill on n2");
        assertThat(loop.path("id").asText()).isEqualTo("srv-rejoin-0");

        JsonNode stall = a.path("stalls").get(0);
        assertThat(stall.path("node").asText() + " " + stall.path("start").asLong() + "-" + stall.path("end").asLong())
                .isEqualTo("n1 4000000-5500000");
        assertThat(doc.getElementById(stall.path("id").asText())).isNotNull();
        JsonNode shade = a.path("excused").get(0);
        assertThat(shade.path("start").asLong() + "-" + shade.path("end").asLong()).isEqualTo("1000000-3000000");
        assertThat(shade.path("text").asText()).contains("no whole majority").contains("kill on n2; isolate on n3");
    }

    @Test
    void aCrashServersJsonlRecordedIsDrawnEvenWithoutTheServerCheckersFindings() throws Exception {
        RunDirectory run = RunDirs.write(tmp.resolve("events-only"), RunDirs.run("register", "kill"), history(),
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of());
        try (ServerEventLog.Appender log = ServerEventLog.append(run.serversFile())) {
            events().forEach(log::write);
        }

        Document doc = RunDirs.render(run);

        JsonNode crash = data(doc).path("account").path("processes").get(5);
        assertThat(crash.path("node").asText() + " " + crash.path("kind").asText() + " @" + crash.path("at").asLong())
                .isEqualTo("n1 crash @4200000");
        assertThat(crash.path("id").isNull()).as("no card lists it").isTrue();
        assertThat(doc.getElementById("servers-missing").select("li").eachText()).satisfiesExactly(
                m -> assertThat(m).contains("no server checker's findings"),
                m -> assertThat(m).contains("no availability checker's findings"));
        assertThat(doc.select("article.servers-card")).isEmpty();
        assertThat(doc.select("#servers-section table.processes tr.bad")).hasSize(1);
    }

    @Test
    void aRunRecordedBeforeTheServersAccountStillRendersAndSaysWhatIsMissing() throws Exception {
        // As a run before issue 34 left it: no servers.jsonl, results.json without the two checkers.
        RunDirectory run = RunDirs.write(tmp.resolve("old"), RunDirs.run("register", "kill"), history(),
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of(
                        server(1, "n1", "leader", 1), server(1, "n2", "follower", 1)));
        assertThat(run.serversFile()).doesNotExist();

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("valid");
        assertThat(doc.getElementById("servers-missing").select("li").eachText()).satisfiesExactly(
                m -> assertThat(m).contains("no server checker's findings"),
                m -> assertThat(m).contains("no availability checker's findings"),
                m -> assertThat(m).startsWith("No servers.jsonl"));
        assertThat(doc.select("#servers-section").text()).contains("Not recorded for this run.");
        assertThat(doc.getElementById("servers-chart-hint")).as("no marks to explain").isNull();
        assertThat(doc.getElementById("account-legend")).isNull();
        assertThat(data(doc).has("account")).isTrue();
        assertThat(data(doc).path("account").isNull()).as("nothing for the chart to mark").isTrue();
        assertThat(data(doc).path("servers").path("nodes")).hasSize(2);
    }

    @Test
    void aBrokenServersFileIsNamedAndThePageStillRenders() throws Exception {
        RunDirectory run = run("broken", false);
        Files.writeString(run.serversFile(), "{\"node\":\"n1\",\"kind\":\"STARTED\",\"timeNanos\":0}\nnot json\n"
                + "{\"node\":\"n1\",\"kind\":\"EXITED\",\"timeNanos\":5}\n");

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("notes").text()).contains("servers.jsonl cannot be read")
                .contains("line 2");
        assertThat(doc.getElementById("servers-missing").text()).contains("No servers.jsonl");
        // The checkers' findings are still drawn: the crash from the server card.
        JsonNode crash = data(doc).path("account").path("processes").get(0);
        assertThat(crash.path("kind").asText() + " " + crash.path("id").asText()).isEqualTo("crash srv-crash-0");
        assertThat(crash.path("text").asText()).isEqualTo("n1 exited by itself: exit code 1");
    }
}
