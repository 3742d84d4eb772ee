package io.zkchaos.harness.bench;

import static io.zkchaos.checkers.bench.Stats.median;
import static io.zkchaos.checkers.bench.Stats.percentile;
import static io.zkchaos.harness.bench.ClusterBench.config;

import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The {@code overhead} figures of {@link ClusterBench}: what the fault proxy costs ZooKeeper operations, a proxied
 * ensemble against a direct one running at the same time.
 */
final class ProxyOverheadBench {

    private ProxyOverheadBench() {
    }

    /** Client counts of the overhead runs: one busy session, and several spread over the nodes. */
    static final int[] CLIENTS = {1, 4, 16};
    /** Requests each client keeps in flight in the throughput runs. */
    static final int IN_FLIGHT = 100;

    /**
     * The proxy's cost on ZooKeeper operations: a direct and a proxied ensemble run at once, and for 1, 4 and 16
     * clients (spread over the nodes, each keeping 100 requests in flight) the two take turns in short windows, so
     * that the load of a shared machine, which drifts over seconds, falls on both alike. The "proxied / direct"
     * column is the median of the per-round ratios, with their spread. CPU per operation counts this JVM (clients,
     * proxy) and the ensemble's three servers; "CPU-bound" is direct's over proxied's, the share of direct's
     * throughput the proxied ensemble gets where CPU is the only limit; it hardly moves with the machine's load.
     * Then latency one request at a time, and how closely a 50 ms latency toxic on a client link shows in
     * getData's latency.
     */
    static void run(Path runs, int seconds) throws Exception {
        int rounds = 5;
        double window = Math.max(0.5, seconds / 5.0);
        System.out.printf(Locale.ROOT, "# proxy overhead: %d interleaved rounds of %.1f s per variant, operation and "
                + "client count; %d requests in flight per client; load average %s%n", rounds, window, IN_FLIGHT,
                loadAverage());
        try (LocalCluster direct = LocalCluster.start(config(runs, "overhead-direct", 3, false));
             LocalCluster proxied = LocalCluster.start(config(runs, "overhead-proxied", 3, true))) {
            List<LocalCluster> clusters = List.of(direct, proxied);
            List<String> labels = List.of("direct", "proxied");
            int most = CLIENTS[CLIENTS.length - 1];
            List<List<ZooKeeper>> sessions = new ArrayList<>();
            try {
                for (LocalCluster c : clusters) {
                    List<ZooKeeper> zs = new ArrayList<>();
                    sessions.add(zs);
                    int nodes = c.config().nodes();
                    for (int i = 0; i < most; i++) {
                        zs.add(BenchClients.connect(c.connectString("n" + (i % nodes + 1)), Duration.ofSeconds(10)));
                    }
                    try {
                        zs.get(0).create("/bench", new byte[100], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                    } catch (KeeperException.NodeExistsException e) {
                        // an earlier run in the same runs directory left it: its data is the same
                    }
                }
                for (List<ZooKeeper> zs : sessions) { // warm-up (figures dropped)
                    throughput(zs, true, 1);
                    throughput(zs, false, 1);
                }
                // rates[op][clients][variant][round]; CPU and operations summed over the rounds
                double[][][][] rates = new double[2][CLIENTS.length][2][rounds];
                double[][][] cpu = new double[2][CLIENTS.length][2];
                double[][][] proxyCpu = new double[2][CLIENTS.length][2];
                double[][][] ops = new double[2][CLIENTS.length][2];
                List<List<Long>> readLat = List.of(new ArrayList<>(), new ArrayList<>());
                List<List<Long>> writeLat = List.of(new ArrayList<>(), new ArrayList<>());
                for (int round = 0; round < rounds; round++) {
                    for (int op = 0; op < 2; op++) {
                        for (int c = 0; c < CLIENTS.length; c++) {
                            for (int k = 0; k < 2; k++) {
                                int v = (round + op + c + k) % 2; // rotate who goes first
                                Cpu before = Cpu.of(clusters.get(v));
                                Throughput t = throughput(sessions.get(v).subList(0, CLIENTS[c]), op == 0, window);
                                Cpu used = Cpu.of(clusters.get(v)).minus(before);
                                rates[op][c][v][round] = t.perSecond();
                                ops[op][c][v] += t.operations();
                                cpu[op][c][v] += used.total();
                                proxyCpu[op][c][v] += used.proxyNanos();
                            }
                        }
                    }
                    for (int k = 0; k < 2; k++) {
                        int v = (round + k) % 2;
                        readLat.get(v).addAll(latenciesUs(sessions.get(v).get(0), true, 200));
                        writeLat.get(v).addAll(latenciesUs(sessions.get(v).get(0), false, 100));
                    }
                }
                System.out.printf(Locale.ROOT, "%-8s %7s %24s %24s %20s %11s %14s %10s%n", "op", "clients",
                        "direct ops/s", "proxied ops/s", "proxied / direct", "CPU µs/op", "proxied (proxy)",
                        "CPU-bound");
                for (int op = 0; op < 2; op++) {
                    for (int c = 0; c < CLIENTS.length; c++) {
                        double[] d = rates[op][c][0];
                        double[] p = rates[op][c][1];
                        double[] ratio = new double[rounds];
                        for (int r = 0; r < rounds; r++) {
                            ratio[r] = p[r] / d[r];
                        }
                        double cpuDirect = cpu[op][c][0] / ops[op][c][0] / 1e3;
                        double cpuProxied = cpu[op][c][1] / ops[op][c][1] / 1e3;
                        System.out.printf(Locale.ROOT, "%-8s %7d %24s %24s %20s %11.1f %14s %10s%n",
                                op == 0 ? "getData" : "setData", CLIENTS[c], spread(d, "%.0f"), spread(p, "%.0f"),
                                percentSpread(ratio), cpuDirect, String.format(Locale.ROOT, "%.1f (%.1f)",
                                        cpuProxied, proxyCpu[op][c][1] / ops[op][c][1] / 1e3),
                                String.format(Locale.ROOT, "%.0f%%", 100 * cpuDirect / cpuProxied));
                    }
                }
                for (int v = 0; v < 2; v++) {
                    System.out.printf(Locale.ROOT, "%s, one request at a time, 1 client: getData median %d us, p99 %d "
                                    + "us; setData median %d us, p99 %d us%n", labels.get(v),
                            median(readLat.get(v)), percentile(readLat.get(v), 0.99), median(writeLat.get(v)),
                            percentile(writeLat.get(v), 0.99));
                }
                System.out.printf(Locale.ROOT, "proxy's added latency, one request at a time: getData median %+d us, "
                                + "setData median %+d us%n", median(readLat.get(1)) - median(readLat.get(0)),
                        median(writeLat.get(1)) - median(writeLat.get(0)));
                latencyToxic(proxied, sessions.get(1).get(0));
            } finally {
                for (List<ZooKeeper> zs : sessions) {
                    for (ZooKeeper z : zs) {
                        z.close();
                    }
                }
            }
            System.out.printf(Locale.ROOT, "# load average at the end: %s%n", loadAverage());
        }
    }

    /**
     * How a 50 ms latency toxic on the downstream of the client's link shows in getData's latency: every request's
     * answer waits at least 50 ms, and what exceeds it is the proxy's timer resolution plus scheduling.
     */
    private static void latencyToxic(LocalCluster proxied, ZooKeeper zk) throws Exception {
        List<Long> before = latenciesUs(zk, true, 50);
        Link link = proxied.links().clientLink("n1"); // the first session's node, see overhead()
        link.addToxic(Toxic.latency("bench-lag", Stream.DOWNSTREAM, 50, 0));
        List<Long> during;
        try {
            during = latenciesUs(zk, true, 40);
        } finally {
            link.removeToxic("bench-lag");
        }
        System.out.printf(Locale.ROOT, "50 ms latency toxic on the client link's downstream: getData median %.1f ms "
                        + "(min %.1f, max %.1f over %d), without it %.2f ms: added %.1f ms%n", median(during) / 1e3,
                Collections.min(during) / 1e3, Collections.max(during) / 1e3, during.size(), median(before) / 1e3,
                (median(during) - median(before)) / 1e3);
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

    /**
     * Operations per second over all {@code clients} for {@code seconds}, each client keeping {@link #IN_FLIGHT}
     * asynchronous requests in flight from its own thread.
     */
    private record Throughput(double perSecond, long operations) {
    }

    /**
     * CPU time so far of this JVM (clients, and the proxy when the ensemble is proxied), of its proxy threads, and
     * of one ensemble's server processes.
     */
    private record Cpu(long jvmNanos, long proxyNanos, long serverNanos) {

        static Cpu of(LocalCluster c) {
            long jvm = ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long proxy = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith(FaultProxy.THREAD_PREFIX)) {
                    proxy += Math.max(0, mx.getThreadCpuTime(t.getId()));
                }
            }
            long servers = 0;
            for (int i = 1; i <= c.config().nodes(); i++) {
                servers += ProcessHandle.of(c.pid("n" + i)).flatMap(h -> h.info().totalCpuDuration())
                        .map(Duration::toNanos).orElse(0L);
            }
            return new Cpu(jvm, proxy, servers);
        }

        Cpu minus(Cpu o) {
            return new Cpu(jvmNanos - o.jvmNanos, proxyNanos - o.proxyNanos, serverNanos - o.serverNanos);
        }

        long total() {
            return jvmNanos + serverNanos;
        }
    }

    private static Throughput throughput(List<ZooKeeper> clients, boolean read, double seconds) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = Collections.synchronizedList(new ArrayList<>());
        for (ZooKeeper zk : clients) {
            Thread t = new Thread(() -> {
                try {
                    submitUntil(zk, read, end, done, errors);
                } catch (Exception e) {
                    failures.add(e);
                }
            }, "bench-client");
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - t0) / 1e9;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a benchmark client failed", failures.get(0));
        }
        if (errors.get() > 0) {
            throw new IllegalStateException(errors.get() + " operations failed during the throughput run");
        }
        return new Throughput(done.get() / elapsed, done.get());
    }

    private static void submitUntil(ZooKeeper zk, boolean read, long end, AtomicLong done, AtomicLong errors)
            throws InterruptedException {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        byte[] data = new byte[100];
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
        inFlight.acquire(IN_FLIGHT);
    }

    private static String spread(double[] xs, String format) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return String.format(Locale.ROOT, format + " (" + format + ".." + format + ")", median(s), s[0],
                s[s.length - 1]);
    }

    private static String percentSpread(double[] ratios) {
        double[] pct = java.util.Arrays.stream(ratios).map(r -> 100 * r).toArray();
        return spread(pct, "%.0f%%");
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 4)[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
