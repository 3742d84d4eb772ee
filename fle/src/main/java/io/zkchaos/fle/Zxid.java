package io.zkchaos.fle;

/**
 * ZAB transaction ids: 64 bits, the epoch in the high 32 bits and a counter that restarts at 0 in every epoch in the
 * low 32 bits. Zero is "nothing yet" (epoch 0, counter 0); the first proposal of epoch {@code e} is {@code (e, 1)}.
 */
public final class Zxid {

    /** The largest counter an epoch can use; ZooKeeper forces a new election when it is reached. */
    public static final long MAX_COUNTER = 0xffffffffL;

    private Zxid() {
    }

    public static long of(long epoch, long counter) {
        if (epoch < 0 || epoch > 0xffffffffL) {
            throw new IllegalArgumentException("epoch out of range: " + epoch);
        }
        if (counter < 0 || counter > MAX_COUNTER) {
            throw new IllegalArgumentException("counter out of range: " + counter);
        }
        return (epoch << 32) | counter;
    }

    public static long epoch(long zxid) {
        return zxid >>> 32;
    }

    public static long counter(long zxid) {
        return zxid & 0xffffffffL;
    }

    /** As ZooKeeper prints it: {@code 0x100000003}. */
    public static String hex(long zxid) {
        return "0x" + Long.toHexString(zxid);
    }

    /** {@code e.c}, the readable form used in logs and test messages. */
    public static String show(long zxid) {
        return epoch(zxid) + "." + counter(zxid);
    }
}
