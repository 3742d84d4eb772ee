package io.zkchaos.harness.bench;

import static io.zkchaos.checkers.bench.Stats.median;

import io.zkchaos.harness.cluster.ZooKeeperVersion;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Figures of the local backend: ensemble start time (3 and 5 nodes), failover time after killing the leader, and
 * the fault proxy's overhead on ZooKeeper client operations (a proxied ensemble against a direct one): pipelined
 * getData and setData throughput for 1, 4 and 16 clients, latency one request at a time, and how a latency toxic
 * shows in getData's latency.
 *
 * <p>Usage: {@code ./zkchaos bench cluster [runs-dir] [kills] [seconds] [what]}; defaults
 * {@code target/zkchaos-bench 10 5 all}; {@code what} is {@code all}, {@code start}, {@code failover} or
 * {@code overhead}; {@code seconds} sets the overhead's window (a fifth of it, at least 0.5 s, per variant,
 * operation and client count in each of 5 rounds). Prints one line per figure. For the overhead, a direct and a
 * proxied ensemble run at once and the variants take turns in short windows, because a shared machine's load
 * drifts by more than the effect.
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
                ZooKeeperVersion.DEFAULT.text(), Runtime.getRuntime().availableProcessors());

        if (what.equals("all") || what.equals("start")) {
            startTimes(runs);
        }
        if (what.equals("all") || what.equals("failover")) {
            failover(runs, kills);
        }
        if (what.equals("all") || what.equals("overhead")) {
            ProxyOverheadBench.run(runs, seconds);
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

    static ClusterConfig config(Path runs, String name, int nodes, boolean proxied) {
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

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
