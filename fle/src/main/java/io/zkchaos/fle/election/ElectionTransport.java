package io.zkchaos.fle.election;

/**
 * How FLE reaches its peers (ZooKeeper's QuorumCnxManager): one connection per pair of servers, a send queue per
 * peer. Implementations deliver received notifications to the {@link Receiver} given to {@link #start} on the node's
 * scheduler, and may deliver a notification more than once (the last message is resent on every reconnection).
 */
public interface ElectionTransport {

    /** Where received notifications go; called on the node's scheduler. */
    interface Receiver {
        void onNotification(long fromSid, Notification n);
    }

    void start(Receiver receiver);

    /** Queues {@code n} for {@code toSid} (which may be this server itself); never blocks. */
    void send(long toSid, Notification n);

    /**
     * Whether some send queue is drained (ZooKeeper's {@code haveDelivered}): then a notification timeout resends the
     * vote to everyone, else it only reconnects. SPEC §5.2 says "every" (after ZooKeeper's comment); ZooKeeper's
     * code, and this, say "any": with "every", one peer down (its queue never drains) and one notification lost on
     * the way stall an election for as long as that peer stays down.
     */
    boolean haveDelivered();

    /** Connects to every peer it has no connection to (in the background). */
    void connectAll();
}
