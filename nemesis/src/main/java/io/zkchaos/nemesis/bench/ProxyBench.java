package io.zkchaos.nemesis.bench;

import static io.zkchaos.checkers.bench.Stats.median;

import io.zkchaos.checkers.DurationText;
import io.zkchaos.nemesis.bench.Traffic.Sample;
import io.zkchaos.nemesis.bench.Traffic.Targets;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the embedded fault proxy costs on loopback, with no toxic: for 1, 4 and 16 busy connections, request/response
 * round trips (throughput and latency), pipelined requests (throughput) and one-way streaming (MB/s), each direct and
 * through the proxy, in one run. The variants take turns within every round, so that the load of a shared machine,
 * which drifts over seconds, falls on all of them alike; the "vs direct" column is the median of the per-round
 * ratios. CPU columns are the whole JVM's CPU time (clients, servers and proxy) and the proxy threads' alone, per
 * operation; "CPU-bound" is direct's CPU per operation over the variant's: the share of direct's throughput the
 * variant gets where CPU is the only limit (all cores busy). Unlike throughput it hardly moves with the machine's
 * load, so it is the figure to trust on a shared machine.
 *
 * <p>Run: {@code ./zkchaos bench proxy [--rounds 5] [--window 1s] [--connections 1,4,16] [--threads N[,M...]]
 * [--traffic request-response,pipelined,streaming]}. {@code --threads} lists the proxy thread counts to compare
 * (default: {@link FaultProxy#DEFAULT_THREADS} and, if different, one per core).
 */
public final class ProxyBench {

    /** The benchmark's settings. */
    record Options(int rounds, Duration window, List<Integer> connections, List<Integer> threads,
                   List<Traffic> traffic) {

        static final String USAGE = "options: --rounds N, --window DURATION (e.g. 1s, 500ms), --connections N[,N...],"
                + " --threads N[,N...], --traffic request-response,pipelined,streaming";

        static Options parse(String... args) {
            int rounds = 5;
            Duration window = Duration.ofSeconds(1);
            List<Integer> connections = List.of(1, 4, 16);
            // The default thread count, and one per core when that differs: what more threads buy or cost.
            List<Integer> threads = java.util.stream.Stream.of(FaultProxy.DEFAULT_THREADS,
                    Runtime.getRuntime().availableProcessors()).distinct().toList();
            List<Traffic> traffic = List.of(Traffic.values());
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value; " + USAGE);
                }
                String v = args[++i];
                switch (a) {
                    case "--rounds" -> rounds = positive(a, v);
                    case "--window" -> window = DurationText.parse(v).filter(d -> !d.isNegative() && !d.isZero())
                            .orElseThrow(() -> new IllegalArgumentException("--window: '" + v
                                    + "' is not a positive duration such as 1s or 500ms"));
                    case "--connections" -> connections = positives(a, v);
                    case "--threads" -> threads = positives(a, v);
                    case "--traffic" -> traffic = Arrays.stream(v.split(",")).map(ProxyBench::traffic).toList();
                    default -> throw new IllegalArgumentException("unknown option " + a + "; " + USAGE);
                }
            }
            return new Options(rounds, window, connections, threads, traffic);
        }

        private static int positive(String option, String v) {
            try {
                int n = Integer.parseInt(v.trim());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(option + ": '" + v + "' is not a positive whole number");
        }

        private static List<Integer> positives(String option, String v) {
            return Arrays.stream(v.split(",")).map(x -> positive(option, x)).toList();
        }
    }

    private ProxyBench() {
    }

    private static Traffic traffic(String name) {
        for (Traffic w : Traffic.values()) {
            if (w.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(name.trim())) {
                return w;
            }
        }
        throw new IllegalArgumentException("--traffic: unknown kind '" + name
                + "' (known: request-response, pipelined, streaming)");
    }

    public static void main(String[] args) throws Exception {
        run(Options.parse(args), System.out);
    }

    static void run(Options o, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "ProxyBench: Java %s, %d cpus, load average %s; %d rounds of %s per variant;"
                        + " proxy threads %s%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), loadAverage(), o.rounds(), text(o.window()),
                o.threads());
        List<FaultProxy> proxies = new ArrayList<>();
        try (BenchServers servers = new BenchServers()) {
            List<Targets> variants = new ArrayList<>();
            variants.add(new Targets("direct", servers.echoAddress(), servers.sinkAddress()));
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            for (int t : o.threads()) {
                FaultProxy proxy = new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES,
                        FaultProxy.DEFAULT_UPSTREAM_RETRY, t);
                proxies.add(proxy);
                Link echo = proxy.createLink("bench-echo", any, servers.echoAddress());
                Link sink = proxy.createLink("bench-sink", any, servers.sinkAddress());
                variants.add(new Targets("proxy, " + t + " thread" + (t == 1 ? "" : "s"), echo.listenAddress(),
                        sink.listenAddress()));
            }
            // Warm-up: every path once, so that the JIT has compiled it before anything is timed.
            Duration warm = o.window().dividedBy(2);
            for (Traffic w : o.traffic()) {
                for (Targets v : variants) {
                    w.run(v, o.connections().get(o.connections().size() - 1), warm);
                }
            }
            Figures[][][] figures = new Figures[o.traffic().size()][o.connections().size()][variants.size()];
            for (int r = 0; r < o.rounds(); r++) {
                for (int w = 0; w < o.traffic().size(); w++) {
                    for (int c = 0; c < o.connections().size(); c++) {
                        for (int k = 0; k < variants.size(); k++) {
                            int v = (r + k) % variants.size(); // rotate who goes first
                            Figures f = figures[w][c][v];
                            if (f == null) {
                                f = figures[w][c][v] = new Figures();
                            }
                            long cpu0 = processCpuNanos();
                            long proxyCpu0 = proxyCpuNanos();
                            Sample s = o.traffic().get(w).run(variants.get(v), o.connections().get(c), o.window());
                            f.add(s, processCpuNanos() - cpu0, proxyCpuNanos() - proxyCpu0);
                        }
                    }
                }
            }
            for (int w = 0; w < o.traffic().size(); w++) {
                print(out, o, o.traffic().get(w), variants, figures[w]);
            }
            out.printf(Locale.ROOT, "%nload average at the end: %s%n", loadAverage());
        } finally {
            proxies.forEach(FaultProxy::close);
        }
    }

    private static void print(PrintStream out, Options o, Traffic w, List<Targets> variants, Figures[][] byConns) {
        boolean latency = w == Traffic.REQUEST_RESPONSE;
        boolean mb = w == Traffic.STREAMING;
        out.printf(Locale.ROOT, "%n%s (%s): %s, median (min..max) over %d rounds%n", w.title, w.description, w.unit,
                o.rounds());
        out.printf(Locale.ROOT, "%5s  %-18s %22s  %-22s%s %10s %12s %10s%n", "conns", "variant", w.unit,
                "vs direct", latency ? String.format(Locale.ROOT, " %8s %8s %8s %8s", "p50 µs", "+p50", "p99 µs",
                        "+p99") : "", mb ? "CPU ms/MB" : "CPU µs/op", mb ? "proxy ms/MB" : "proxy µs/op",
                "CPU-bound");
        for (int c = 0; c < o.connections().size(); c++) {
            Figures direct = byConns[c][0];
            for (int v = 0; v < variants.size(); v++) {
                Figures f = byConns[c][v];
                String vs = "";
                if (v > 0) {
                    double[] ratios = f.ratiosTo(direct);
                    vs = String.format(Locale.ROOT, "%.0f%% (%.0f..%.0f%%)", 100 * median(ratios),
                            100 * min(ratios), 100 * max(ratios));
                }
                String lat = "";
                if (latency) {
                    double p50 = f.percentileMicros(0.50);
                    double p99 = f.percentileMicros(0.99);
                    lat = v == 0
                            ? String.format(Locale.ROOT, " %8.1f %8s %8.1f %8s", p50, "", p99, "")
                            : String.format(Locale.ROOT, " %8.1f %+8.1f %8.1f %+8.1f", p50,
                                    p50 - direct.percentileMicros(0.50), p99, p99 - direct.percentileMicros(0.99));
                }
                // Per operation, or per MB when streaming (the rate is MB/s then).
                double perUnit = mb ? 1e-6 : 1e-3;
                out.printf(Locale.ROOT, "%5d  %-18s %22s  %-22s%s %10.1f %12s %10s%n", o.connections().get(c),
                        variants.get(v).label(), String.format(Locale.ROOT, "%.0f (%.0f..%.0f)", median(f.rates()),
                                min(f.rates()), max(f.rates())), vs, lat, f.cpuPerUnit() * perUnit,
                        v == 0 ? "" : String.format(Locale.ROOT, "%.1f", f.proxyCpuPerUnit() * perUnit),
                        v == 0 ? "" : String.format(Locale.ROOT, "%.0f%%", 100 * direct.cpuPerUnit()
                                / f.cpuPerUnit()));
            }
        }
    }

    /** The samples of one kind of traffic, connection count and variant over the rounds. */
    private static final class Figures {
        private final List<Double> rates = new ArrayList<>();
        private final List<long[]> latencies = new ArrayList<>();
        private double units;
        private long cpuNanos;
        private long proxyCpuNanos;
        private long[] sorted;

        void add(Sample s, long cpu, long proxyCpu) {
            rates.add(s.rate());
            latencies.add(s.latencies());
            sorted = null;
            cpuNanos += cpu;
            proxyCpuNanos += proxyCpu;
            units += s.units();
        }

        double[] rates() {
            return rates.stream().mapToDouble(Double::doubleValue).toArray();
        }

        double[] ratiosTo(Figures direct) {
            double[] r = new double[rates.size()];
            for (int i = 0; i < r.length; i++) {
                r[i] = rates.get(i) / direct.rates.get(i);
            }
            return r;
        }

        /** CPU ns per unit (operation or MB) of the whole JVM. */
        double cpuPerUnit() {
            return cpuNanos / units;
        }

        /** CPU ns per unit of the proxy threads. */
        double proxyCpuPerUnit() {
            return proxyCpuNanos / units;
        }

        double percentileMicros(double p) {
            if (sorted == null) {
                sorted = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            }
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.min(sorted.length - 1, (int) (sorted.length * p))] / 1e3;
        }
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    /** CPU time of every fault-proxy thread alive now. */
    private static long proxyCpuNanos() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(FaultProxy.THREAD_PREFIX)) {
                long ns = mx.getThreadCpuTime(t.getId());
                sum += Math.max(0, ns);
            }
        }
        return sum;
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 4)[0];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String text(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    static double min(double[] xs) {
        return Arrays.stream(xs).min().orElse(Double.NaN);
    }

    static double max(double[] xs) {
        return Arrays.stream(xs).max().orElse(Double.NaN);
    }
}
