package io.zkchaos.results.report;

import java.util.List;

/**
 * What the page shows of the availability checker's findings ({@link io.zkchaos.checkers.servers.AvailabilityReport}):
 * each stall, and the stretches judged and excused. Times are kept on the history's clock (ns) for the chart, and
 * written for the card. Lists hold at most {@value Cards#MAX_ROWS} rows.
 *
 * @param stalls        every stall, in time order
 * @param stallsMore    how many more results.json holds
 * @param judged        how many stretches had a whole majority, and their total time ({@code 1 stretch, 28.00 s in all})
 * @param excused       the stretches without a whole majority, with the faults in force
 * @param excusedMore   how many more results.json holds
 */
public record AvailabilityView(List<StallRow> stalls, int stallsMore, String judged, List<StretchRow> excused,
                               int excusedMore) {

    public AvailabilityView {
        stalls = List.copyOf(stalls);
        excused = List.copyOf(excused);
    }

    /**
     * Probe writes through a whole server not acknowledged for longer than the bound.
     *
     * @param id           the row's anchor
     * @param lastAckEntry the last acknowledged write's completion entry, or -1 when none was
     * @param lastAck      when it was acknowledged ({@code never})
     * @param whole        the servers whole through the stretch, comma-separated
     * @param error        the first error a write in the gap ended with, or empty
     */
    public record StallRow(String id, String node, long fromNanos, long toNanos, String from, String to, String gap,
                           String lastAck, long lastAckEntry, int attempts, String error, String whole) {
    }

    /** A stretch without a whole majority: not judged. */
    public record StretchRow(long fromNanos, long toNanos, String from, String to, String length, String whole,
                             String faults) {
    }
}
