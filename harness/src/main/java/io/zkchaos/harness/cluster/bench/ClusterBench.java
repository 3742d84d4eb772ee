package io.zkchaos.harness.cluster.bench;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Figures of the local backend: ensemble start time (3 and 5 nodes), failover time after killing the leader, and
 * the fault proxy's overhead on ZooKeeper client operations (a proxied ensemble against a direct one).
 *
 * <p>Usage: {@code ClusterBench [runs-dir] [kills] [seconds-per-throughput-run] [what]}; defaults
 * {@code target/zkchaos-bench 10 5 all}; {@code what} is {@code all}, {@code start}, {@code failover} or
 * {@code overhead}. Prints one line per figure. For the overhead, a direct and a proxied ensemble run at once and
 * the variants take turns in short windows, because a shared machine's load drifts by more than the effect.
 */
public final class ClusterBench {

    private ClusterBench() {
    }

    public static void main(String[] args) throws Exception {
        Path runs = Path.of(args.length > 0 ? args[0] : "target/zkchaos-bench").toAbsolutePath();
        int kills = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String what = args.length > 3 ? args[3] : "all";
        Files.createDirectories(runs);
        System.out.printf(Locale.ROOT, "# zk-chaos ClusterBench: ZooKeeper %s, tickTime 200 ms, %d cores%n",
                ClusterConfig.DEFAULT_VERSION, Runtime.getRuntime().availableProcessors());

        if (what.equals("all") || what.equals("start")) {
            startTimes(runs);
        }
        if (what.equals("all") || what.equals("failover")) {
            failover(runs, kills);
        }
        if (what.equals("all") || what.equals("overhead")) {
            overhead(runs, seconds);
        }
    }

    private static void startTimes(Path runs) throws Exception {
        for (int n : new int[] {3, 5}) {
            List<Long> starts = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                try (LocalCluster c = LocalCluster.start(config(runs, "start-" + n + "-" + i, n, true))) {
                    starts.add(ms(t0));
                }
            }
            System.out.printf(Locale.ROOT, "start %d nodes (proxied, until a quorum serves): median %d ms, max %d ms"
                    + " over %d starts%n", n, median(starts), Collections.max(starts), starts.size());
        }

    }

    private static void failover(Path runs, int kills) throws Exception {
        for (boolean proxied : new boolean[] {true, false}) {
            String label = proxied ? "proxied" : "direct";
            try (LocalCluster c = LocalCluster.start(config(runs, "failover-" + label, 3, proxied))) {
                List<Long> failovers = new ArrayList<>();
                for (int i = 0; i < kills; i++) {
                    String old = c.leader().orElseThrow();
                    long t0 = System.nanoTime();
                    c.kill(old);
                    awaitNewLeader(c, old, Duration.ofSeconds(30));
                    failovers.add(ms(t0));
                    c.start(old);
                    c.awaitQuorum(Duration.ofSeconds(30));
                    awaitAllServe(c, Duration.ofSeconds(30));
                }
                System.out.printf(Locale.ROOT, "failover after SIGKILL of the leader, 3 nodes, %s (kill -> a new "
                        + "leader and a quorum serve): median %d ms, max %d ms over %d kills %s%n", label,
                        median(failovers), Collections.max(failovers), failovers.size(), failovers);
            }
        }
    }

    /**
     * Both ensembles run at once and the variants take turns in short windows (10 rounds), so that the load of a
     * shared machine, which drifts over seconds, falls on every variant alike.
     */
    private static void overhead(Path runs, int seconds) throws Exception {
        try (LocalCluster direct = LocalCluster.start(config(runs, "overhead-direct", 3, false));
             LocalCluster proxied = LocalCluster.start(config(runs, "overhead-proxied", 3, true));
             ZooKeeper zd = connect(direct.connectString("n1"));
             ZooKeeper zp = connect(proxied.connectString("n1"));
             ZooKeeper zpd = connect(proxied.directConnectString("n1"))) {
            for (ZooKeeper z : List.of(zd, zp)) {
                z.create("/bench", new byte[100], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            List<String> labels = List.of("direct", "proxied", "proxied peers, direct client");
            List<ZooKeeper> clients = List.of(zd, zp, zpd);
            double[] reads = new double[3];
            double[] writes = new double[3];
            List<List<Long>> readLat = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            List<List<Long>> writeLat = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (ZooKeeper z : clients) { // warm-up
                throughput(z, true, 1);
                throughput(z, false, 1);
            }
            int rounds = 10;
            double window = Math.max(0.5, seconds / 5.0);
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < 3; k++) {
                    int v = (round + k) % 3; // rotate who goes first
                    ZooKeeper z = clients.get(v);
                    reads[v] += throughput(z, true, window) / rounds;
                    writes[v] += throughput(z, false, window) / rounds;
                    readLat.get(v).addAll(latenciesUs(z, true, 200));
                    writeLat.get(v).addAll(latenciesUs(z, false, 100));
                }
            }
            for (int v = 0; v < 3; v++) {
                print(labels.get(v), new Result(reads[v], writes[v], median(readLat.get(v)),
                        median(writeLat.get(v))));
            }
            System.out.printf(Locale.ROOT, "proxy overhead (%d interleaved rounds of %.1f s per variant and "
                            + "operation): getData throughput %+.1f%%, setData throughput %+.1f%%, getData median "
                            + "latency %+d us, setData median latency %+d us%n", rounds, window,
                    pct(reads[1], reads[0]), pct(writes[1], writes[0]),
                    median(readLat.get(1)) - median(readLat.get(0)), median(writeLat.get(1)) - median(writeLat.get(0)));
        }
    }

    private static ClusterConfig config(Path runs, String name, int nodes, boolean proxied) {
        return ClusterConfig.builder().nodes(nodes).proxied(proxied).runDirectory(runs.resolve(name)).build();
    }

    private static void awaitNewLeader(LocalCluster c, String old, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            var statuses = c.statuses();
            long leaders = statuses.values().stream().filter(s -> s.mode().name().equals("LEADER")
                    && !s.node().equals(old)).count();
            long serving = statuses.values().stream().filter(s -> s.mode().serving()).count();
            if (leaders == 1 && serving >= c.config().quorumSize()) {
                return;
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("no new leader within " + bound);
    }

    private static void awaitAllServe(LocalCluster c, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            if (c.statuses().values().stream().allMatch(s -> s.mode().serving())) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("not every node serves within " + bound);
    }

    private record Result(double readsPerSec, double writesPerSec, double readMedianUs, double writeMedianUs) {
    }

    private static List<Long> latenciesUs(ZooKeeper zk, boolean read, int ops) throws Exception {
        List<Long> us = new ArrayList<>();
        byte[] data = new byte[100];
        for (int i = 0; i < ops; i++) {
            long t0 = System.nanoTime();
            if (read) {
                zk.getData("/bench", false, null);
            } else {
                zk.setData("/bench", data, -1);
            }
            us.add((System.nanoTime() - t0) / 1000);
        }
        return us;
    }

    private static double throughput(ZooKeeper zk, boolean read, double seconds) throws Exception {
        Semaphore inFlight = new Semaphore(100);
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        byte[] data = new byte[100];
        long t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            inFlight.acquire();
            if (read) {
                zk.getData("/bench", false, (rc, p, ctx, d, stat) -> {
                    (rc == 0 ? done : errors).incrementAndGet();
                    inFlight.release();
                }, null);
            } else {
                zk.setData("/bench", data, -1, (rc, p, ctx, stat) -> {
                    (rc == 0 ? done : errors).incrementAndGet();
                    inFlight.release();
                }, null);
            }
        }
        inFlight.acquire(100);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        if (errors.get() > 0) {
            throw new IllegalStateException(errors.get() + " operations failed during the throughput run");
        }
        return done.get() / elapsed;
    }

    private static ZooKeeper connect(String cs) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(cs, 10_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(20, TimeUnit.SECONDS)) {
            zk.close();
            throw new IllegalStateException("no connection to " + cs);
        }
        return zk;
    }

    private static void print(String label, Result r) {
        System.out.printf(Locale.ROOT, "%s, 3 nodes, client on n1: getData %.0f ops/s, setData %.0f ops/s "
                        + "(100 in flight); median latency getData %.0f us, setData %.0f us (one at a time)%n",
                label, r.readsPerSec, r.writesPerSec, r.readMedianUs, r.writeMedianUs);
    }

    private static double pct(double a, double b) {
        return (a - b) / b * 100;
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static long median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
