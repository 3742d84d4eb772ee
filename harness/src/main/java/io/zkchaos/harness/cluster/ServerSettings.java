package io.zkchaos.harness.cluster;

/**
 * How every ZooKeeper server of an ensemble keeps its data, as typed values: written into {@code zoo.cfg} by the one
 * renderer ({@code cluster.server.ServerFiles}), never carried as {@code zoo.cfg} strings.
 *
 * @param forceSync ZooKeeper's {@code forceSync}: whether a server fsyncs its transaction log before acknowledging
 *                  (its default, true); false writes {@code forceSync=no}, a server that acknowledges what a power
 *                  failure can still take
 * @param snapCount ZooKeeper's {@code snapCount}: a server snapshots its tree and rolls its log after a random
 *                  N/2..N transactions (every release from 3.4 reads it from {@code zoo.cfg}); at least 2; null for
 *                  ZooKeeper's own 100000
 */
public record ServerSettings(boolean forceSync, Integer snapCount) {

    /** ZooKeeper's own: fsync before acknowledging, its own snapCount. */
    public static final ServerSettings DEFAULTS = new ServerSettings(true, null);

    /** @throws IllegalArgumentException naming the field as the CLI spells it */
    public ServerSettings {
        if (snapCount != null && snapCount < 2) {
            throw new IllegalArgumentException("snap-count must be at least 2 (ZooKeeper snapshots and rolls its "
                    + "log after a random N/2..N transactions, and takes 2 for anything less), got " + snapCount);
        }
    }
}
