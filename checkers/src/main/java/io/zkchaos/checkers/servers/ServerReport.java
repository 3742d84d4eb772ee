package io.zkchaos.checkers.servers;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.servers.LogRule.Verdict;
import java.util.List;
import java.util.SortedSet;

/**
 * The {@code server} checker's findings: what the servers' own account says, and what it judged. Times are on the
 * history's clock (ns since its start). Every list is in the order found (signatures: errors first, then by count).
 *
 * @param clockBasis     how log lines were placed on the history's clock
 * @param nodes          what was read of each server's log, in node order
 * @param missingLogs    servers whose log could not be read, with why ({@code n2: no server.log})
 * @param signatures     every exception signature logged (and every line that gives up), with its verdict
 * @param crashes        every server process that ended by itself
 * @param crashLoops     the crashes that came within {@code crashLoopWindowNanos} of the server's start
 * @param rejoinLoops    learners that started syncing {@code rejoinCount} times within {@code rejoinWindowNanos}
 *                       without serving in between
 * @param rejoinJudged   false when no server logged a line that says it serves (a release whose lines the rules do
 *                       not know): then rejoin loops were not judged
 * @param rejoinCount    K: syncs that make a loop
 * @param rejoinWindowNanos the window K syncs must fall in
 * @param crashLoopWindowNanos how soon after a start an exit makes a crash loop
 * @param problems       each unexcused finding, in words (empty when none)
 */
public record ServerReport(String clockBasis, List<NodeRead> nodes, List<String> missingLogs,
                           List<SignatureCount> signatures, List<Crash> crashes, List<CrashLoop> crashLoops,
                           List<RejoinLoop> rejoinLoops, boolean rejoinJudged, int rejoinCount,
                           long rejoinWindowNanos, long crashLoopWindowNanos, List<String> problems)
        implements Findings {

    public ServerReport {
        nodes = List.copyOf(nodes);
        missingLogs = List.copyOf(missingLogs);
        signatures = List.copyOf(signatures);
        crashes = List.copyOf(crashes);
        crashLoops = List.copyOf(crashLoops);
        rejoinLoops = List.copyOf(rejoinLoops);
        problems = List.copyOf(problems);
    }

    /** Signatures with a verdict of {@link Verdict#ERROR}: each a finding. */
    public List<SignatureCount> errors() {
        return signatures.stream().filter(s -> s.verdict() == Verdict.ERROR).toList();
    }

    /**
     * What was read of one server's log.
     *
     * @param node         the server
     * @param lines        lines read
     * @param entries      entries (a stack trace is part of its entry)
     * @param starts       start markers: how many times the process was started
     * @param fromNanos    the first entry's time, or null when it had none
     * @param toNanos      the last entry's time, or null
     * @param syncs        lines saying it started syncing with a leader
     * @param servings     lines saying it served
     */
    public record NodeRead(String node, int lines, int entries, int starts, Long fromNanos, Long toNanos, int syncs,
                           int servings) {
    }

    /**
     * A log line, where it is.
     *
     * @param node       the server
     * @param timeNanos  on the history's clock
     * @param lineNumber in its log, from 1
     * @param text       the line as written
     */
    public record Occurrence(String node, long timeNanos, int lineNumber, String text) {
    }

    /**
     * One signature and what its entries were.
     *
     * @param signature the signature as one line ({@link Signature#key()})
     * @param outer     the outermost exception's class, or null for a line without one
     * @param root      the root cause's class, or null
     * @param frames    the top frames in the server's own code, innermost first
     * @param verdict   what the rules say it is
     * @param why       the rule's why (for an excused signature: its reason), or what no rule naming it means
     * @param rule      the rule that decided ({@code server-log-rules.tsv:27}), or null when none named it
     * @param count     how many entries had it
     * @param nodes     the servers that logged it, in order
     * @param first     its first occurrence by history time
     * @param sample    the first occurrence's exception line ({@code java.io.EOFException: null}) or message
     */
    public record SignatureCount(String signature, String outer, String root, List<String> frames, Verdict verdict,
                                 String why, String rule, int count, List<String> nodes, Occurrence first,
                                 String sample) {

        public SignatureCount {
            frames = List.copyOf(frames);
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * A server process that ended by itself.
     *
     * @param node      the server
     * @param timeNanos when the harness saw it end
     * @param exitCode  its exit status (128 + the signal's number for a signal), or null
     * @param signal    the signal that ended it, or null
     * @param lastLines the last lines of its log
     * @param nemesis   what the nemesis was doing then, or null
     * @param excusedBy the fault that excuses it ({@code disk-eio-fsync on n2 (3.0 s to 7.0 s, grace 10.0 s)}),
     *                  or null when it is a finding
     */
    public record Crash(String node, long timeNanos, Integer exitCode, String signal, List<String> lastLines,
                        String nemesis, String excusedBy) {

        public Crash {
            lastLines = List.copyOf(lastLines);
        }
    }

    /**
     * A server that ended by itself soon after it was started.
     *
     * @param node         the server
     * @param startedNanos when it was started
     * @param exitedNanos  when it ended
     * @param exitCode     its exit status, or null
     * @param signal       the signal that ended it, or null
     * @param excusedBy    the fault that excuses it at both its start and its end, or null
     */
    public record CrashLoop(String node, long startedNanos, long exitedNanos, Integer exitCode, String signal,
                            String excusedBy) {
    }

    /**
     * A learner that kept starting to sync without serving.
     *
     * @param node       the server
     * @param syncs      how many syncs the loop holds (at least K)
     * @param firstNanos its first sync
     * @param foundNanos its K-th sync, when it became a loop
     * @param lastNanos  its last sync before it served again (or the log ended)
     * @param lines      its first syncs' lines (at most 10)
     * @param excusedBy  the fault that excuses rejoining at {@code foundNanos}, or null
     */
    public record RejoinLoop(String node, int syncs, long firstNanos, long foundNanos, long lastNanos,
                             List<Occurrence> lines, String excusedBy) {

        public RejoinLoop {
            lines = List.copyOf(lines);
        }
    }

    /** Only what no fault excused; a crash that was also a loop is both. */
    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet()
                .when(crashes != null && crashes.stream().anyMatch(c -> c.excusedBy() == null), "crash")
                .when(crashLoops != null && crashLoops.stream().anyMatch(c -> c.excusedBy() == null), "crash-loop")
                .ifAny(errors(), "error")
                .when(rejoinLoops != null && rejoinLoops.stream().anyMatch(r -> r.excusedBy() == null),
                        "rejoin-loop")
                .build();
    }
}
