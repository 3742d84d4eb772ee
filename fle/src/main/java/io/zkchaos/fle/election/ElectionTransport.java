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

    /** Whether every send queue is drained (ZooKeeper's {@code haveDelivered}). */
    boolean allDelivered();

    /** Connects to every peer it has no connection to (in the background). */
    void connectAll();
}
