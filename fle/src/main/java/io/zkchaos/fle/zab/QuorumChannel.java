package io.zkchaos.fle.zab;

/** One FIFO channel between a leader and a follower. */
public interface QuorumChannel {

    /** Queues {@code m}; never blocks. Messages sent on a closed channel are dropped. */
    void send(QuorumMessage m);

    /** Closes the channel; the other side hears of it. */
    void close();

    /** For logs: the remote end as far as this side knows it. */
    String describe();
}
