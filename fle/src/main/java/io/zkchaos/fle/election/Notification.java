package io.zkchaos.fle.election;

/**
 * An election message: the sender's current vote and state. The sender's SID is not in it: the transport knows it
 * (from the connection's handshake), as in ZooKeeper.
 */
public record Notification(Vote vote) {

    public long leader() {
        return vote.leader();
    }

    public long zxid() {
        return vote.zxid();
    }

    public long electionEpoch() {
        return vote.electionEpoch();
    }

    public long peerEpoch() {
        return vote.peerEpoch();
    }

    public ServerState state() {
        return vote.state();
    }

    @Override
    public String toString() {
        return "notification " + vote;
    }
}
