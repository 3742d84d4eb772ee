package io.zkchaos.bench;

import io.zkchaos.check.CheckResult;
import io.zkchaos.history.History;
import io.zkchaos.history.Op;
import io.zkchaos.linear.LinearizabilityChecker;
import io.zkchaos.model.Model;
import io.zkchaos.model.Models;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Measures the linearizability checker: wall time and peak heap of each check, on the generated benchmark history
 * (a correct kv store, 1,000 keys, 50 processes, 1% info; valid, and with one planted stale read) and on the
 * published histories with known verdicts.
 *
 * <p>Run: {@code java -Xmx2g -cp checkers/target/classes:<jackson> io.zkchaos.bench.CheckerBench [ops] [seed]}.
 */
public final class CheckerBench {

    private CheckerBench() {
    }

    public static void main(String[] args) {
        int ops = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1L;
        runGenerated(System.out, ops, seed, Runtime.getRuntime().availableProcessors());
    }

    /** One measured check. */
    public record Measurement(String name, String verdict, long millis, long peakHeapBytes, String summary) {
        String line() {
            return String.format(Locale.ROOT, "%-44s %-8s %8d ms %8.1f MiB", name, verdict, millis,
                    peakHeapBytes / (1024.0 * 1024.0));
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
        out.printf(Locale.ROOT, "generated %,d operations (%,d entries) in %d ms: %s%n", valid.operations().size(),
                valid.size(), (System.nanoTime() - t0) / 1_000_000, spec);
        Model<?> model = Models.byName("kv", null);
        LinearizabilityChecker checker = LinearizabilityChecker.builder(model).parallelism(parallelism)
                .timeLimit(Duration.ofMinutes(2)).build();
        Measurement a = measure("generated kv " + operations + " ops, valid", checker, valid);
        out.println(a.line());
        Measurement b = measure("generated kv " + operations + " ops, stale read", checker, planted);
        out.println(b.line());
        out.println("  " + b.summary());
        return List.of(a, b);
    }

    /** Checks {@code history} once after a GC, measuring wall time and the heap pools' peak usage. */
    public static Measurement measure(String name, LinearizabilityChecker checker, History history) {
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        System.gc();
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        long t0 = System.nanoTime();
        CheckResult r = checker.check(history);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        long peak = pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        return new Measurement(name, r.validity().name(), millis, peak, r.summary());
    }
}
