package io.zkchaos.results.report;

import java.util.List;

/**
 * What the page shows of the {@code server} checker's findings ({@link io.zkchaos.checkers.servers.ServerReport}):
 * first what is not excused (crashes, crash loops, error signatures, rejoin loops), then what was excused and by
 * which fault, then every signature with its verdict, then what was read. Each row that the "Who led when" chart
 * marks has an {@code id}, the anchor its mark links to. Lists hold at most {@value Cards#MAX_ROWS} rows.
 *
 * @param crashes         crashes no fault excuses
 * @param crashLoops      crash loops no fault excuses
 * @param errors          signatures judged a programming error
 * @param rejoins         rejoin loops no fault excuses
 * @param excused         crashes, crash loops and rejoin loops a fault excuses, with the fault
 * @param signatures      every signature, errors first, then by count
 * @param signaturesMore  how many more signatures results.json holds
 * @param reads           what was read of each server's log
 * @param missingLogs     the logs that could not be read, with why
 * @param clockBasis      how log lines were placed on the history's clock
 * @param rejoinRule      what makes a rejoin loop ({@code 3 syncs within 60.00 s without serving}), or why rejoin
 *                        loops were not judged
 */
public record ServersView(List<CrashRow> crashes, List<CrashLoopRow> crashLoops, List<SignatureRow> errors,
                          List<RejoinRow> rejoins, List<ExcusedRow> excused, List<SignatureRow> signatures,
                          int signaturesMore, List<ReadRow> reads, List<String> missingLogs, String clockBasis,
                          String rejoinRule) {

    public ServersView {
        crashes = List.copyOf(crashes);
        crashLoops = List.copyOf(crashLoops);
        errors = List.copyOf(errors);
        rejoins = List.copyOf(rejoins);
        excused = List.copyOf(excused);
        signatures = List.copyOf(signatures);
        reads = List.copyOf(reads);
        missingLogs = List.copyOf(missingLogs);
    }

    /** Whether anything is a finding (not excused). */
    public boolean hasFindings() {
        return !crashes.isEmpty() || !crashLoops.isEmpty() || !errors.isEmpty() || !rejoins.isEmpty();
    }

    /**
     * A server process that ended by itself.
     *
     * @param id        the row's anchor
     * @param node      the server
     * @param timeNanos when, on the history's clock
     * @param at        the same, written
     * @param exit      its exit ({@code exit code 1}, {@code signal KILL (exit code 137)}, {@code unknown})
     * @param nemesis   what the nemesis was doing then ({@code nothing} when nothing)
     * @param lastLines the last lines of its log, one text
     */
    public record CrashRow(String id, String node, long timeNanos, String at, String exit, String nemesis,
                           String lastLines) {
    }

    /** A server that ended by itself soon after it was started. */
    public record CrashLoopRow(String id, String node, long startedNanos, long exitedNanos, String startedAt,
                               String exitedAt, String after, String exit) {
    }

    /**
     * One exception signature (or a line that gives up) and what its entries were.
     *
     * @param id        the row's anchor in the table of every signature
     * @param signature the signature as one line
     * @param verdict   {@code error}, {@code expected}, {@code excused} or {@code other} (a CSS class too)
     * @param classes   the outermost exception's class, and its root cause's when another ({@code A caused by B})
     * @param frames    the top frames in the server's own code, innermost first
     * @param count     how many entries had it
     * @param nodes     the servers that logged it, comma-separated
     * @param why       the rule's why (an excused signature's reason), or what no rule naming it means
     * @param rule      the rule that decided ({@code server-log-rules.tsv:27}), or empty when none did
     * @param firstNode the server of its first occurrence
     * @param firstNanos its first occurrence on the history's clock
     * @param firstAt   the same, written
     * @param firstLine the first occurrence's line number in that server's log
     * @param firstText the first occurrence's line, clipped
     * @param sample    its exception line or message, clipped
     */
    public record SignatureRow(String id, String signature, String verdict, String classes, List<String> frames,
                               int count, String nodes, String why, String rule, String firstNode, long firstNanos,
                               String firstAt, int firstLine, String firstText, String sample) {

        public SignatureRow {
            frames = List.copyOf(frames);
        }
    }

    /**
     * A learner that kept starting to sync without serving.
     *
     * @param syncNanos the times of its first syncs (at most 10), on the history's clock
     */
    public record RejoinRow(String id, String node, int syncs, long firstNanos, long lastNanos, String from,
                            String to, String foundAt, List<Long> syncNanos) {

        public RejoinRow {
            syncNanos = List.copyOf(syncNanos);
        }
    }

    /**
     * A crash, crash loop or rejoin loop that a fault excuses.
     *
     * @param id        the row's anchor
     * @param kind      {@code crash}, {@code crash-loop} or {@code rejoin-loop}
     * @param what      what it was, in words ({@code crash (exit code 1)}, {@code rejoin loop (4 syncs)})
     * @param node      the server
     * @param fromNanos when it began (a crash: when it ended the process), on the history's clock
     * @param toNanos   when it ended (a crash: the same)
     * @param at        when ({@code 12.300 s}, or {@code 3.000 s to 9.000 s} for a loop)
     * @param excusedBy the fault that excuses it, as the checker wrote it
     */
    public record ExcusedRow(String id, String kind, String what, String node, long fromNanos, long toNanos, String at,
                             String excusedBy) {
    }

    /** What was read of one server's log. */
    public record ReadRow(String node, int lines, int entries, int starts, String from, String to, int syncs,
                          int servings) {
    }
}
