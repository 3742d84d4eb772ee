package io.zkchaos.harness.cluster;

import java.util.Map;

/**
 * What a server says about itself (ZooKeeper's {@code srvr} four-letter word), at one moment.
 *
 * @param node  the node name
 * @param mode  the server's mode
 * @param zxid  the last zxid the server reported, or -1 when it did not answer or does not serve
 * @param epoch the server's epoch: the one it states (the fle nodes' {@code Epoch:} line, their currentEpoch), else
 *              the epoch part of the zxid (its high 32 bits; ZooKeeper states no other); -1 when unknown
 * @param error why the server could not be asked (down, paused, timeout), or null
 * @param bugPaths for an fle node with bug flags on, how often each flag's code path ran since this process started
 *              (its {@code Bug code paths:} line; a restarted node counts from 0 again); empty otherwise
 */
public record NodeStatus(String node, Mode mode, long zxid, long epoch, String error, Map<String, Long> bugPaths) {

    public NodeStatus {
        bugPaths = Map.copyOf(bugPaths);
    }

    /** A status without bug path counts (ZooKeeper's, or a server that did not answer). */
    public NodeStatus(String node, Mode mode, long zxid, long epoch, String error) {
        this(node, mode, zxid, epoch, error, Map.of());
    }

    /** A status whose epoch is the zxid's epoch part. */
    public NodeStatus(String node, Mode mode, long zxid, String error) {
        this(node, mode, zxid, zxid < 0 ? -1 : zxid >>> 32, error);
    }

    /** The same status with these bug path counts. */
    public NodeStatus withBugPaths(Map<String, Long> counts) {
        return new NodeStatus(node, mode, zxid, epoch, error, counts);
    }

    /** A server's role, as reported by {@code srvr}; {@link #UNREACHABLE} when it did not answer. */
    public enum Mode {
        LEADER, FOLLOWER, OBSERVER, STANDALONE,
        /** It answered but does not serve requests (e.g. electing). */
        NOT_SERVING,
        /** No process, no answer, or an answer that could not be read. */
        UNREACHABLE;

        /** Whether a server in this mode serves client requests. */
        public boolean serving() {
            return this == LEADER || this == FOLLOWER || this == OBSERVER || this == STANDALONE;
        }
    }
}
