package io.zkchaos.nemesis.frame;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one armed {@link FrameTrigger} did, as data for the history: the packet that fired it and what was done, or
 * that it never fired within its fault window (with what the taps saw meanwhile).
 *
 * @param fault     the fault that armed it
 * @param trigger   the trigger, in words ({@link FrameTrigger#description()})
 * @param fired     whether it fired
 * @param link      the link the frame travelled on (e.g. {@code n2-n1-quorum}); empty when it did not fire
 * @param connection the proxy's id of the connection it travelled on (as in {@link SeenFrame}); -1 when it did not
 *                  fire
 * @param stream    {@code upstream} or {@code downstream}; empty when it did not fire
 * @param sender    the node that sent the frame; empty when it did not fire
 * @param receiver  the node the frame was going to; empty when it did not fire
 * @param frame     the frame's type; empty when it did not fire
 * @param id        the frame's id in hex (ZooKeeper: its zxid), empty when it has none
 * @param phase     the protocol phase of the frame
 * @param count     which counted frame it was (the trigger's nth)
 * @param bodyBytes for a body trigger, how many body bytes had passed when it fired; -1 otherwise
 * @param afterMillis how long after arming it fired (or was disarmed, when it never fired)
 * @param did       what was done, in words (or, when it never fired, what the taps saw while it was armed)
 * @param nodes     the nodes acted on
 * @param seen      frames seen per type on the tapped links while it was armed
 */
public record TriggerRecord(String fault, String trigger, boolean fired, String link, long connection, String stream,
                            String sender,
                            String receiver, String frame, String id, String phase, long count, long bodyBytes,
                            long afterMillis, String did, List<String> nodes, Map<String, Long> seen) {

    public TriggerRecord {
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(trigger, "trigger");
        nodes = List.copyOf(nodes);
        seen = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(seen));
    }

    /** One line for people. */
    public String summary() {
        if (!fired) {
            return trigger + ": never fired within the fault window (" + did + ")";
        }
        return trigger + ": fired on " + frame + (id.isEmpty() ? "" : " " + id) + " #" + count
                + (bodyBytes >= 0 ? " at body byte " + bodyBytes : "") + " on " + link + " (" + sender + " -> "
                + receiver + "): " + did;
    }
}
