package io.zkchaos.results.report;

import java.util.List;

/**
 * What the page shows of one checker's result: its verdict and explanation, its findings with links to the history
 * entries they name, and the tables its kind of finding needs. Lists are empty (never null) when a checker has none;
 * {@code linear}, {@code servers} and {@code availability} are null unless the checker's findings are of that kind.
 *
 * @param checker    the checker's name
 * @param verdict    {@code valid}, {@code invalid} or {@code unknown} (a CSS class)
 * @param word       the verdict as {@link io.zkchaos.results.Verdicts#word} writes it
 * @param summary    the checker's own explanation, with entry links
 * @param depth      0 for the run's verdict, 1 for its checkers, 2 for their parts
 * @param findings   violations (and, for an unknown verdict, its cause) in words, with entry links; at most
 *                   {@value Cards#MAX_ROWS}
 * @param findingsMore how many more findings results.json holds
 * @param linear     a linearizability failure: the failing operation, its concurrent ones, the prefix, the states
 * @param lost       lost commits; at most {@value Cards#MAX_ROWS}
 * @param lostMore   how many more
 * @param unexpected values read that no add could have put there
 * @param stale      stale reads (the read, the write it missed, the session); at most {@value Cards#MAX_ROWS}
 * @param staleMore  how many more
 * @param overlaps   real-time overlaps of two election leaders
 * @param failovers  time without a leader after each heal
 * @param facts      counts worth a glance (operations checked, reads, acknowledged adds, ...)
 * @param details    the raw details as indented JSON (clipped), for whoever needs the rest
 * @param servers    the servers' own account (crashes, signatures, rejoin loops), shown in "What the servers said"
 * @param availability stalls and the stretches judged and excused, shown in "What the servers said"
 */
public record CheckerCard(String checker, String verdict, String word, Text summary, int depth, List<Text> findings,
                          int findingsMore, LinearView linear, List<LostRow> lost, int lostMore,
                          List<UnexpectedRow> unexpected, List<StaleRow> stale, int staleMore,
                          List<OverlapRow> overlaps, List<FailoverRow> failovers, List<Fact> facts, String details,
                          ServersView servers, AvailabilityView availability) {

    /** Whether the card's tables are in "What the servers said" (its card in the list says so and links there). */
    public boolean inServersSection() {
        return servers != null || availability != null;
    }

    /** An operation as the page lists it. */
    public record OpRow(int process, String f, String key, String value, String outcome, long invokeEntry,
                        long completeEntry, String invokedAt, String completedAt, String description) {
    }

    /**
     * Why a history is not linearizable, as the checker found it.
     *
     * @param entries every entry of the failing, concurrent and shown prefix operations, comma-separated, for the
     *                timeline's "show" button
     */
    public record LinearView(String partition, OpRow failing, List<OpRow> concurrent, List<OpRow> prefix,
                             int prefixLength, int prefixOmitted, List<String> states, boolean moreStates,
                             String entries) {
    }

    /** An acknowledged add missing from a final read. */
    public record LostRow(String value, int process, long invokeEntry, long ackEntry, String invokedAt,
                          String ackedAt, String lackingIn) {
    }

    /** A value read that no add could have put there. */
    public record UnexpectedRow(String value, String reason, String readIn, long readEntry) {
    }

    /**
     * A stale plain read: the read, the write it missed (invoked at {@code writeEntry}, acknowledged at
     * {@code writeAckEntry} by {@code writeProcess}), and the session that read.
     */
    public record StaleRow(String key, int process, String value, String newerValue, long readEntry, String readAt,
                           long writeEntry, long writeAckEntry, int writeProcess, String writeAckedAt,
                           String staleness) {
    }

    /** Two election leaders at once. */
    public record OverlapRow(String stale, String newer, long startEntry, String startAt, String length,
                             boolean fencingWouldReject, String entries) {
    }

    /** How long after a heal a leader held. */
    public record FailoverRow(String trigger, long triggerEntry, String at, String leader, String failover,
                              String withinBound) {
    }

    /** A named count. */
    public record Fact(String name, String value) {
    }
}
