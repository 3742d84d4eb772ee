package io.zkchaos.results;

import java.util.Objects;

/**
 * One line of a run's {@code cluster.jsonl}: what one ZooKeeper server said about itself when it was asked, written
 * when its answer changed. Times are on the history's clock (ns since the history's start), so the report can lay
 * the servers' view next to the clients' operations.
 *
 * @param time  ns since the start of the history, as {@code Op.time}
 * @param node  the server, {@code n1 ..}
 * @param mode  what it said: {@code leader}, {@code follower}, {@code observer}, {@code standalone},
 *              {@code not_serving} (it answered but does not serve, e.g. electing) or {@code unreachable}
 * @param epoch the epoch of its last zxid, -1 when it did not say
 * @param state what the harness had done to its process: {@code running}, {@code paused} or {@code down}
 * @param error why it could not be asked (down, paused, timeout), or null
 */
public record ServerObservation(long time, String node, String mode, long epoch, String state, String error) {

    public ServerObservation {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(mode, "mode");
    }

    /** Whether this says the same as {@code other} (times aside): an observer writes only changes. */
    public boolean sameAs(ServerObservation other) {
        return other != null && node.equals(other.node) && mode.equals(other.mode) && epoch == other.epoch
                && Objects.equals(state, other.state);
    }
}
