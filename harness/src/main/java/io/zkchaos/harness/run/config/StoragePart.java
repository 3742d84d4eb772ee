package io.zkchaos.harness.run.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.harness.cluster.ServerSettings;

/**
 * Where the servers keep their data, and how. What shapes the load they hold (preload, ACLs, churn) is
 * {@link LoadPart}.
 *
 * @param lazyfs    every server's data directory on the lazy file system, which holds writes until fsync and
 *                  fails on command, so that the power failures ({@code kill-lose-unfsynced} ...) can drop or
 *                  tear what was not fsynced and the {@code disk-*} faults can make a disk fail (local backend;
 *                  needs FUSE, see {@code docs/lazyfs.md}); the nemeses that need it set it
 * @param forceSync ZooKeeper's {@code forceSync}: whether it fsyncs its transaction log before acknowledging;
 *                  {@code false} writes {@code forceSync=no} (a server that acknowledges what a power failure
 *                  can still take)
 * @param snapCount ZooKeeper's {@code snapCount} ({@code --snap-count}): a server snapshots its tree and rolls its
 *                  log after a random N/2..N transactions (ZooKeeper's own draw, not the run's seed; every release
 *                  from 3.4 reads it from {@code zoo.cfg}, as the system property {@code zookeeper.snapCount}); at
 *                  least 2; null for ZooKeeper's 100000.
 *                  ZooKeeper only: the fle nodes take no snapshots
 */
public record StoragePart(boolean lazyfs, boolean forceSync,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Integer snapCount) {

    public StoragePart {
        new ServerSettings(forceSync, snapCount); // its checks
    }

    /** ZooKeeper's own {@code snapCount} (100000). */
    public StoragePart(boolean lazyfs, boolean forceSync) {
        this(lazyfs, forceSync, null);
    }

    /** The machine's own file system, ZooKeeper's default {@code forceSync=yes}. */
    public static StoragePart defaults() {
        return new StoragePart(false, true);
    }

    /** On the lazy file system, or not; the rest as it is. */
    StoragePart withLazyfs(boolean on) {
        return new StoragePart(on, forceSync, snapCount);
    }

    /** What the servers are told of this part ({@code forceSync}, {@code snapCount}), typed. */
    public ServerSettings server() {
        return new ServerSettings(forceSync, snapCount);
    }
}
