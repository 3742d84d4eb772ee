package io.zkchaos.harness.run.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.harness.cluster.ServerSettings;
import io.zkchaos.harness.run.Preload;
import io.zkchaos.workloads.ZnodeAcls;

/**
 * Where the servers keep their data.
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
 * @param preload   the znodes the harness creates before the main phase ({@code --preload}), null for none;
 *                  ZooKeeper only
 * @param acls      the ACLs on the workload's znodes ({@code --acl}): open ({@code OPEN_ACL_UNSAFE}, the
 *                  default), or per-client (each client session's znodes under an ACL of its own digest identity,
 *                  so that the servers' ACL cache holds many entries that snapshots write and restarts rebuild;
 *                  {@link ZnodeAcls}); ZooKeeper's built-in workloads only
 * @param churn     session churn ({@code --churn N}): N lanes of short sessions with ephemerals beside the workload
 *                  through the main phase ({@code io.zkchaos.workloads.churn.Churn}), so that the servers' session
 *                  tables and ephemerals change while they snapshot, crash and sync; null (or 0) for none;
 *                  ZooKeeper only. It lives here with the other knobs that shape what the servers keep
 */
public record StoragePart(boolean lazyfs, boolean forceSync,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Integer snapCount,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Preload preload,
                          @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = OpenAcls.class)
                          ZnodeAcls acls,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Integer churn) {
    /** The most churn lanes: each holds a session, its relay and its client's threads. */
    public static final int MAX_CHURN = 64;

    public StoragePart {
        acls = acls == null ? ZnodeAcls.OPEN : acls;
        if (churn != null && (churn < 0 || churn > MAX_CHURN)) {
            throw new IllegalArgumentException("churn must be 0.." + MAX_CHURN + " lanes of short sessions, got "
                    + churn);
        }
        churn = churn == null || churn == 0 ? null : churn;
        new ServerSettings(forceSync, snapCount); // its checks
    }

    /** ZooKeeper's own {@code snapCount} (100000), nothing preloaded. */
    public StoragePart(boolean lazyfs, boolean forceSync) {
        this(lazyfs, forceSync, null, null, ZnodeAcls.OPEN, null);
    }

    /** With open ACLs, without session churn. */
    public StoragePart(boolean lazyfs, boolean forceSync, Integer snapCount, Preload preload) {
        this(lazyfs, forceSync, snapCount, preload, ZnodeAcls.OPEN, null);
    }

    /** The churn lanes, 0 for none. */
    public int churnLanes() {
        return churn == null ? 0 : churn;
    }

    /** The machine's own file system, ZooKeeper's default {@code forceSync=yes}. */
    public static StoragePart defaults() {
        return new StoragePart(false, true);
    }

    /** Leaves open ACLs out of the saved part, as {@code config.json} has them (files keep their older shape). */
    static final class OpenAcls {
        @Override
        public boolean equals(Object o) {
            return o == null || o == ZnodeAcls.OPEN;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** On the lazy file system, or not; the rest as it is. */
    StoragePart withLazyfs(boolean on) {
        return new StoragePart(on, forceSync, snapCount, preload, acls, churn);
    }

    /** What the servers are told of this part ({@code forceSync}, {@code snapCount}), typed. */
    public ServerSettings server() {
        return new ServerSettings(forceSync, snapCount);
    }
}
