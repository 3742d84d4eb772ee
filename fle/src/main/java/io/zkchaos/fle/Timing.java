package io.zkchaos.fle;

/**
 * The node's clocks and limits, in milliseconds and ticks, as ZooKeeper names them.
 *
 * @param tickMs                   the basic time unit: leaders ping and check their quorum once a tick
 * @param initLimit                ticks a follower may take to connect to and sync with a new leader, and a
 *                                 prospective leader waits for each discovery step
 * @param syncLimit                ticks without hearing from the other side after which a follower gives up on its
 *                                 leader, and a leader stops counting a follower
 * @param finalizeWaitMs           how long FLE waits for a better vote once a quorum agrees; also the first
 *                                 notification timeout
 * @param maxNotificationIntervalMs the bound the notification timeout doubles up to
 * @param ackBeforeDurableDelayMs  with {@link Bug#ACK_BEFORE_DURABLE}: how long an ACKed proposal stays in process
 *                                 memory before it is written to the log file
 * @param maxDiffEntries           the most proposals a leader sends as a DIFF; a follower further behind gets a SNAP
 */
public record Timing(long tickMs, int initLimit, int syncLimit, long finalizeWaitMs, long maxNotificationIntervalMs,
                     long ackBeforeDurableDelayMs, int maxDiffEntries) {

    /** Suited to fast tests on loopback: a 100 ms tick, 2 s to sync, 1 s of silence before giving up. */
    public static final Timing DEFAULT = new Timing(100, 20, 10, 200, 2_000, 1_000, 500);

    public Timing {
        positive("tickMs", tickMs);
        positive("initLimit", initLimit);
        positive("syncLimit", syncLimit);
        positive("finalizeWaitMs", finalizeWaitMs);
        positive("maxDiffEntries", maxDiffEntries);
        if (maxNotificationIntervalMs < finalizeWaitMs) {
            throw new IllegalArgumentException("maxNotificationInterval (" + maxNotificationIntervalMs
                    + " ms) must not be below finalizeWait (" + finalizeWaitMs + " ms)");
        }
        if (ackBeforeDurableDelayMs < 0) {
            throw new IllegalArgumentException("ackBeforeDurableDelay must not be negative: " + ackBeforeDurableDelayMs);
        }
    }

    private static void positive(String name, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + v);
        }
    }

    public long initLimitMs() {
        return tickMs * initLimit;
    }

    public long syncLimitMs() {
        return tickMs * syncLimit;
    }

    public Timing withTickMs(long v) {
        return new Timing(v, initLimit, syncLimit, finalizeWaitMs, maxNotificationIntervalMs, ackBeforeDurableDelayMs,
                maxDiffEntries);
    }

    public Timing withMaxNotificationIntervalMs(long v) {
        return new Timing(tickMs, initLimit, syncLimit, finalizeWaitMs, v, ackBeforeDurableDelayMs, maxDiffEntries);
    }

    public Timing withAckBeforeDurableDelayMs(long v) {
        return new Timing(tickMs, initLimit, syncLimit, finalizeWaitMs, maxNotificationIntervalMs, v, maxDiffEntries);
    }

    public Timing withMaxDiffEntries(int v) {
        return new Timing(tickMs, initLimit, syncLimit, finalizeWaitMs, maxNotificationIntervalMs,
                ackBeforeDurableDelayMs, v);
    }
}
