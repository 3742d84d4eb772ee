package io.zkchaos.workloads;

import org.apache.zookeeper.KeeperException;

/**
 * Maps what a ZooKeeper call threw to an honest outcome. Only the caller knows which errors prove an operation did
 * not happen (BadVersion on a cas, NodeExists on a create); everything it does not handle itself is indeterminate.
 */
public final class Outcomes {

    private Outcomes() {
    }

    /** Short stable name of an error for the history ({@code connection-loss}, {@code session-expired}, ...). */
    public static String describe(Throwable t) {
        if (t instanceof KeeperException ke) {
            return switch (ke.code()) {
                case CONNECTIONLOSS -> "connection-loss";
                case SESSIONEXPIRED -> "session-expired";
                case OPERATIONTIMEOUT -> "operation-timeout";
                case REQUESTTIMEOUT -> "request-timeout";
                case SESSIONMOVED -> "session-moved";
                default -> ke.code().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                        + (ke.getPath() == null ? "" : " " + ke.getPath());
            };
        }
        if (t instanceof InterruptedException) {
            return "interrupted";
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /** Any error the caller did not classify: unknown whether it took effect. Restores the interrupt flag. */
    public static Result indeterminate(Throwable t) {
        if (t instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return Result.info(describe(t));
    }
}
