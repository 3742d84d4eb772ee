package io.zkchaos.nemesis.net;

/**
 * Counters of one link since it was created; monotonic except {@code openConnections}.
 *
 * @param bytesUpstream      bytes delivered to the upstream server
 * @param bytesDownstream    bytes delivered back to clients
 * @param bytesDropped       bytes read but never delivered (timeout, reset_peer, limit_data, cut connections)
 * @param connectionsAccepted connections accepted on the listen address
 * @param openConnections    connections open now
 * @param connectionsCut     connections the link closed because it was cut (disabled while they were open)
 */
public record LinkStats(long bytesUpstream, long bytesDownstream, long bytesDropped, long connectionsAccepted,
                        long openConnections, long connectionsCut) {

    /** Counters of a link that does not count connections it cut. */
    public LinkStats(long bytesUpstream, long bytesDownstream, long bytesDropped, long connectionsAccepted,
                     long openConnections) {
        this(bytesUpstream, bytesDownstream, bytesDropped, connectionsAccepted, openConnections, 0);
    }
}
