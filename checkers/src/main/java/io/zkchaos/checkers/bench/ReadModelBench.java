package io.zkchaos.checkers.bench;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.readmodel.ReadModelReport;
import io.zkchaos.checkers.readmodel.ZkReadModelChecker;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Times {@code zk-read-model} on a generated single-key history: 8 processes, a third of the operations writes of
 * growing values, the rest plain reads that lag up to two writes behind (so some sessions go backwards). It prints
 * the time of the whole check and of the session analysis alone (the linearizability part skipped); the counts are
 * exact for a given size and seed.
 *
 * <pre>
 * ./zkchaos bench read-model [--ops 10000] [--seed 42]
 * </pre>
 */
public final class ReadModelBench {

    /**
     * One measurement.
     *
     * @param operations  operations in the history
     * @param writes      of them writes
     * @param plainReads  of them plain reads
     * @param validity    the verdict of the whole check
     * @param wholeMillis wall time of the whole check
     * @param sessionMillis wall time of the session analysis alone
     * @param staleReads  stale plain reads found (allowed by ZooKeeper)
     * @param violations  reads that break ZooKeeper's guarantees
     */
    public record Measurement(int operations, int writes, int plainReads, Validity validity, long wholeMillis,
                              long sessionMillis, int staleReads, int violations) {

        /** The line the benchmark prints. */
        public String line() {
            return String.format(Locale.ROOT, "%d operations (%d writes, %d plain reads): zk-read-model %s in %d ms, "
                    + "session analysis alone %d ms; %d stale reads, %d violations (the generator lets sessions go "
                    + "backwards)", operations, writes, plainReads, validity, wholeMillis, sessionMillis, staleReads,
                    violations);
        }
    }

    private ReadModelBench() {
    }

    public static void main(String[] args) {
        BenchOptions o = BenchOptions.parse(args, "--ops", "--seed");
        int ops = o.intValue("--ops", 10_000);
        long seed = o.longValue("--seed", 42);
        System.out.println(run(ops, seed).line());
    }

    /** The generated history: {@code operations} complete operations on key {@code x}, one at a time. */
    public static History generate(int operations, long seed) {
        Random rnd = new Random(seed);
        List<Op> ops = new ArrayList<>(2 * operations);
        long t = 0;
        long v = 0;
        for (int i = 0; i < operations; i++) {
            int p = rnd.nextInt(8);
            if (rnd.nextInt(3) == 0) {
                v++;
                ops.add(new Op(ops.size(), p, OpType.INVOKE, "write", "x", v, null, t++ * 1_000_000L));
                ops.add(new Op(ops.size(), p, OpType.OK, "write", "x", null, null, t++ * 1_000_000L));
            } else {
                long seen = Math.max(0, v - rnd.nextInt(3));
                ops.add(new Op(ops.size(), p, OpType.INVOKE, "read", "x", null, null, t++ * 1_000_000L));
                ops.add(new Op(ops.size(), p, OpType.OK, "read", "x", seen == 0 ? null : seen, null,
                        t++ * 1_000_000L));
            }
        }
        return History.of(ops);
    }

    /** Generates the history and times the check on it, whole and session analysis alone. */
    public static Measurement run(int operations, long seed) {
        History h = generate(operations, seed);
        long start = System.nanoTime();
        CheckResult whole = ZkReadModelChecker.of(null, false, Duration.ofSeconds(60)).check(h);
        long wholeMs = (System.nanoTime() - start) / 1_000_000;
        Checker noLinearizability = new Checker() {
            @Override
            public String name() {
                return "skipped";
            }

            @Override
            public CheckResult check(History history) {
                return CheckResult.of("skipped", Validity.VALID, "skipped", null);
            }
        };
        start = System.nanoTime();
        new ZkReadModelChecker(null, false, noLinearizability).check(h);
        long sessionMs = (System.nanoTime() - start) / 1_000_000;
        ReadModelReport d = (ReadModelReport) whole.details();
        return new Measurement(operations, d.writes(), d.plainReads(), whole.validity(), wholeMs, sessionMs,
                d.staleReads().size(), d.violations().size());
    }
}
