package io.zkchaos.fle.election;

/**
 * FLE's total order on proposals: a higher peer epoch wins, then a higher zxid, then a higher SID — so the most
 * up-to-date server leads, and ties go to the larger SID.
 *
 * @param compareZxid false for the {@code elect-without-zxid} bug: (peer epoch, SID) only
 */
public record VoteOrder(boolean compareZxid) {

    public static final VoteOrder CORRECT = new VoteOrder(true);

    /** Whether the proposal (newId, newZxid, newEpoch) beats (curId, curZxid, curEpoch). */
    public boolean beats(long newId, long newZxid, long newEpoch, long curId, long curZxid, long curEpoch) {
        if (newEpoch != curEpoch) {
            return newEpoch > curEpoch;
        }
        if (compareZxid && newZxid != curZxid) {
            return newZxid > curZxid;
        }
        return newId > curId;
    }

    public boolean beats(Vote a, Vote b) {
        return beats(a.leader(), a.zxid(), a.peerEpoch(), b.leader(), b.zxid(), b.peerEpoch());
    }
}
