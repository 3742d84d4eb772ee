package io.zkchaos.checkers.readmodel;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import java.time.Duration;
import java.util.Random;

/**
 * Times {@code zk-read-model} on a generated single-key history (seed 42): a third writes, the rest plain reads that
 * lag up to two writes behind. Not a test; the numbers in docs/checkers.md come from it. Usage: {@code ReadModelTiming
 * <operations>}.
 */
public final class ReadModelTiming {

    private ReadModelTiming() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Random rnd = new Random(42);
        HistoryBuilder b = new HistoryBuilder();
        long t = 0;
        long v = 0;
        for (int i = 0; i < n; i++) {
            int p = rnd.nextInt(8);
            if (rnd.nextInt(3) == 0) {
                v++;
                b.invoke(p, "write", "x", v, t++).ok(p, null, t++);
            } else {
                long seen = Math.max(0, v - rnd.nextInt(3));
                b.invoke(p, "read", "x", null, t++).ok(p, seen == 0 ? null : seen, t++);
            }
        }
        History h = b.build();
        long start = System.nanoTime();
        CheckResult whole = ZkReadModelChecker.of(null, false, Duration.ofSeconds(60)).check(h);
        long wholeMs = (System.nanoTime() - start) / 1_000_000;
        Checker noLinearizability = new Checker() {
            public String name() {
                return "skipped";
            }

            public CheckResult check(History history) {
                return CheckResult.of("skipped", Validity.VALID, "skipped", null);
            }
        };
        start = System.nanoTime();
        new ZkReadModelChecker(null, false, noLinearizability).check(h);
        long sessionMs = (System.nanoTime() - start) / 1_000_000;
        ReadModelReport d = (ReadModelReport) whole.details();
        System.out.printf("%d operations (%d writes, %d plain reads): zk-read-model %s in %d ms, session analysis "
                        + "alone %d ms; %d stale reads, %d violations (the generator lets sessions go backwards)%n",
                n, d.writes(), d.plainReads(), whole.validity(), wholeMs, sessionMs, d.staleReads().size(),
                d.violations().size());
    }
}
