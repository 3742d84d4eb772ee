package io.zkchaos.fle.zab;

/**
 * The quorum port: followers open a channel to their leader; a leader accepts channels from followers. Channels are
 * FIFO, as TCP connections are; every callback runs on the node's scheduler. A channel learns the follower's SID only
 * from its FOLLOWERINFO, never from where it connects from (the fault proxy stands in between).
 */
public interface QuorumTransport {

    /** The events of one channel. After {@link QuorumChannel#close()} no more callbacks come for that channel. */
    interface Handler {
        void onOpen(QuorumChannel channel);

        void onMessage(QuorumChannel channel, QuorumMessage message);

        void onClose(QuorumChannel channel, String reason);
    }

    /** Accepts channels from followers into {@code handler} until the returned handle is closed. */
    AutoCloseable listen(Handler handler);

    /** Opens a channel to the leader {@code leaderSid}; {@code handler} hears whether it opened or failed. */
    QuorumChannel connect(long leaderSid, Handler handler);
}
