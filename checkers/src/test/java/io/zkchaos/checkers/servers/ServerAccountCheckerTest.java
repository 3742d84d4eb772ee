package io.zkchaos.checkers.servers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.servers.LogRule.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerAccountCheckerTest {

    private static final long S = 1_000_000_000L;
    private static final Instant START = Instant.parse("2026-12-06T06:11:00Z");
    private static final String THREAD = "[QuorumPeer[myid=1](plain=127.0.0.101:46171)(secure=disabled)]";

    @TempDir
    Path tmp;

    private final ServerAccountChecker checker = new ServerAccountChecker(ServerAccountChecker.Settings.defaults());

    /** The history began at START; the harness started every node then. */
    private static List<ServerEvent> startedAll(String... nodes) {
        List<ServerEvent> events = new ArrayList<>();
        for (String n : nodes) {
            events.add(ServerClockTest.started(n, START, 0));
        }
        return events;
    }

    private static ServerEvent event(String node, ServerEvent.Kind kind, long seconds, String by) {
        return new ServerEvent(node, kind, seconds * S, START.toEpochMilli() + seconds * 1000, by,
                "nemesis".equals(by) ? "kill-leader" : null, kind == ServerEvent.Kind.EXITED ? 1 : null, null,
                kind == ServerEvent.Kind.EXITED ? List.of("06:11:50.000 ERROR [main] QuorumPeerMain - Unexpected "
                + "exception, exiting abnormally") : List.of(), null, null);
    }

    private static ServerReport report(CheckResult r) {
        return (ServerReport) r.details();
    }

    private CheckResult check(List<ServerEvent> events, Map<String, List<String>> logs, List<FaultWindow> faults) {
        return checker.check(new ServerAccount(events, List.copyOf(logs.keySet()), logs, faults, 60 * S));
    }

    @Test
    void realLogsUnderKillLeaderAreValidTheirIoExceptionsCountedNotFindings() {
        Map<String, List<String>> logs = new LinkedHashMap<>();
        logs.put("n1", Excerpts.lines(Excerpts.FLE));
        logs.put("n2", Excerpts.lines(Excerpts.ZK357));
        logs.put("n3", Excerpts.lines(Excerpts.ZK395));
        CheckResult r = check(startedAll("n1", "n2", "n3"), logs, List.of());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        ServerReport rep = report(r);
        assertThat(rep.signatures()).isNotEmpty().allMatch(s -> s.verdict() == Verdict.EXPECTED);
        assertThat(rep.signatures()).anySatisfy(s -> {
            assertThat(s.signature()).isEqualTo("java.io.EOFException at QuorumCnxManager$RecvWorker.run");
            assertThat(s.nodes()).containsExactly("n2", "n3");
            assertThat(s.rule()).startsWith(LogRules.BUILT_IN + ":");
        });
        assertThat(rep.signatures()).anySatisfy(s -> assertThat(s.sample()).isEqualTo(
                "java.lang.Exception: shutdown Follower"));
        assertThat(rep.nodes()).extracting(ServerReport.NodeRead::node).containsExactly("n1", "n2", "n3");
        assertThat(rep.nodes().get(1).syncs()).isEqualTo(2);
        assertThat(rep.nodes().get(1).servings()).isEqualTo(2);
        assertThat(rep.nodes().get(2).starts()).isEqualTo(2);
        long lines = 26 + 131 + 163;
        assertThat(rep.nodes().stream().mapToInt(ServerReport.NodeRead::lines).sum()).isEqualTo(lines);
        assertThat(r.summary()).startsWith("3 logs, 320 lines; " + rep.signatures().size()
                + " exception signatures: 0 errors, " + rep.signatures().size() + " expected, 0 other; 0 crashes; "
                + "syncs 3, no rejoin loop");
    }

    @Test
    void aPlantedProgrammingErrorIsAFindingWithItsSignatureShown() {
        CheckResult r = check(startedAll("n1"), Map.of("n1", Excerpts.lines(Excerpts.PLANTED_NPE)), List.of());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        ServerReport rep = report(r);
        assertThat(rep.errors()).hasSize(2);
        ServerReport.SignatureCount npe = rep.errors().get(0);
        assertThat(npe.signature()).isEqualTo("java.lang.NullPointerException at Learner.syncWithLeader < "
                + "Follower.followLeader < QuorumPeer.run");
        assertThat(npe.count()).isEqualTo(2);
        assertThat(npe.first().lineNumber()).isEqualTo(6);
        assertThat(npe.first().timeNanos()).isEqualTo(9_953_000_000L);
        assertThat(npe.sample()).startsWith("java.lang.NullPointerException: Cannot invoke");
        assertThat(rep.errors().get(1).root()).isEqualTo("java.lang.IllegalStateException");
        assertThat(rep.signatures()).anySatisfy(s -> {
            assertThat(s.verdict()).isEqualTo(Verdict.OTHER);
            assertThat(s.signature()).isEqualTo("line \"Severe unrecoverable error\"");
        });
        assertThat(r.summary()).startsWith("programming error java.lang.NullPointerException at Learner.syncWithLeader")
                .contains("logged 2× by n1, first by n1 at 9.95 s").contains("3 exception signatures: 2 errors");
    }

    /** A follower's real sync line at {@code time}, and the line that says it serves. */
    private static String diff(String time) {
        return time + " INFO  " + THREAD + " Learner - Getting a diff from the leader 0x200000188";
    }

    private static String broadcast(String time) {
        return time + " INFO  " + THREAD + " QuorumPeer - Peer state changed: following - broadcast";
    }

    /** n1 syncs at 10, 20, 30 and 40 s and serves at 41 s; with {@code servingBetween}, also after 10 and 20 s. */
    private static Map<String, List<String>> rejoining(boolean servingBetween) {
        List<String> n1 = new ArrayList<>(List.of("==== zkchaos: starting n1 at 2026-12-06T06:11:00.000Z",
                diff("06:11:10.000")));
        if (servingBetween) {
            n1.add(broadcast("06:11:10.100"));
        }
        n1.add(diff("06:11:20.000"));
        if (servingBetween) {
            n1.add(broadcast("06:11:20.100"));
        }
        // the fle nodes' form counts the same
        n1.add("06:11:30.000 INFO  [n1-main] Follower - n1: sync with leader n2: SNAP at 3.12");
        n1.add(diff("06:11:40.000"));
        n1.add(broadcast("06:11:41.000"));
        Map<String, List<String>> logs = new LinkedHashMap<>();
        logs.put("n1", n1);
        logs.put("n2", List.of("==== zkchaos: starting n2 at 2026-12-06T06:11:00.000Z", broadcast("06:11:02.000")));
        return logs;
    }

    @Test
    void syncingThreeTimesInAMinuteWithoutServingIsARejoinLoop() {
        CheckResult r = check(startedAll("n1", "n2"), rejoining(false), List.of());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        ServerReport.RejoinLoop loop = report(r).rejoinLoops().get(0);
        assertThat(loop.node()).isEqualTo("n1");
        assertThat(loop.syncs()).isEqualTo(4);
        assertThat(loop.firstNanos()).isEqualTo(10 * S);
        assertThat(loop.foundNanos()).isEqualTo(30 * S);
        assertThat(loop.lastNanos()).isEqualTo(40 * S);
        assertThat(loop.lines().get(2).text()).contains("sync with leader n2: SNAP");
        assertThat(loop.excusedBy()).isNull();
        assertThat(r.summary()).startsWith("n1 started syncing with a leader 4 times from 10.00 s to 40.00 s");
    }

    @Test
    void aRejoinLoopUnderAFaultThatExcusesRejoiningIsShownExcused() {
        FaultWindow isolate = new FaultWindow("isolate-follower", List.of("n1"), 8 * S, 25 * S,
                Set.of(ServerBehaviour.REJOIN), 10 * S);
        CheckResult r = check(startedAll("n1", "n2"), rejoining(false), List.of(isolate));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(report(r).rejoinLoops()).singleElement().extracting(ServerReport.RejoinLoop::excusedBy)
                .asString().startsWith("isolate-follower on n1 (8.00 s to 25.00 s, excuses rejoin for 10.00 s");
        assertThat(r.summary()).endsWith("1 rejoin loop (1 excused)");
        // a fault on another node, or one that excuses only exits, does not
        FaultWindow other = new FaultWindow("isolate-follower", List.of("n2"), 8 * S, 25 * S,
                Set.of(ServerBehaviour.REJOIN), 10 * S);
        FaultWindow exits = new FaultWindow("kill-random", List.of("n1"), 8 * S, 25 * S,
                Set.of(ServerBehaviour.EXIT), 10 * S);
        assertThat(check(startedAll("n1", "n2"), rejoining(false), List.of(other, exits)).validity())
                .isEqualTo(Validity.INVALID);
    }

    @Test
    void servingBetweenSyncsIsNoLoop() {
        CheckResult r = check(startedAll("n1", "n2"), rejoining(true), List.of());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(report(r).rejoinLoops()).isEmpty();
        assertThat(report(r).nodes().get(0).syncs()).isEqualTo(4);
    }

    @Test
    void syncsSpreadWiderThanTheWindowAreNoLoop() {
        ServerAccountChecker narrow = new ServerAccountChecker(new ServerAccountChecker.Settings(3,
                java.time.Duration.ofSeconds(15), java.time.Duration.ofSeconds(30), LogRules.builtIn()));
        Map<String, List<String>> logs = rejoining(false);
        assertThat(narrow.check(new ServerAccount(startedAll("n1", "n2"), List.of(), logs, List.of(), 60 * S))
                .validity()).isEqualTo(Validity.VALID);
    }

    @Test
    void aServerThatEndsByItselfIsACrashUnlessAFaultOnItExcusesExits() {
        List<ServerEvent> events = new ArrayList<>(startedAll("n1", "n2"));
        events.add(event("n1", ServerEvent.Kind.EXITED, 50, null));
        events.add(event("n2", ServerEvent.Kind.EXITED, 52, "nemesis")); // the nemesis's kill: no crash
        Map<String, List<String>> logs = Map.of("n1", Excerpts.lines(Excerpts.ZK395));
        CheckResult r = check(events, logs, List.of());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(report(r).crashes()).singleElement().satisfies(c -> {
            assertThat(c.node()).isEqualTo("n1");
            assertThat(c.timeNanos()).isEqualTo(50 * S);
            assertThat(c.exitCode()).isEqualTo(1);
            assertThat(c.lastLines()).hasSize(1);
            assertThat(c.excusedBy()).isNull();
        });
        assertThat(report(r).crashLoops()).isEmpty();
        assertThat(r.summary()).startsWith("n1 exited by itself at 50.00 s (exit code 1)");

        FaultWindow disk = new FaultWindow("disk-eio-fsync", List.of("n1"), 40 * S, 45 * S,
                Set.of(ServerBehaviour.EXIT, ServerBehaviour.REJOIN), 10 * S);
        CheckResult excused = check(events, logs, List.of(disk));
        assertThat(excused.validity()).as(excused.summary()).isEqualTo(Validity.VALID);
        assertThat(report(excused).crashes().get(0).excusedBy()).startsWith("disk-eio-fsync on n1 (40.00 s to "
                + "45.00 s");
        assertThat(excused.summary()).contains("1 crash (1 excused)");
    }

    @Test
    void anEndSoonAfterAStartIsACrashLoopAndOneAfterTheFaultWasRepairedIsNeverExcused() {
        FaultWindow disk = new FaultWindow("disk-full", List.of("n3"), 10 * S, 20 * S, Set.of(ServerBehaviour.EXIT),
                5 * S);
        List<ServerEvent> during = new ArrayList<>(startedAll("n3"));
        during.add(event("n3", ServerEvent.Kind.STARTED, 12, "nemesis"));
        during.add(event("n3", ServerEvent.Kind.EXITED, 14, null));
        Map<String, List<String>> logs = Map.of("n3", Excerpts.lines(Excerpts.ZK395));
        CheckResult excused = check(during, logs, List.of(disk));
        assertThat(excused.validity()).as(excused.summary()).isEqualTo(Validity.VALID);
        assertThat(report(excused).crashLoops()).singleElement().satisfies(l -> {
            assertThat(l.startedNanos()).isEqualTo(12 * S);
            assertThat(l.exitedNanos()).isEqualTo(14 * S);
            assertThat(l.excusedBy()).startsWith("disk-full on n3");
        });

        // the final heal started it at 30 s, after the fault's end and grace (25 s): it ends again at 35 s
        List<ServerEvent> after = new ArrayList<>(during);
        after.add(event("n3", ServerEvent.Kind.STARTED, 30, "nemesis")); // the final heal is the nemesis' act
        after.add(event("n3", ServerEvent.Kind.EXITED, 35, null));
        CheckResult r = check(after, logs, List.of(disk));
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(report(r).crashLoops()).hasSize(2);
        assertThat(report(r).crashLoops().get(1).excusedBy()).isNull();
        assertThat(r.summary()).startsWith("n3 crashed 5.00 s after it was started at 30.00 s (a crash loop)");
        assertThat(r.summary()).doesNotContain("exited by itself at 35"); // one finding for one end, said once
    }

    @Test
    void anEndSoonAfterTheEnsemblesFirstStartIsACrashNotALoop() {
        List<ServerEvent> events = new ArrayList<>(startedAll("n3")); // the harness's own start of the ensemble
        events.add(event("n3", ServerEvent.Kind.EXITED, 12, null));
        CheckResult r = check(events, Map.of("n3", Excerpts.lines(Excerpts.ZK395)), List.of());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(report(r).crashes()).hasSize(1);
        assertThat(report(r).crashLoops()).as("no restart came before it").isEmpty();
    }

    @Test
    void noLogAtAllIsUnknownAndSaysWhichWereMissing() {
        CheckResult r = checker.check(new ServerAccount(startedAll("n1", "n2"), List.of("n1", "n2"), Map.of(),
                List.of(), 60 * S));
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(report(r).missingLogs()).containsExactly("n1: no server.log", "n2: no server.log");
        assertThat(r.summary()).startsWith("no server log could be read (n1: no server.log; n2: no server.log)");
    }

    @Test
    void aRunDirectoryIsReadWithItsEventsAndItsNodesLogs() throws Exception {
        Files.createDirectories(tmp.resolve("nodes/n1"));
        Files.createDirectories(tmp.resolve("nodes/n2"));
        Files.write(tmp.resolve("nodes/n1/server.log"), Excerpts.lines(Excerpts.ZK395));
        ObjectMapper json = new ObjectMapper();
        List<String> events = new ArrayList<>();
        for (ServerEvent e : startedAll("n1", "n2")) {
            events.add(json.writeValueAsString(e));
        }
        Files.write(tmp.resolve(ServerAccount.EVENTS_FILE), events);
        ServerAccount account = ServerAccount.fromRunDirectory(tmp, List.of(), 60 * S);
        assertThat(account.events()).isEqualTo(startedAll("n1", "n2"));
        assertThat(account.nodes()).containsExactly("n1", "n2");
        CheckResult r = checker.check(account);
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(report(r).missingLogs()).containsExactly("n2: no server.log");
        assertThat(report(r).clockBasis()).startsWith("the harness's server events (2,");

        Files.writeString(tmp.resolve(ServerAccount.EVENTS_FILE), "{\"node\": \"n1\"}\nnot json\n");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ServerAccount.fromRunDirectory(tmp,
                List.of(), 0))).hasMessageContaining(ServerAccount.EVENTS_FILE + " line 1");
    }

    @Test
    void theReportRoundTripsThroughJacksonAsItsKind() throws Exception {
        List<ServerEvent> events = new ArrayList<>(startedAll("n1", "n2"));
        events.add(event("n1", ServerEvent.Kind.STARTED, 10, "nemesis"));
        events.add(event("n1", ServerEvent.Kind.EXITED, 20, null));
        CheckResult r = check(events, rejoining(false), List.of(new FaultWindow("isolate-follower", List.of("n1"),
                0, Long.MAX_VALUE, Set.of(ServerBehaviour.REJOIN), 0)));
        ServerReport rep = report(r);
        assertThat(rep.crashes()).hasSize(1);
        assertThat(rep.crashLoops()).hasSize(1);
        assertThat(rep.rejoinLoops().get(0).excusedBy()).contains("to the history's end");
        assertThat(Findings.kindOf(ServerReport.class)).isEqualTo("servers");
        ObjectMapper json = new ObjectMapper();
        String text = json.writeValueAsString(rep);
        assertThat(json.readTree(text).path("kind").asText()).isEqualTo("servers");
        assertThat(json.readValue(text, Findings.class)).isEqualTo(rep);
        CheckResult planted = check(startedAll("n1"), Map.of("n1", Excerpts.lines(Excerpts.PLANTED_NPE)),
                List.of());
        String plantedText = json.writeValueAsString((Findings) planted.details());
        assertThat(json.readValue(plantedText, Findings.class)).isEqualTo(planted.details());
    }
}
