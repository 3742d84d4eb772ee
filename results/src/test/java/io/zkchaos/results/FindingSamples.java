package io.zkchaos.results;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.Exercised;
import io.zkchaos.checkers.evidence.FaultTally;
import io.zkchaos.checkers.evidence.FunctionTally;
import io.zkchaos.checkers.evidence.OpCounts;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.fenced.FencedViolation;
import io.zkchaos.checkers.leader.Failover;
import io.zkchaos.checkers.leader.LeaderInterval;
import io.zkchaos.checkers.leader.LeaderOverlap;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.checkers.leader.TokenViolation;
import io.zkchaos.checkers.linear.Counterexample;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.checkers.linear.OpView;
import io.zkchaos.checkers.log.LogEntry;
import io.zkchaos.checkers.log.LogReport;
import io.zkchaos.checkers.log.LogViolation;
import io.zkchaos.checkers.log.NodeLog;
import io.zkchaos.checkers.multi.MultiReport;
import io.zkchaos.checkers.multi.MultiViolation;
import io.zkchaos.checkers.readmodel.ReadModelReport;
import io.zkchaos.checkers.readmodel.ReadViolation;
import io.zkchaos.checkers.readmodel.StaleRead;
import io.zkchaos.checkers.sequential.SequentialReport;
import io.zkchaos.checkers.sequential.SequentialViolation;
import io.zkchaos.checkers.sessions.SessionViolation;
import io.zkchaos.checkers.sessions.SessionsReport;
import io.zkchaos.checkers.set.FinalRead;
import io.zkchaos.checkers.set.LostValue;
import io.zkchaos.checkers.set.SetReport;
import io.zkchaos.checkers.set.UnexpectedValue;
import io.zkchaos.checkers.state.FinalStateReport;
import io.zkchaos.checkers.state.LeftEphemeral;
import io.zkchaos.checkers.state.TreeDifference;
import io.zkchaos.checkers.watches.WatchViolation;
import io.zkchaos.checkers.watches.WatchesReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One finding of every kind, each field set (values of several JSON types, nested records, nulls where a field
 * may be null), as the checkers write them: for tests that write them to results.json and read them back, and that
 * render them.
 */
public final class FindingSamples {

    private FindingSamples() {
    }

    /** Every kind, by its name as {@link Findings#kinds()} lists them. */
    public static Map<String, Findings> all() {
        Map<String, Findings> all = new LinkedHashMap<>();
        all.put("linearizability", linearizability());
        all.put("single-leader", singleLeader());
        all.put("set", set());
        all.put("read-model", readModel());
        all.put("fenced-writes", fenced());
        all.put("log-prefix", log());
        all.put("final-state", finalState());
        all.put("watches", watches());
        all.put("session-guarantees", sessions());
        all.put("sequential-znodes", sequential());
        all.put("multi-txn", multi());
        all.put("recovery", recovery());
        all.put("churn-ephemerals", churn());
        all.put("availability", availability());
        all.put("evidence", evidence());
        all.put("servers", servers());
        all.put("checker-error", new CheckResult.CheckerError("java.lang.IllegalStateException", "broke"));
        all.put("untyped", new Findings.Untyped(Map.of("values", List.of(3L, 4L))));
        return all;
    }

    /** An ephemeral of a closed session left on n2. */
    public static io.zkchaos.checkers.churn.ChurnReport churn() {
        return new io.zkchaos.checkers.churn.ChurnReport(Map.of("close", 3L, "expire", 2L, "crash", 1L), 2, 14,
                List.of(new io.zkchaos.checkers.churn.ChurnReport.Breach("n2", "s11-a", "0x11", 52,
                        "ephemeral s11-a of session 0x11 (ended by close at index 20) still on n2")),
                List.of(), 0, List.of(), 5_000);
    }

    /** n3 crash-loops after the final heal; a write was acknowledged 4.2 s after it. */
    /** n1 stalled 12 s while n1, n2, n3 were whole; a halves stretch excused. */
    public static io.zkchaos.checkers.servers.AvailabilityReport availability() {
        var whole = new io.zkchaos.checkers.servers.AvailabilityReport.Stretch(2_000_000_000L, 30_000_000_000L,
                List.of("n1", "n2", "n3"), List.of());
        var excused = new io.zkchaos.checkers.servers.AvailabilityReport.Stretch(30_000_000_000L, 40_000_000_000L,
                List.of("n3"), List.of("halves on n1, n2"));
        return new io.zkchaos.checkers.servers.AvailabilityReport(10_000, List.of("n1", "n2", "n3"), 400, 350, 1,
                28_000, List.of(excused), List.of(new io.zkchaos.checkers.servers.AvailabilityReport.Stall("n1", whole,
                10_000_000_000L, 22_000_000_000L, 10_000_000_000L, 120L, 30, "ConnectionLoss")));
    }

    /** Every list of the servers' account filled, nulls where a field may be null. */
    public static io.zkchaos.checkers.servers.ServerReport servers() {
        var first = new io.zkchaos.checkers.servers.ServerReport.Occurrence("n1", 9_953_000_000L, 6,
                "06:11:09.953 WARN  [QuorumPeer[myid=1]] Learner - Exception when following the leader");
        return new io.zkchaos.checkers.servers.ServerReport("the harness's server events (4, 0 clock moves)",
                List.of(new io.zkchaos.checkers.servers.ServerReport.NodeRead("n1", 22, 14, 1, 1_000L, 10_000L, 2, 1),
                        new io.zkchaos.checkers.servers.ServerReport.NodeRead("n2", 0, 0, 0, null, null, 0, 0)),
                List.of("n3: no server.log"),
                List.of(new io.zkchaos.checkers.servers.ServerReport.SignatureCount(
                        "java.lang.NullPointerException at Learner.syncWithLeader", "java.lang.NullPointerException",
                        "java.lang.NullPointerException", List.of("org.apache.zookeeper.server.quorum.Learner"
                        + ".syncWithLeader"), io.zkchaos.checkers.servers.LogRule.Verdict.ERROR,
                        "a programming error", "server-log-rules.tsv:27", 2, List.of("n1"), first,
                        "java.lang.NullPointerException: qp is null"),
                        new io.zkchaos.checkers.servers.ServerReport.SignatureCount("line \"Severe\"", null, null,
                                List.of(), io.zkchaos.checkers.servers.LogRule.Verdict.OTHER, "gives up", null, 1,
                                List.of("n1"), first, "Severe unrecoverable error, exiting")),
                List.of(new io.zkchaos.checkers.servers.ServerReport.Crash("n1", 20_000L, 1, null, List.of("last"),
                        "kill-leader on n2 since 4.2 s", null)),
                List.of(new io.zkchaos.checkers.servers.ServerReport.CrashLoop("n1", 10_000L, 20_000L, 137, "KILL",
                        "disk-full on n1 (1.00 s to 2.00 s, excuses exit for 5.00 s after)")),
                List.of(new io.zkchaos.checkers.servers.ServerReport.RejoinLoop("n1", 3, 1_000L, 3_000L, 3_000L,
                        List.of(first), null)),
                true, 3, 60_000_000_000L, 30_000_000_000L, List.of("n1 exited by itself at 0.00 s"));
    }

    public static io.zkchaos.checkers.recovery.RecoveryReport recovery() {
        return new io.zkchaos.checkers.recovery.RecoveryReport(60_000, 4_200L, "probe", null, List.of(
                new io.zkchaos.checkers.recovery.RecoveryReport.ServerRecovery("n1", true, 3_900L, "leader", ""),
                new io.zkchaos.checkers.recovery.RecoveryReport.ServerRecovery("n3", false, null,
                        "RUNNING, unreachable", "java.io.IOException: No snapshot found")),
                List.of("n3 did not serve within 60.0 s of the final heal (last seen: RUNNING, unreachable)"));
    }

    /** Process 1's read of 3 (entries 4–7) fits no order; a write (entries 2–5) was concurrent with it. */
    public static LinearizabilityDetails linearizability() {
        OpView read = new OpView(2, 1, "read", null, 3L, "ok", 4, 7, "read -> 3");
        OpView write = new OpView(1, 2, "write", null, 2L, "info", 2, -1, "write 2");
        OpView first = new OpView(0, 0, "write", null, 1L, "ok", 0, 1, "write 1");
        return new LinearizabilityDetails("cas-register", true, 1, 3, 0, 1, 12, 40,
                new Counterexample(null, read, List.of(first), 1, 0, List.of("1", "2"), false, List.of(write)),
                null);
    }

    /** n1 (token 1) and n2 (token 2) led at once for 2 s; the heal at entry 9 had a leader 1.5 s later. */
    public static SingleLeaderReport singleLeader() {
        LeaderInterval n1 = new LeaderInterval(0, "n1", 1, 100, 1, 12, 1_000_000_000L, 6_000_000_000L, "resigned");
        LeaderInterval n2 = new LeaderInterval(1, "n2", 2, 200, 5, 14, 4_000_000_000L, 8_000_000_000L, "end");
        return new SingleLeaderReport(List.of(n1, n2),
                List.of(new TokenViolation("duplicate-czxid", n1, n2, "two holders of czxid 100: n1 and n2")),
                List.of(new LeaderOverlap(n1, n2, 5, 4_000_000_000L, 2_000_000_000L, true, 0, 2_000_000_000L)),
                -1, 10_000_000_000L,
                List.of(new Failover("heal", 9, 5_000_000_000L, n2, 1_500_000_000L, true),
                        new Failover("heal", 13, 7_000_000_000L, null, -1, null)),
                List.of(new Failover("kill-leader", 3, 2_000_000_000L, n2, 2_000_000_000L, null)),
                List.of("two holders of czxid 100: n1 and n2 (acquired at index 5)"));
    }

    /** 7, added by process 2 (entries 3–4), is missing from n3's final read; "x" was never added. */
    public static SetReport set() {
        return new SetReport(5, 4, 1,
                List.of(new FinalRead("n1", 20, 21, 4), new FinalRead("n3", 22, 23, 3)),
                List.of(new LostValue(7L, 2, 3, 4, 3_000_000L, 4_000_000L, List.of("n3"))),
                List.of(new UnexpectedValue("x", "never added", "n1", 21)), 1, 0, 0,
                List.of("read by process 10 at index 24 ended fail: connection loss"));
    }

    /** Process 3 read 1 at entry 9 after 2 had been acknowledged at entry 6; process 4 read backwards. */
    public static ReadModelReport readModel() {
        return new ReadModelReport(false, 6, 2, 3,
                List.of(new StaleRead("k1", 3, 9, 1L, 2L, 6, 1_200_000L, "process 3 read 1 at index 9 although 2 "
                        + "had been acknowledged at index 6")),
                List.of(new ReadViolation("read-backwards", "k1", 4, 11, 1L, 2L, 8, "process 4 read 1 from key k1 "
                        + "at index 11, older than 2 which the same session had already seen at index 8")));
    }

    /** Write 7 with token 3, acknowledged at entry 12, landed after token 4 had been acknowledged at entry 10. */
    public static FencedReport fenced() {
        return new FencedReport(8, 2, 1, 9, 1, List.of(new FencedViolation("accepted-after-higher", 3, 7L, 12, 4, 10,
                "write 7 with token 3 (process 1, acknowledged at index 12) was accepted after token 4 had been "
                        + "accepted at index 10")));
    }

    /** n2's log, read at entry 15, diverged from n1's at position 1. */
    public static LogReport log() {
        LogEntry a = new LogEntry(0x100000001L, "a");
        LogEntry b = new LogEntry(0x100000002L, Map.of("v", 2L));
        return new LogReport(List.of(new NodeLog("n1", 2, 2, b), new NodeLog("n2", 2, 2, a)), 2,
                List.of(new LogViolation("diverged", "n2", 15, 1, a, "n1", b, "the logs of n2 (read at index 15) "
                        + "and n1 (read at index 14) diverge at position 1: " + a + " vs " + b)));
    }

    /** n3's tree differs at /zkchaos/k1; an ephemeral of session 0x1 is left on n1 (read at entry 30). */
    public static FinalStateReport finalState() {
        Map<String, Map<String, Object>> byNode = new LinkedHashMap<>();
        byNode.put("n1", Map.of("data", "2", "version", 2L));
        byNode.put("n3", Map.of("data", "1", "version", 1L));
        return new FinalStateReport(
                List.of(new FinalStateReport.Server("n1", 30, 1, 4, 1, "0x100000004"),
                        new FinalStateReport.Server("n3", 31, 1, 4, 0, "0x100000003")),
                List.of("n2"), List.of(List.of("n1"), List.of("n3")),
                List.of(new TreeDifference("/zkchaos/k1", byNode, "/zkchaos/k1 holds 2 on n1 but 1 on n3")), 1,
                List.of(new LeftEphemeral("n1", "/zkchaos/e", "0x1", 30, 9_000_000_000L,
                        "ephemeral /zkchaos/e of session 0x1 still on n1 (read at index 30)")),
                0, 8_000_000_000L);
    }

    /** Process 1's data watch on k1 fired for the set at entry 9 after the event of a later set (entry 14). */
    public static WatchesReport watches() {
        return new WatchesReport(2, 7, 3, 9, 8, 6, 1, 2, Map.of("exists watch: znode created and deleted while "
                + "disconnected", 1), false, List.of(new WatchViolation("ordering", 1, "/w/tree/k1", 14,
                "data-changed on /w/tree/k1 to the data watcher of process 1 at index 14 arrived after data-changed "
                        + "on /w/tree/k2 at index 12")));
    }

    /** Process 2's read at entry 40 saw the ephemeral of session 0x1, closed at entry 31. */
    public static SessionsReport sessions() {
        return new SessionsReport(3, 1, 1, 1, 2, 4, 9, 1, List.of("p3: a new leader within the bound"), 3000, 1,
                Map.of("closed-ephemeral", 1), List.of(new SessionViolation("closed-ephemeral", 2, "the read of "
                        + "process 2 (index 40) saw e1-1 of session 0x1, whose close was acknowledged at index 31",
                        List.of(40L, 31L))));
    }

    /** Process 2's create (entry 7) got a lower number than process 1's, acknowledged before it began (entry 5). */
    public static SequentialReport sequential() {
        return new SequentialReport(List.of("p0", "p1"), 5, 1, 1, 0, 0, 3, List.of("n1", "n2", "n3"), 1,
                Map.of("order", 1), List.of(new SequentialViolation("order", "p0", "process 2's create under p0 "
                        + "(index 7) got 4, lower than 5 of process 1's, acknowledged at index 5", List.of(7L, 5L))));
    }

    /** The read at entry 12 saw r1 = 7, which only the failed transaction at entry 8 wrote; one stale read. */
    public static MultiReport multi() {
        return new MultiReport(List.of("r0", "r1"), List.of("e0"), 3, 1, 0, 2, 0, false, 1,
                List.of("the read of process 2 (index 16-17, ok) saw r0 = 0, though the transaction of process 1 "
                        + "(index 0-1, ok), which made it 1, was acknowledged before it began"), 1,
                Map.of("aborted-read", 1), List.of(new MultiViolation("aborted-read", "the read of process 2 (index "
                        + "12-13, ok) read r1 = 7, which only the transaction of process 4 (index 8-11, fail) wrote",
                        List.of(12L, 8L))));
    }

    /** 300 writes acknowledged, 120 under isolate-leader; one requirement unmet. */
    public static EvidenceReport evidence() {
        Exercised run = new Exercised(List.of(new FunctionTally("write", new OpCounts(300, 5, 2),
                new OpCounts(250, 5, 2), new OpCounts(120, 3, 2), new OpCounts(50, 0, 0))),
                Map.of("read", new OpCounts(3, 0, 0)),
                List.of(new FaultTally("isolate-leader", 3, 1, 0, List.of("no leader to aim at"), 120, 130, 0, 0)),
                true, 3, Map.of("DIFF", 4L), 2, Map.of());
        return new EvidenceReport(run, List.of("acked-main", "fault-applied"), List.of(), List.of("acked-main"),
                List.of("fault-applied: the nemesis acted 3 of 4 times"));
    }
}
