package io.zkchaos.fle.peer;

import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.History;
import java.util.List;

/**
 * How a leader brings a follower's history to its own (ZAB synchronisation), from the follower's last zxid:
 * <ul>
 *   <li>DIFF: the follower's last zxid is in the leader's history (or both are empty): send the proposals after it;</li>
 *   <li>TRUNC: the follower has proposals the leader does not (never committed, from an old epoch): cut the
 *       follower back to the leader's largest zxid below its last, then send the proposals after that;</li>
 *   <li>SNAP: the follower asked for one (it could not truncate), or more than {@code maxDiff} proposals would have to
 *       be sent: replace its whole history.</li>
 * </ul>
 *
 * @param kind    which of the three
 * @param from    DIFF: the follower's last zxid; TRUNC: the zxid to cut back to; SNAP: 0
 * @param entries the proposals to send after the DIFF or TRUNC, or the whole history for a SNAP
 */
record SyncPlan(Kind kind, long from, List<Entry> entries) {

    enum Kind { DIFF, TRUNC, SNAP }

    static SyncPlan plan(History leader, long peerLastZxid, boolean wantSnap, int maxDiff) {
        if (wantSnap) {
            return snap(leader);
        }
        if (peerLastZxid == leader.lastZxid()) {
            return new SyncPlan(Kind.DIFF, peerLastZxid, List.of());
        }
        if (peerLastZxid == 0 || leader.contains(peerLastZxid)) {
            List<Entry> suffix = leader.after(peerLastZxid);
            return suffix.size() <= maxDiff ? new SyncPlan(Kind.DIFF, peerLastZxid, suffix) : snap(leader);
        }
        long common = leader.largestBelow(peerLastZxid);
        List<Entry> suffix = leader.after(common);
        return suffix.size() <= maxDiff ? new SyncPlan(Kind.TRUNC, common, suffix) : snap(leader);
    }

    private static SyncPlan snap(History leader) {
        return new SyncPlan(Kind.SNAP, 0, leader.snapshot());
    }
}
