package io.zkchaos.harness.cluster;

/** An ensemble, or a node, did not reach the expected state within its bound. The message names the node, what
 * was expected, what was seen, and the tail of the node's log. */
public final class ClusterNotReadyException extends RuntimeException {

    public ClusterNotReadyException(String message) {
        super(message);
    }
}
