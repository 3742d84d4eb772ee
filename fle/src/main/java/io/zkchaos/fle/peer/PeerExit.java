package io.zkchaos.fle.peer;

/**
 * How a server ends its own process: a real node halts its JVM with the code (it never returns); a simulated one
 * crashes, as if its process had ended, and returns. Either way the caller does nothing more after the call.
 */
@FunctionalInterface
public interface PeerExit {

    /** The exit code of a node that stopped itself at run time (the node's {@code NodeStartException.FATAL}). */
    int STOPPED_ITSELF = 5;

    /**
     * Ends this server's process.
     *
     * @param code   the exit code, non-zero
     * @param reason why, for the log and the process's last words
     */
    void exit(int code, String reason);
}
