package io.zkchaos.fle.peer;

import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.election.Vote;
import io.zkchaos.fle.zab.Entry;

/** What a server tells an observer (tests, the node's log) as it happens; called on the node's scheduler. */
public interface PeerListener {

    PeerListener NONE = new PeerListener() {
    };

    /** An election round ended with {@code vote}: lead or follow. */
    default void decided(long myId, Vote vote, ServerState state) {
    }

    /** The server started serving as leader or follower of {@code epoch}. */
    default void serving(long myId, ServerState role, long epoch, long leader) {
    }

    /** The server went back to LOOKING. */
    default void looking(long myId, String reason) {
    }

    /** The server applied a committed entry. */
    default void applied(long myId, Entry entry) {
    }

    /** The server sent an ACK for a proposal (or counted its own, as leader). */
    default void acked(long myId, long zxid) {
    }
}
