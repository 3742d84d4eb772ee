package io.zkchaos.fle.peer;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.election.ServerState;
import java.util.Map;

/**
 * A server's state, like ZooKeeper's {@code srvr}.
 *
 * @param myId          the server's SID
 * @param state         LOOKING, FOLLOWING or LEADING
 * @param serving       whether it serves clients: a leader once a quorum has synced with it, a follower once its
 *                      leader said UPTODATE
 * @param leader        the leader it follows or is, -1 while LOOKING
 * @param currentEpoch  the epoch of the last leader it synced with (durable)
 * @param acceptedEpoch the last epoch it accepted in discovery (durable)
 * @param lastZxid      the last zxid of its history (committed or not)
 * @param committedZxid the last zxid it knows is committed
 * @param round         the election's logical clock
 * @param bugPaths      how often each switched-on bug flag's code path ran in this incarnation ({@link BugPaths});
 *                      empty for the correct build
 */
public record PeerStatus(long myId, ServerState state, boolean serving, long leader, long currentEpoch,
                         long acceptedEpoch, long lastZxid, long committedZxid, long round, Map<Bug, Long> bugPaths) {

    public PeerStatus {
        bugPaths = Map.copyOf(bugPaths);
    }

    /** The same state with other counts. */
    public PeerStatus withBugPaths(Map<Bug, Long> counts) {
        return new PeerStatus(myId, state, serving, leader, currentEpoch, acceptedEpoch, lastZxid, committedZxid,
                round, counts);
    }

    @Override
    public String toString() {
        return "n" + myId + " " + state + (serving ? " serving" : " not serving") + " leader " + leader + " epoch "
                + currentEpoch + "/" + acceptedEpoch + " last " + Zxid.show(lastZxid) + " committed "
                + Zxid.show(committedZxid) + " round " + round
                + (bugPaths.isEmpty() ? "" : "; bug code paths: " + BugPaths.show(bugPaths));
    }
}
