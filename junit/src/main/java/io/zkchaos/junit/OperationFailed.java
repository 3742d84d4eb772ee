package io.zkchaos.junit;

/**
 * Thrown by the body of {@link ChaosProcess#call} when the operation certainly did not happen (ZooKeeper said no: a
 * bad version on a conditional write, a node that already exists): recorded as {@code fail}, and the process goes
 * on. Any other exception is recorded as {@code info}.
 */
public class OperationFailed extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param why a short, stable reason, recorded as the operation's error ({@code bad-version}) */
    public OperationFailed(String why) {
        super(why);
    }
}
