package io.zkchaos.harness.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How followers sync with their leader, steered on purpose with ZooKeeper's own system properties (every server gets
 * them; only the leader's matter). A leader syncs a learner by DIFF (the learner's missing transactions, from its
 * in-memory committed log or, since 3.5, from its on-disk log), by TRUNC (the learner holds transactions the leader
 * never committed: an old leader), or by SNAP (the whole data tree) when neither works.
 *
 * <table>
 *   <caption>what each mode sets</caption>
 *   <tr><th>mode</th><th>properties</th><th>effect</th></tr>
 *   <tr><td>{@code auto}</td><td>none</td><td>ZooKeeper's defaults: DIFF within the last 500 committed
 *       transactions, SNAP beyond (3.5+ first try the on-disk log, whose preallocated 64 MB files make it lose to
 *       a small snapshot)</td></tr>
 *   <tr><td>{@code snap}</td><td>{@code zookeeper.forceSnapshotSync=true} (honoured from 3.5.5)</td><td>every sync is a SNAP,
 *       even of a learner that is up to date</td></tr>
 *   <tr><td>{@code diff}</td><td>{@code zookeeper.commitLogCount=1000000} (3.6.0+),
 *       {@code zookeeper.snapshotSizeFactor=1} (3.5.4+), {@code zookeeper.preAllocSize=64} (KB, so the on-disk log's
 *       size is its real size)</td><td>a lagging learner gets a DIFF instead of a SNAP (on 3.4, and 3.5 beyond 500
 *       transactions when the on-disk log is larger than the snapshot, SNAP remains)</td></tr>
 *   <tr><td>{@code trunc}</td><td>as {@code diff}</td><td>keeps TRUNC from turning into SNAP; a TRUNC itself
 *       needs a learner that logged transactions nobody else did (an old leader killed with proposals in flight):
 *       faults make that, no setting can</td></tr>
 *   <tr><td>{@code snap-on-lag}</td><td>{@code zookeeper.snapshotSizeFactor=-1} (3.5.4+)</td><td>no sync from the
 *       on-disk log: a learner more than 500 transactions behind gets a SNAP, any other a DIFF (3.4's behaviour) —
 *       the mix a SNAP interrupted and followed by a DIFF needs, which {@code snap} would turn into a second
 *       SNAP</td></tr>
 * </table>
 */
public enum SyncMode {
    AUTO, DIFF, SNAP, TRUNC, SNAP_ON_LAG;

    /** The mode of that name ({@code auto}, {@code diff}, {@code snap}, {@code trunc}, {@code snap-on-lag}). */
    public static SyncMode parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("sync must be auto, diff, snap, trunc or snap-on-lag, got '" + name
                    + "'");
        }
    }

    /** The name the CLI takes. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The JVM options that steer a server of {@code version} this way.
     *
     * @throws IllegalArgumentException when that version has no such switch ({@code snap} before 3.5.5), saying
     *                                  what it does instead
     */
    public List<String> jvmOptions(ZooKeeperVersion version) {
        List<String> out = new ArrayList<>();
        switch (this) {
            case AUTO -> {
            }
            case SNAP -> {
                if (!version.hasForcedSnapshotSync()) {
                    throw new IllegalArgumentException("sync snap needs ZooKeeper 3.5.5 or later, the first to "
                            + "honour zookeeper.forceSnapshotSync; " + version + " syncs a follower by SNAP only when "
                            + "it is more than 500 transactions behind (use the lagging-follower nemesis)");
                }
                out.add("-Dzookeeper.forceSnapshotSync=true");
            }
            case SNAP_ON_LAG -> {
                if (!version.hasSnapshotSizeFactor()) {
                    throw new IllegalArgumentException("sync snap-on-lag needs ZooKeeper 3.5.4 or later "
                            + "(zookeeper.snapshotSizeFactor); " + version + " already syncs a follower by SNAP "
                            + "exactly when it is more than 500 transactions behind (use auto)");
                }
                out.add("-Dzookeeper.snapshotSizeFactor=-1");
            }
            case DIFF, TRUNC -> {
                out.add("-Dzookeeper.commitLogCount=1000000");
                out.add("-Dzookeeper.snapshotSizeFactor=1");
                out.add("-Dzookeeper.preAllocSize=64");
            }
        }
        return out;
    }
}
