package io.zkchaos.fle.node;

/**
 * A node could not start; the message names the problem and {@link #exitCode()} is what the process exits with:
 * {@value #CONFIG} a bad config, {@value #BIND} an address it cannot bind, {@value #DATA_DIR} an unusable data dir.
 */
public final class NodeStartException extends Exception {

    public static final int CONFIG = 2;
    public static final int BIND = 3;
    public static final int DATA_DIR = 4;
    /** Not a start failure: the node stopped itself at run time (a storage failure, an internal error). */
    public static final int FATAL = 5;

    private final int exitCode;

    public NodeStartException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
