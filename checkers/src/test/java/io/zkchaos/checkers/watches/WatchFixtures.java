package io.zkchaos.checkers.watches;

import static io.zkchaos.checkers.watches.WatchHistory.K1;
import static io.zkchaos.checkers.watches.WatchHistory.K2;
import static io.zkchaos.checkers.watches.WatchHistory.stat;

/**
 * Planted violations shared by the unit tests and the doc's examples. {@code zxids}: whether events carry their
 * change's zxid, as servers from 3.9.0 send it (else -1, as before).
 */
public final class WatchFixtures {

    private WatchFixtures() {
    }

    private static long z(boolean zxids, long zxid) {
        return zxids ? zxid : -1;
    }

    /** Session 1 watches k1 and k2; k1 is set (0x12), then k2 (0x13). */
    public static WatchHistory twoWatchedSets() {
        return new WatchHistory()
                .create(K1, "a", 0x10)
                .create(K2, "b", 0x11)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .getData(1, K2, stat(0x11, 0x11, 0x11, 0))
                .set(K1, "c", 0x12)
                .set(K2, "d", 0x13);
    }

    /** The events of k2's and k1's sets arrive in the wrong order. */
    public static WatchHistory reordered(boolean zxids) {
        return twoWatchedSets()
                .event(1, "data", "data-changed", K2, z(zxids, 0x13))
                .event(1, "data", "data-changed", K1, z(zxids, 0x12));
    }

    /** k2's event arrives, k1's never does, and the session's sync after both sets completes. */
    public static WatchHistory lostInAConnectedSession(boolean zxids) {
        return twoWatchedSets()
                .event(1, "data", "data-changed", K2, z(zxids, 0x13))
                .sync(1);
    }

    /** The session reads k1's new version before the event of its watch on k1. */
    public static WatchHistory readBeforeEvent(boolean zxids) {
        return new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .set(K1, "b", 0x11)
                .read(1, "get-data", K1, false, stat(0x10, 0x11, 0x10, 1))
                .event(1, "data", "data-changed", K1, z(zxids, 0x11));
    }
}
