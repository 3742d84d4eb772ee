package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.leader.LeaderOverlap;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.workloads.WorkloadOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The stalled-leader figures, from real runs: clients in processes of their own, the leading one frozen
 * ({@code pause-leader-client}) once per run for {@link #PAUSE}, leaders otherwise holding for the whole run. For
 * each election recipe, the longest overlap of two leaders per run, and its awake part (how long the stale leader,
 * running again, still believed it led); for the fenced and the unfenced store, how many writes of a stale leader
 * the store rejected and how many landed after a newer leader's. Prints one row per run, then the medians and maxima.
 */
public final class StalledLeaderBench {

    /** How long the leading client is frozen: 2.5 session timeouts of 4 s. */
    static final Duration PAUSE = Duration.ofSeconds(10);

    /** One run's figures. */
    public record Row(String workload, long seed, String verdict, int overlaps, long longestNanos, long frozenNanos,
                      long awakeNanos, int rejected, int staleLanded, String directory) {
    }

    private StalledLeaderBench() {
    }

    /** The configuration of one run: healed 5 s, the pause, healed 5 s; clients go on 5 s after the final heal. */
    static RunConfig config(String workload, long seed, Path store) {
        return RunConfig.builder().workload(workload).clients(RunConfig.Clients.PROCESS)
                .nemesis("pause-leader-client").concurrency(3).seed(seed)
                .workloadOptions(WorkloadOptions.defaults().withHold(Duration.ofMinutes(5), Duration.ofMinutes(5)))
                .healFor(Duration.ofSeconds(5)).faultFor(PAUSE).timeLimit(PAUSE.plusSeconds(10))
                .recover(Duration.ofSeconds(5)).out(store).build();
    }

    /**
     * Runs {@code runs} seeds of each workload and prints the table to {@code out}.
     *
     * @param workloads e.g. election, election-curator, fenced-writes, unfenced-writes
     * @param store     where the run directories go (kept, so any row can be looked at)
     */
    public static List<Row> run(PrintWriter out, List<String> workloads, int runs, Path store)
            throws InterruptedException {
        out.printf("%-17s %4s %-8s %8s %10s %10s %9s %8s %7s%n", "workload", "seed", "verdict", "overlaps",
                "longest", "frozen", "awake", "rejected", "landed");
        out.flush();
        List<Row> rows = new ArrayList<>();
        for (String w : workloads) {
            List<Row> mine = new ArrayList<>();
            for (long seed = 1; seed <= runs; seed++) {
                RunOutcome o = new Runner(new PrintWriter(new StringWriter()), Duration.ofHours(1))
                        .run(config(w, seed, store));
                Row row = row(w, seed, o);
                mine.add(row);
                out.printf("%-17s %4d %-8s %8d %10s %10s %9s %8d %7d  %s%n", w, seed, row.verdict(), row.overlaps(),
                        ms(row.longestNanos()), ms(row.frozenNanos()), ms(row.awakeNanos()), row.rejected(),
                        row.staleLanded(), row.directory());
                out.flush();
            }
            out.printf("%-17s %4s %-8s %8s %10s %10s %9s %8d %7d  (median / max over %d runs; rejected and landed: "
                            + "totals)%n", w, "", "", "",
                    ms(median(mine, Row::longestNanos)) + "/" + ms(max(mine, Row::longestNanos)),
                    ms(median(mine, Row::frozenNanos)) + "/" + ms(max(mine, Row::frozenNanos)),
                    ms(median(mine, Row::awakeNanos)) + "/" + ms(max(mine, Row::awakeNanos)),
                    mine.stream().mapToInt(Row::rejected).sum(), mine.stream().mapToInt(Row::staleLanded).sum(),
                    runs);
            out.flush();
            rows.addAll(mine);
        }
        return rows;
    }

    private static Row row(String workload, long seed, RunOutcome o) {
        LeaderOverlap longest = null;
        int overlaps = 0;
        int rejected = 0;
        int landed = 0;
        for (CheckResult p : o.result().parts()) {
            if (p.details() instanceof SingleLeaderReport d) {
                overlaps = d.overlaps().size();
                longest = d.overlaps().stream().max(Comparator.comparingLong(LeaderOverlap::lengthNanos))
                        .orElse(null);
            } else if (p.details() instanceof FencedReport f) {
                rejected = f.rejected();
                landed = f.staleLanded();
            }
        }
        return new Row(workload, seed, o.result().validity().name().toLowerCase(Locale.ROOT), overlaps,
                longest == null ? -1 : longest.lengthNanos(), longest == null ? -1 : longest.frozenNanos(),
                longest == null ? -1 : longest.awakeNanos(), rejected, landed, o.directory().path().toString());
    }

    private static long median(List<Row> rows, java.util.function.ToLongFunction<Row> f) {
        long[] v = rows.stream().mapToLong(f).filter(x -> x >= 0).sorted().toArray();
        if (v.length == 0) {
            return -1;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static long max(List<Row> rows, java.util.function.ToLongFunction<Row> f) {
        return rows.stream().mapToLong(f).max().orElse(-1);
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "-" : Long.toString(Math.round(nanos / 1e6)) + "ms";
    }
}
