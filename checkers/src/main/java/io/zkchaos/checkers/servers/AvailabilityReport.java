package io.zkchaos.checkers.servers;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import java.util.List;
import java.util.SortedSet;

/**
 * The availability checker's findings: the stretches of the clients' time in which a majority of the servers was
 * whole (judged), those in which it was not (excused, with the faults in force), and every stall found.
 *
 * @param boundMillis      how long a whole server may go without acknowledging a probe write
 * @param nodes            the servers probed, in order
 * @param probeWrites      the probe writes attempted
 * @param probeAcks        of those, acknowledged
 * @param stretchesJudged  how many stretches had a whole majority
 * @param judgedMillis     their total time
 * @param excused          the stretches without a whole majority, in time order
 * @param stalls           each gap longer than the bound through a whole server of a whole majority, in time order
 */
public record AvailabilityReport(long boundMillis, List<String> nodes, int probeWrites, int probeAcks,
                                 int stretchesJudged, long judgedMillis, List<Stretch> excused,
                                 List<Stall> stalls) implements Findings {

    public AvailabilityReport {
        nodes = List.copyOf(nodes);
        excused = List.copyOf(excused);
        stalls = List.copyOf(stalls);
    }

    /**
     * A stretch of time with one set of whole servers, on the history's clock.
     *
     * @param startNanos when it began
     * @param endNanos   when it ended
     * @param whole      the servers no fault acted on (and not down) through it
     * @param faults     the faults in force then, described ({@code halves on n1})
     */
    public record Stretch(long startNanos, long endNanos, List<String> whole, List<String> faults) {
        public Stretch {
            whole = List.copyOf(whole);
            faults = List.copyOf(faults);
        }
    }

    /**
     * Probe writes through a whole server not acknowledged for longer than the bound while a majority was whole.
     *
     * @param node          the server the probe was pinned to
     * @param stretch       the stretch it happened in
     * @param fromNanos     when the gap began: the last acknowledgement, or the stretch's start when later
     * @param toNanos       when it ended: the next acknowledgement, or the stretch's or the probe's end
     * @param lastAckNanos  the completion of the last write acknowledged before it (perhaps before the stretch), or
     *                      null when none was
     * @param lastAckIndex  that write's completion's history index, or null
     * @param attempts      the probe writes attempted in the gap
     * @param error         the first error a write in the gap ended with, or null
     */
    public record Stall(String node, Stretch stretch, long fromNanos, long toNanos, Long lastAckNanos,
                       Long lastAckIndex, int attempts, String error) {
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().ifAny(stalls, "stall").build();
    }
}
