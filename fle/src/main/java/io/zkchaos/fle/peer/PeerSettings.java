package io.zkchaos.fle.peer;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a server is: its SID, the voting members (itself included), its clocks and its bug flags.
 *
 * @param myId   this server's SID (positive)
 * @param voters every voting server's SID, this one's included
 */
public record PeerSettings(long myId, SortedSet<Long> voters, Timing timing, Bugs bugs) {

    public PeerSettings {
        voters = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(voters));
        if (myId <= 0) {
            throw new IllegalArgumentException("myid must be positive: " + myId);
        }
        if (!voters.contains(myId)) {
            throw new IllegalArgumentException("myid " + myId + " is not among the servers " + voters);
        }
        for (long v : voters) {
            if (v <= 0) {
                throw new IllegalArgumentException("server ids must be positive: " + v);
            }
        }
    }

    public static PeerSettings of(long myId, Set<Long> voters, Timing timing, Bugs bugs) {
        return new PeerSettings(myId, new TreeSet<>(voters), timing, bugs);
    }

    /** A majority of the voters. */
    public int quorum() {
        return voters.size() / 2 + 1;
    }
}
