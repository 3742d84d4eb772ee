package io.zkchaos.harness.bench;

import static io.zkchaos.checkers.bench.Stats.median;

import io.zkchaos.harness.cluster.ZooKeeperVersion;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.lazyfs.LazyFs;
import io.zkchaos.harness.cluster.lazyfs.LazyFsMount;
import io.zkchaos.harness.cluster.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * What the lazy file system costs: two 3-node ensembles up at once, one with its data directories on the lazy file
 * system, one on the machine's own; the two take turns (so that the machine's load drifts alike for both), each turn
 * measuring one create at a time (median latency) and then creates with 100 in flight (throughput), through a client
 * on the leader. ZooKeeper's default {@code forceSync=yes}: every commit fsyncs the transaction log, which on the lazy
 * file system writes its pages to the disk directory. Run: {@code ./zkchaos bench lazyfs [rounds] [seconds]}
 * (default 5 rounds of 2 s per variant and measure).
 */
public final class LazyFsBench {

    private LazyFsBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Duration turn = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 2);
        LazyFs.unavailable().ifPresent(why -> {
            throw new IllegalStateException("the lazy file system cannot run here: " + why);
        });
        Path root = Files.createTempDirectory("zkchaos-lazyfs-bench");
        System.out.printf(Locale.ROOT, "# LazyFsBench: 3 nodes, ZooKeeper %s, %d cpus, load average %.1f; %d rounds "
                        + "of %d s per variant and measure%n", ZooKeeperVersion.DEFAULT.text(),
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), rounds,
                turn.toSeconds());
        try (LocalCluster plain = LocalCluster.start(ClusterConfig.builder().nodes(3)
                .runDirectory(root.resolve("plain")).build());
             LocalCluster lazy = LocalCluster.start(ClusterConfig.builder().nodes(3).lazyFs(true)
                     .runDirectory(root.resolve("lazy")).build());
             ZooKeeper zp = connect(plain);
             ZooKeeper zl = connect(lazy)) {
            List<Long> latPlain = new ArrayList<>();
            List<Long> latLazy = new ArrayList<>();
            double opsPlain = 0;
            double opsLazy = 0;
            for (int r = 0; r < rounds; r++) {
                latPlain.addAll(sequential(zp, "/p" + r, turn));
                latLazy.addAll(sequential(zl, "/l" + r, turn));
                opsPlain += pipelined(zp, "/pp" + r, turn);
                opsLazy += pipelined(zl, "/lp" + r, turn);
            }
            long mp = median(latPlain);
            long ml = median(latLazy);
            System.out.printf(Locale.ROOT, "own file system: create median latency %d us (%d creates), %.0f creates/s "
                    + "with 100 in flight%n", mp, latPlain.size(), opsPlain / rounds);
            System.out.printf(Locale.ROOT, "lazy file system: create median latency %d us (%d creates), %.0f creates/s "
                    + "with 100 in flight%n", ml, latLazy.size(), opsLazy / rounds);
            System.out.printf(Locale.ROOT, "lazyfs overhead: latency %+d us (%+.0f%%), throughput %+.1f%%%n", ml - mp,
                    100.0 * (ml - mp) / mp, 100.0 * (opsLazy - opsPlain) / opsPlain);
            String leader = lazy.leader().orElseThrow();
            LazyFsMount m = lazy.lazyFsMount(leader).orElseThrow();
            System.out.println("leader " + leader + "'s lazy file system: " + m.counters());
        }
    }

    /** A client of the leader alone. */
    private static ZooKeeper connect(LocalCluster c) throws Exception {
        return BenchClients.connect(c.connectString(c.leader().orElseThrow()), Duration.ofSeconds(30));
    }

    /** One create at a time for {@code turn}: each latency in µs. */
    private static List<Long> sequential(ZooKeeper zk, String parent, Duration turn) throws Exception {
        zk.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        List<Long> out = new ArrayList<>();
        long end = System.nanoTime() + turn.toNanos();
        for (int i = 0; System.nanoTime() < end; i++) {
            long t0 = System.nanoTime();
            zk.create(parent + "/c" + i, new byte[16], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            out.add((System.nanoTime() - t0) / 1000);
        }
        return out;
    }

    /** Asynchronous creates, 100 in flight, for {@code turn}: creates per second. */
    private static double pipelined(ZooKeeper zk, String parent, Duration turn) throws Exception {
        zk.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        Semaphore inFlight = new Semaphore(100);
        AtomicLong done = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long t0 = System.nanoTime();
        long end = t0 + turn.toNanos();
        for (int i = 0; System.nanoTime() < end; i++) {
            inFlight.acquire();
            zk.create(parent + "/c" + i, new byte[16], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                    (rc, path, ctx, name) -> {
                        if (rc == KeeperException.Code.OK.intValue()) {
                            done.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                        inFlight.release();
                    }, null);
        }
        inFlight.acquire(100);
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " creates failed under " + parent);
        }
        return done.get() / ((System.nanoTime() - t0) / 1e9);
    }
}
