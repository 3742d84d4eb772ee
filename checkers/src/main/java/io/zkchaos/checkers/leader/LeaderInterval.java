package io.zkchaos.checkers.leader;

/**
 * One leadership as a candidate process believed it: from the {@code acquire} ok to the first of the
 * {@code release} invoke, the info that retired the process, or the end of the history.
 *
 * @param process   the candidate's client process
 * @param node      the candidate's name ({@code node} of the acquire result), or {@code "process N"} if absent
 * @param token     the fencing token (the election znode's sequence number)
 * @param czxid     the znode's creation zxid, or -1 if the history did not record it
 * @param startIndex history index of the acquire ok
 * @param endIndex   history index of the entry that ended it (release invoke or retiring info), or the history's
 *                   last index + 1 when it was still in force at the end
 * @param startNanos time of the acquire ok, -1 if unknown
 * @param endNanos   time it ended, -1 if unknown
 * @param endReason  the release reason ({@code closed}, {@code session-expired}, ...), {@code process retired by info}
 *                   or {@code still leading at end of history}
 */
public record LeaderInterval(int process, String node, long token, long czxid, long startIndex, long endIndex,
                             long startNanos, long endNanos, String endReason) {

    /** How the interval is named in explanations: {@code n2 (token 7, process 3)}. */
    public String label() {
        return node + " (token " + token + ", process " + process + ")";
    }

    /** Whether this interval is in force just after history index {@code index}. */
    boolean holdsAt(long index) {
        return startIndex < index && index < endIndex;
    }
}
