package io.zkchaos.harness.bench;

import static io.zkchaos.checkers.bench.Stats.median;

import io.zkchaos.fle.client.FleClient;
import io.zkchaos.harness.cluster.ZooKeeperVersion;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.workloads.fle.FleNodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The project's own fle nodes against real ZooKeeper, on this machine in the same run, through the same local
 * backend (each server its own JVM, every link through the fault proxy), with the same tickTime (200 ms) and
 * election back-off bound (1 s):
 * <ul>
 *   <li>election at start-up: from launching 3 processes to one leader and a quorum serving ({@code start()}
 *       returning), {@code runs} times each, the two systems taking turns so that the machine's load falls on both;
 *   </li>
 *   <li>election after a SIGKILL of the leader: from the kill to a new leader and a quorum serving, {@code runs}
 *       kills each (the old leader restarted and serving again between kills), taking turns too;</li>
 *   <li>write throughput of a 3-node group: {@code clients} clients, each one write at a time (fle: {@code put}
 *       through a node's client link; ZooKeeper: synchronous {@code setData}), for {@code seconds}.</li>
 * </ul>
 * Usage: {@code ./zkchaos bench election [--runs N] [--clients N] [--seconds N] [--dir DIR]}; prints medians (and
 * min, max) and one JSON line.
 */
public final class ElectionBench {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private ElectionBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 10;
        int clients = 8;
        int seconds = 10;
        Path dir = Path.of("target/zkchaos-election-bench");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i]
                        + "'; takes --runs N, --clients N, --seconds N, --dir DIR");
            }
        }
        if (runs < 1 || clients < 1 || seconds < 1) {
            throw new IllegalArgumentException("--runs, --clients and --seconds take 1 or more; got runs " + runs
                    + ", clients " + clients + ", seconds " + seconds);
        }
        dir = dir.toAbsolutePath();
        Files.createDirectories(dir);
        System.out.printf(Locale.ROOT, "# election bench: 3 nodes, fle vs ZooKeeper %s, tickTime 200 ms, every link "
                        + "proxied; %d runs; %d cores, load average %.1f%n", ZooKeeperVersion.DEFAULT.text(), runs,
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Map<SystemUnderTest, List<Long>> startups = new LinkedHashMap<>();
        Map<SystemUnderTest, List<Long>> failovers = new LinkedHashMap<>();
        Map<SystemUnderTest, Double> writes = new LinkedHashMap<>();
        for (SystemUnderTest s : SystemUnderTest.values()) {
            startups.put(s, new ArrayList<>());
            failovers.put(s, new ArrayList<>());
        }
        for (int i = 0; i < runs; i++) {
            for (SystemUnderTest s : turn(i)) {
                long t0 = System.nanoTime();
                try (LocalCluster c = LocalCluster.start(config(dir, s, "start-" + s.id() + "-" + i))) {
                    startups.get(s).add(ms(t0));
                }
            }
        }
        try (LocalCluster zk = LocalCluster.start(config(dir, SystemUnderTest.ZOOKEEPER, "failover-zookeeper"));
             LocalCluster fle = LocalCluster.start(config(dir, SystemUnderTest.FLE, "failover-fle"))) {
            for (int i = 0; i < runs; i++) {
                for (SystemUnderTest s : turn(i)) {
                    failovers.get(s).add(failover(s == SystemUnderTest.FLE ? fle : zk));
                }
            }
            writes.put(SystemUnderTest.FLE, fleWrites(fle, clients, seconds));
            writes.put(SystemUnderTest.ZOOKEEPER, zooKeeperWrites(zk, clients, seconds));
        }
        for (SystemUnderTest s : SystemUnderTest.values()) {
            String name = s == SystemUnderTest.FLE ? "fle nodes" : "ZooKeeper";
            System.out.printf(Locale.ROOT, "%-10s election at start-up (launch to a quorum serving): %s%n", name,
                    stats(startups.get(s)));
            System.out.printf(Locale.ROOT, "%-10s election after SIGKILL of the leader (kill to a new leader and a "
                    + "quorum serving): %s%n", name, stats(failovers.get(s)));
            System.out.printf(Locale.ROOT, "%-10s writes, %d clients one write at a time for %d s: %.0f writes/s%n",
                    name, clients, seconds, writes.get(s));
        }
        System.out.printf(Locale.ROOT, "{\"runs\":%d,\"fleStartupMedianMs\":%d,\"zkStartupMedianMs\":%d,"
                        + "\"fleFailoverMedianMs\":%d,\"zkFailoverMedianMs\":%d,\"fleWritesPerSecond\":%.0f,"
                        + "\"zkWritesPerSecond\":%.0f}%n", runs, median(startups.get(SystemUnderTest.FLE)),
                median(startups.get(SystemUnderTest.ZOOKEEPER)), median(failovers.get(SystemUnderTest.FLE)),
                median(failovers.get(SystemUnderTest.ZOOKEEPER)), writes.get(SystemUnderTest.FLE),
                writes.get(SystemUnderTest.ZOOKEEPER));
    }

    /** Who goes first alternates, so that neither system always meets the machine as the other left it. */
    private static List<SystemUnderTest> turn(int i) {
        return i % 2 == 0 ? List.of(SystemUnderTest.FLE, SystemUnderTest.ZOOKEEPER)
                : List.of(SystemUnderTest.ZOOKEEPER, SystemUnderTest.FLE);
    }

    private static ClusterConfig config(Path dir, SystemUnderTest s, String name) {
        return ClusterConfig.builder().nodes(3).system(s).runDirectory(dir.resolve(name)).startTimeout(BOUND)
                .build();
    }

    /** Kill the leader, time until another leads with a quorum, restart it and wait until all three serve. */
    private static long failover(LocalCluster c) throws InterruptedException {
        String old = c.leader().orElseThrow(() -> new IllegalStateException("no leader before the kill"));
        long t0 = System.nanoTime();
        c.kill(old);
        long deadline = t0 + BOUND.toNanos();
        while (true) {
            Map<String, NodeStatus> st = c.statuses();
            long leaders = st.values().stream().filter(s -> s.mode() == NodeStatus.Mode.LEADER
                    && !s.node().equals(old)).count();
            long serving = st.values().stream().filter(s -> s.mode().serving()).count();
            if (leaders == 1 && serving >= c.config().quorumSize()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no new leader within " + BOUND + " after killing " + old);
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        long took = ms(t0);
        c.start(old);
        while (!c.statuses().values().stream().allMatch(s -> s.mode().serving())) {
            if (System.nanoTime() > deadline + BOUND.toNanos()) {
                throw new IllegalStateException(old + " did not serve again after its restart");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return took;
    }

    private static double fleWrites(LocalCluster c, int clients, int seconds) throws Exception {
        List<FleClient> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                sessions.add(new FleClient(FleNodes.address(c.connectString(c.nodes().get(i % c.nodes().size()))),
                        Duration.ofSeconds(10)));
            }
            return writesPerSecond("fle", clients, seconds, (i, n) -> sessions.get(i).put("k" + i, Long.toString(n)));
        } finally {
            sessions.forEach(FleClient::close);
        }
    }

    private static double zooKeeperWrites(LocalCluster c, int clients, int seconds) throws Exception {
        List<ZooKeeper> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                sessions.add(BenchClients.connect(c.connectString(c.nodes().get(i % c.nodes().size())),
                        Duration.ofSeconds(10)));
            }
            for (int i = 0; i < clients; i++) {
                sessions.get(i).create("/k" + i, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            return writesPerSecond("ZooKeeper", clients, seconds, (i, n) -> sessions.get(i).setData("/k" + i,
                    Long.toString(n).getBytes(StandardCharsets.UTF_8), -1));
        } finally {
            for (ZooKeeper zk : sessions) {
                zk.close(2_000);
            }
        }
    }

    /** Client {@code client}'s write number {@code n}; throws when it failed. */
    private interface Write {
        void write(int client, long n) throws Exception;
    }

    /**
     * One thread per client, each writing one write at a time for {@code seconds}: the writes that succeeded per
     * second (how many failed is printed as a comment).
     */
    private static double writesPerSecond(String system, int clients, int seconds, Write write)
            throws InterruptedException {
        AtomicLong done = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (int i = 0; i < clients; i++) {
            int client = i;
            Thread t = new Thread(() -> {
                long n = 0;
                while (System.nanoTime() < end) {
                    try {
                        write.write(client, n++);
                        done.incrementAndGet();
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                }
            }, system + "-writer-" + i);
            t.start();
            threads.add(t);
        }
        long t0 = System.nanoTime();
        for (Thread t : threads) {
            t.join();
        }
        if (failed.get() > 0) {
            System.out.println("# " + system + ": " + failed.get() + " writes failed during the throughput run");
        }
        return done.get() / ((System.nanoTime() - t0) / 1e9);
    }

    private static String stats(List<Long> ms) {
        return String.format(Locale.ROOT, "median %d ms (min %d, max %d, n %d)", median(ms), Collections.min(ms),
                Collections.max(ms), ms.size());
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
