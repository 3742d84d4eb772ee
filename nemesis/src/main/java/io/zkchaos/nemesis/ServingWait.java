package io.zkchaos.nemesis;

import java.time.Duration;

/**
 * Whether a node serves again: what a {@link NodeControl} implements when its system can tell (every cluster of the
 * harness). The faults that wait for a node to serve (a rolling restart, a replaced disk, catching up) cannot act on
 * a system that does not implement it, and say so.
 */
public interface ServingWait {

    /**
     * Waits until {@code node} serves clients again as a member of a quorum (a leader, or a follower that has
     * synced with one): what a rolling restart waits for before it takes the next node down.
     *
     * @throws IllegalStateException past {@code bound}, naming the node and what it was doing
     */
    void awaitServing(String node, Duration bound);
}
