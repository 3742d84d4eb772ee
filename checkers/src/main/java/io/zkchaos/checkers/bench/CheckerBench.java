package io.zkchaos.checkers.bench;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.checkers.model.Model;
import io.zkchaos.checkers.model.Models;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Measures the linearizability checker: wall time, CPU time and peak heap of each check, on the generated benchmark
 * history (a correct kv store: 1,000 keys, 50 processes, 1,000,000 operations, 1% info; valid, then with one planted
 * stale read) and on every published history with a known verdict under a data directory.
 *
 * <p>Run it with a fixed heap so the figures mean something, e.g.
 * {@code java -Xmx2g -cp <checkers classpath> io.zkchaos.checkers.bench.CheckerBench --data ../shared/data}.
 * CPU time is the whole process's (all checker threads, GC and JIT), so it is less disturbed than wall time by other
 * work on the machine.
 */
public final class CheckerBench {

    /** The time limit for each published history (the unpartitioned 50-client kv check may need it). */
    public static final Duration DATA_TIME_LIMIT = Duration.ofSeconds(10);

    private CheckerBench() {
    }

    /**
     * Three modes.
     * <ul>
     *   <li>{@code [--data DIR] [--ops N] [--seed S] [--parallelism P]}: checks the generated history (N operations,
     *   default 1,000,000) in memory and, with {@code --data}, every history under DIR.</li>
     *   <li>{@code --write-files DIR [--ops N] [--seed S]}: writes the generated history to DIR in both formats
     *   ({@link FileCheckBench#writeFiles}).</li>
     *   <li>{@code --files DIR [--runs R] [--parallelism P]}: reads and checks those files, each in R fresh JVMs
     *   (default 3), and prints read time, check time, peak heap and peak RSS ({@link FileCheckBench#run}).</li>
     * </ul>
     */
    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args, "--data", "--write-files", "--files", "--check-file", "--ops",
                "--seed", "--runs", "--parallelism");
        Path data = o.path("--data");
        Path writeFiles = o.path("--write-files");
        Path files = o.path("--files");
        Path checkFile = o.path("--check-file"); // a child of --files
        int ops = o.intValue("--ops", 1_000_000);
        long seed = o.longValue("--seed", 1);
        int runs = o.intValue("--runs", 3);
        int parallelism = o.intValue("--parallelism", Runtime.getRuntime().availableProcessors());
        if (checkFile != null) {
            FileCheckBench.child(checkFile, parallelism);
        } else if (writeFiles != null) {
            FileCheckBench.writeFiles(System.out, writeFiles, ops, seed);
        } else if (files != null) {
            FileCheckBench.run(System.out, files, runs, parallelism);
        } else {
            run(System.out, data, ops, seed, parallelism);
        }
    }

    /**
     * Runs the whole benchmark and prints one line per check to {@code out}.
     *
     * @param data        the shared data directory (README's layout), or null to skip the published histories
     * @param operations  size of the generated history
     * @param seed        the generator's seed
     * @param parallelism the checker's parallelism
     * @return every measurement, in the order printed
     */
    public static List<Measurement> run(PrintStream out, Path data, int operations, long seed, int parallelism) {
        out.printf(Locale.ROOT, "java %s, %d available processors, max heap %d MiB, parallelism %d%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, parallelism);
        out.println("# in memory: each history is built (or read) before it is timed; only the check is measured");
        out.println(Measurement.HEADER);
        List<Measurement> all = new ArrayList<>(runGenerated(out, operations, seed, parallelism));
        if (data != null) {
            all.addAll(runData(out, data, parallelism));
        }
        return all;
    }

    /** One measured check. Heap figures are the heap pools' use after a GC before it, and their peak during it. */
    public record Measurement(String name, int operations, String verdict, long wallMillis, long cpuMillis,
                              long heapBeforeBytes, long peakHeapBytes, String summary) {

        static final String HEADER = String.format(Locale.ROOT, "%-52s %9s %-8s %9s %9s %10s %10s", "history",
                "ops", "verdict", "wall ms", "cpu ms", "heap MiB", "peak MiB");

        /** The line the benchmark prints. */
        public String line() {
            return String.format(Locale.ROOT, "%-52s %9d %-8s %9d %9d %10.1f %10.1f", name, operations, verdict,
                    wallMillis, cpuMillis, heapBeforeBytes / 1048576.0, peakHeapBytes / 1048576.0);
        }
    }

    /** Checks the generated benchmark history, valid and with a planted stale read, and prints the figures. */
    public static List<Measurement> runGenerated(PrintStream out, int operations, long seed, int parallelism) {
        HistoryGenerator.Spec spec = new HistoryGenerator.Spec(HistoryGenerator.Workload.KV, 1000, 50, operations,
                0.01, seed);
        long t0 = System.nanoTime();
        List<Op> ops = HistoryGenerator.generate(spec);
        History valid = History.of(ops);
        History planted = History.of(HistoryGenerator.plantStaleRead(ops));
        ops = null; // only the two histories stay live
        out.printf(Locale.ROOT, "# generated %s in %d ms%n", spec, (System.nanoTime() - t0) / 1_000_000);
        LinearizabilityChecker checker = LinearizabilityChecker.builder(Models.byName("kv", null))
                .parallelism(parallelism).timeLimit(Duration.ofMinutes(2)).build();
        List<Measurement> result = new ArrayList<>();
        result.add(print(out, measure("generated kv, valid", checker, valid)));
        Measurement stale = print(out, measure("generated kv, one stale read", checker, planted));
        out.println("#   " + stale.summary());
        result.add(stale);
        return result;
    }

    /** Checks every published history under {@code data} with its model (by path) and prints the figures. */
    public static List<Measurement> runData(PrintStream out, Path data, int parallelism) {
        List<Path> files;
        try (Stream<Path> s = Files.walk(data)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".edn") || p.toString().endsWith(".txt")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + data, e);
        }
        List<Measurement> result = new ArrayList<>();
        for (Path file : files) {
            String rel = data.relativize(file).toString().replace('\\', '/');
            Model<?> model = modelFor(rel);
            if (model == null) {
                continue;
            }
            History h = HistoryFiles.read(file);
            boolean kv = model.name().equals("kv");
            for (boolean partitioned : kv ? new boolean[] {true, false} : new boolean[] {true}) {
                LinearizabilityChecker checker = LinearizabilityChecker.builder(model).parallelism(parallelism)
                        .partitioned(partitioned).timeLimit(DATA_TIME_LIMIT).build();
                String name = rel + (kv ? (partitioned ? " (per key)" : " (whole)") : "");
                result.add(print(out, measure(name, checker, h)));
            }
        }
        return result;
    }

    /** The model a published history is checked against, from its path (see the data README); null if none. */
    static Model<?> modelFor(String relativePath) {
        if (relativePath.contains("cas-register/")) {
            return Models.byName("cas-register", 0L);
        }
        if (relativePath.contains("multi-register/")) {
            return Models.byName("multi-register", Map.of("x", 0L, "y", 0L));
        }
        if (relativePath.contains("mutex/")) {
            return Models.byName("mutex", null);
        }
        if (relativePath.contains("porcupine-kv/")) {
            return Models.byName("kv", null);
        }
        return null;
    }

    private static Measurement print(PrintStream out, Measurement m) {
        out.println(m.line());
        return m;
    }

    /** Checks {@code history} once after a GC, measuring wall and process CPU time and the heap pools' peak. */
    public static Measurement measure(String name, LinearizabilityChecker checker, History history) {
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        System.gc();
        long before = pools.stream().mapToLong(p -> p.getUsage().getUsed()).sum();
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        CheckResult r = checker.check(history);
        long wall = (System.nanoTime() - t0) / 1_000_000;
        long cpu = (processCpuNanos() - cpu0) / 1_000_000;
        long peak = pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        int ops = r.details() instanceof LinearizabilityDetails d ? d.operations() : history.operations().size();
        return new Measurement(name, ops, r.validity().name(), wall, cpu < 0 ? -1 : cpu, before, peak,
                r.summary());
    }

    /** The whole process's CPU time (every thread), or -1 if the JVM does not say. */
    static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }
}
