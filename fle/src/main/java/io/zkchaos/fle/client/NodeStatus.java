package io.zkchaos.fle.client;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.election.ServerState;
import java.util.Map;

/**
 * A node's state, as its status query (or {@code srvr}) tells it.
 *
 * @param myId          the node's SID
 * @param state         LOOKING, FOLLOWING or LEADING
 * @param serving       whether it serves clients (a leader a quorum synced with, or a follower its leader told
 *                      UPTODATE) — the state to wait for
 * @param leader        the leader it follows or is, -1 while LOOKING
 * @param currentEpoch  the epoch of the leader it last synced with
 * @param acceptedEpoch the last epoch it accepted
 * @param lastZxid      the last zxid it logged
 * @param committedZxid the last zxid it knows committed
 * @param round         its election's logical clock
 * @param bugPaths      how often each switched-on bug flag's code path ran since the node started
 *                      ({@link BugPaths}); empty for the correct build
 */
public record NodeStatus(long myId, ServerState state, boolean serving, long leader, long currentEpoch,
                         long acceptedEpoch, long lastZxid, long committedZxid, long round, Map<Bug, Long> bugPaths) {

    public NodeStatus {
        bugPaths = Map.copyOf(bugPaths);
    }

    @Override
    public String toString() {
        return "n" + myId + " " + state + (serving ? " serving" : " not serving") + ", leader " + leader + ", epoch "
                + currentEpoch + ", last zxid " + Zxid.show(lastZxid) + ", committed " + Zxid.show(committedZxid)
                + (bugPaths.isEmpty() ? "" : "; bug code paths: " + BugPaths.show(bugPaths));
    }
}
