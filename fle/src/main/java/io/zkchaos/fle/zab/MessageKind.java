package io.zkchaos.fle.zab;

/**
 * Every kind of message between servers, election and quorum alike, by the name ZooKeeper gives it. Test firewalls
 * drop or delay messages by kind; the wire codes are the ordinals.
 */
public enum MessageKind {
    /** FLE vote (election port). */
    NOTIFICATION,
    /** Follower → leader: its SID and acceptedEpoch (discovery). */
    FOLLOWERINFO,
    /** Leader → follower: the new epoch (discovery). */
    LEADERINFO,
    /** Follower → leader: the new epoch accepted, with its currentEpoch and last zxid (discovery). */
    ACKEPOCH,
    /** Leader → follower: the proposals after the follower's last zxid follow (synchronisation). */
    DIFF,
    /** Leader → follower: drop every proposal after a zxid (synchronisation). */
    TRUNC,
    /** Leader → follower: replace your whole history with this one (synchronisation). */
    SNAP,
    /** Leader → follower: a proposal to log (synchronisation and broadcast). */
    PROPOSAL,
    /** Leader → follower: proposals up to a zxid are committed. */
    COMMIT,
    /** Leader → follower: the synchronisation is complete; take the new epoch as current. */
    NEWLEADER,
    /** Follower → leader: acknowledges NEWLEADER (its history is durably the leader's). */
    ACKNEWLEADER,
    /** Follower → leader: a proposal is durably logged. */
    ACK,
    /** Leader → follower: the leader is established; serve. */
    UPTODATE,
    /** Both ways, every tick: liveness. */
    PING,
    /** Follower → leader: a client's write, forwarded. */
    REQUEST;

    public static MessageKind ofCode(int code) {
        MessageKind[] v = values();
        if (code < 0 || code >= v.length) {
            throw new IllegalArgumentException("unknown message code " + code);
        }
        return v[code];
    }
}
