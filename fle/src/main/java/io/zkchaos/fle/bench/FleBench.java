package io.zkchaos.fle.bench;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.local.LocalGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Figures for a group of real node processes on loopback: election time at start-up and after {@code SIGKILL}ing the
 * leader (each the median of {@code --runs}), and the write throughput of the group.
 *
 * <pre>
 * java -cp "fle/target/classes:$(cat fle/target/runtime.classpath)" io.zkchaos.fle.bench.FleBench \
 *     [--nodes 3] [--runs 10] [--clients 8] [--seconds 10] [--tick 100] [--bugs FLAGS]
 *     [--only startup|failover|throughput] [--json] [--keep]
 * </pre>
 * Start-up is measured from launching every process to every node serving under one leader (so it includes the JVMs'
 * start); failover from the kill to the survivors serving under a new leader. Status is polled every 20 ms.
 * {@code --keep} keeps the nodes' directories (configs, data, logs) and prints where they are.
 */
public final class FleBench {

    private record Options(int nodes, int runs, int clients, int seconds, long tick, Bugs bugs, boolean json,
                           boolean keep, String only) {
        boolean measures(String figure) {
            return only == null || only.equals(figure);
        }
    }

    /** Median, minimum and maximum of some durations in ms. */
    record Stats(long median, long min, long max, int n) {
        static Stats of(List<Long> ms) {
            List<Long> s = new ArrayList<>(ms);
            Collections.sort(s);
            return new Stats(s.get(s.size() / 2), s.get(0), s.get(s.size() - 1), s.size());
        }

        @Override
        public String toString() {
            return "median " + median + " ms (min " + min + ", max " + max + ", n " + n + ")";
        }
    }

    private FleBench() {
    }

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("fle bench: " + e.getMessage());
            System.err.println("usage: FleBench [--nodes N] [--runs N] [--clients N] [--seconds N] [--tick MS] "
                    + "[--bugs FLAGS] [--only startup|failover|throughput] [--json] [--keep]");
            System.exit(2);
            return;
        }
        Timing timing = Timing.DEFAULT.withTickMs(o.tick());
        System.out.printf(Locale.ROOT, "fle bench: %d nodes, tick %d ms, bugs %s, %d runs; %d cores%n", o.nodes(),
                o.tick(), o.bugs(), o.runs(), Runtime.getRuntime().availableProcessors());
        List<String> json = new ArrayList<>();
        if (o.measures("startup")) {
            Stats startup = startup(o, timing);
            System.out.println("election at start-up (launch to all serving): " + startup);
            json.add("\"startupMedianMs\":" + startup.median());
        }
        if (o.measures("failover")) {
            Stats failover = failover(o, timing);
            System.out.println("election after SIGKILL of the leader (kill to all serving): " + failover);
            json.add("\"failoverMedianMs\":" + failover.median());
        }
        if (o.measures("throughput")) {
            double[] tput = throughput(o, timing);
            System.out.printf(Locale.ROOT, "write throughput: %d clients for %d s: %.0f puts/s (latency median %.1f "
                    + "ms, p99 %.1f ms)%n", o.clients(), o.seconds(), tput[0], tput[1], tput[2]);
            json.add(String.format(Locale.ROOT, "\"putsPerSecond\":%.0f,\"putLatencyMedianMs\":%.1f,"
                    + "\"putLatencyP99Ms\":%.1f", tput[0], tput[1], tput[2]));
        }
        if (o.json()) {
            System.out.printf(Locale.ROOT, "{\"system\":\"fle\",\"nodes\":%d,\"tickMs\":%d,\"runs\":%d,%s}%n",
                    o.nodes(), o.tick(), o.runs(), String.join(",", json));
        }
    }

    private static Options parse(String[] args) {
        int nodes = 3;
        int runs = 10;
        int clients = 8;
        int seconds = 10;
        long tick = Timing.DEFAULT.tickMs();
        Bugs bugs = Bugs.NONE;
        boolean json = false;
        boolean keep = false;
        String only = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--json")) {
                json = true;
                continue;
            }
            if (a.equals("--keep")) {
                keep = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--nodes" -> nodes = positive(a, v);
                case "--runs" -> runs = positive(a, v);
                case "--clients" -> clients = positive(a, v);
                case "--seconds" -> seconds = positive(a, v);
                case "--tick" -> tick = positive(a, v);
                case "--bugs" -> bugs = Bugs.parse(v);
                case "--only" -> {
                    if (!List.of("startup", "failover", "throughput").contains(v)) {
                        throw new IllegalArgumentException("--only takes startup, failover or throughput, not '" + v
                                + "'");
                    }
                    only = v;
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        return new Options(nodes, runs, clients, seconds, tick, bugs, json, keep, only);
    }

    private static int positive(String option, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a positive number, not '" + v + "'");
        }
    }

    private static Stats startup(Options o, Timing timing) throws IOException {
        List<Long> ms = new ArrayList<>();
        for (int r = 0; r < o.runs(); r++) {
            Path dir = Files.createTempDirectory("fle-bench-startup");
            try (LocalGroup g = LocalGroup.create(dir, o.nodes(), timing, o.bugs())) {
                long t0 = System.nanoTime();
                g.startAll();
                require(g.awaitStable(Duration.ofSeconds(60)), g, "start-up run " + r);
                ms.add((System.nanoTime() - t0) / 1_000_000);
            } finally {
                delete(o, dir);
            }
        }
        return Stats.of(ms);
    }

    private static Stats failover(Options o, Timing timing) throws IOException {
        List<Long> ms = new ArrayList<>();
        Path dir = Files.createTempDirectory("fle-bench-failover");
        try (LocalGroup g = LocalGroup.create(dir, o.nodes(), timing, o.bugs())) {
            g.startAll();
            int leader = require(g.awaitStable(Duration.ofSeconds(60)), g, "failover start");
            for (int r = 0; r < o.runs(); r++) {
                try (FleClient c = new FleClient(g.clientAddress(leader), Duration.ofSeconds(5))) {
                    c.put("bench", "before-kill-" + r);
                } catch (FleException e) {
                    throw new IllegalStateException("failover run " + r + ": a write before the kill failed: " + e);
                }
                long t0 = System.nanoTime();
                g.kill(leader);
                int next = require(g.awaitStable(Duration.ofSeconds(60)), g, "failover run " + r);
                ms.add((System.nanoTime() - t0) / 1_000_000);
                g.start(leader);
                require(g.awaitStable(Duration.ofSeconds(60)), g, "failover run " + r + " rejoin");
                leader = g.stableLeader().orElse(next);
            }
        } finally {
            delete(o, dir);
        }
        return Stats.of(ms);
    }

    /** Puts per second, median and p99 latency in ms. */
    private static double[] throughput(Options o, Timing timing) throws Exception {
        Path dir = Files.createTempDirectory("fle-bench-throughput");
        try (LocalGroup g = LocalGroup.create(dir, o.nodes(), timing, o.bugs())) {
            g.startAll();
            require(g.awaitStable(Duration.ofSeconds(60)), g, "throughput start");
            AtomicBoolean stop = new AtomicBoolean();
            List<List<Long>> latencies = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            long[] errors = new long[o.clients()];
            for (int c = 0; c < o.clients(); c++) {
                int id = c;
                List<Long> lat = new ArrayList<>();
                latencies.add(lat);
                Thread t = new Thread(() -> {
                    try (FleClient client = new FleClient(g.clientAddress(1 + id % o.nodes()),
                            Duration.ofSeconds(5))) {
                        for (long i = 0; !stop.get(); i++) {
                            long t0 = System.nanoTime();
                            try {
                                client.put("key" + (i % 16), "c" + id + "-" + i);
                                lat.add(System.nanoTime() - t0);
                            } catch (FleException e) {
                                errors[id]++;
                            }
                        }
                    }
                }, "bench-client-" + c);
                threads.add(t);
            }
            long t0 = System.nanoTime();
            threads.forEach(Thread::start);
            Thread.sleep(o.seconds() * 1_000L);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            List<Long> all = latencies.stream().flatMap(List::stream).sorted(Comparator.naturalOrder()).toList();
            long errs = 0;
            for (long e : errors) {
                errs += e;
            }
            if (errs > 0) {
                System.out.println("  (" + errs + " puts failed or were indeterminate during the throughput run)");
            }
            if (all.isEmpty()) {
                return new double[] {0, 0, 0};
            }
            return new double[] {all.size() / secs, all.get(all.size() / 2) / 1e6,
                    all.get((int) Math.min(all.size() - 1, Math.floor(all.size() * 0.99))) / 1e6};
        } finally {
            delete(o, dir);
        }
    }

    private static int require(Optional<Integer> leader, LocalGroup g, String what) {
        if (leader.isEmpty()) {
            StringBuilder b = new StringBuilder("no stable leader in " + what + "; node output:\n");
            for (int i = 1; i <= g.size(); i++) {
                b.append("---- n").append(i).append('\n').append(g.output(i));
            }
            throw new IllegalStateException(b.toString());
        }
        return leader.get();
    }

    private static void delete(Options o, Path dir) {
        if (o.keep()) {
            System.out.println("  (kept " + dir + ")");
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("fle bench: could not delete " + dir + ": " + e);
        }
    }
}
