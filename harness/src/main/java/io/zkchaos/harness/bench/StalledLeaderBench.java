package io.zkchaos.harness.bench;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.bench.Stats;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.leader.LeaderOverlap;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.harness.run.RunFailedException;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.Clients;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.WorkloadOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stalled-leader figures, from real runs: clients in processes of their own, the leading one frozen
 * ({@code pause-leader-client}) once per run for {@link #PAUSE}, leaders otherwise holding for the whole run. For
 * each election recipe, the longest overlap of two leaders per run, and its awake part (how long the stale leader,
 * running again, still believed it led); for the fenced and the unfenced store, how many writes of a stale leader
 * the store rejected and how many landed after a newer leader's. Prints one row per run, then the medians and maxima
 * (over the runs whose pause froze a leader). A run the harness could not do is printed as {@code error} and left out.
 */
public final class StalledLeaderBench {

    /** How long the leading client is frozen: 2.5 session timeouts of 4 s. */
    static final Duration PAUSE = Duration.ofSeconds(10);

    /** One run's figures. */
    public record Row(String workload, long seed, String verdict, String paused, int overlaps, long longestNanos,
                      long frozenNanos, long awakeNanos, int rejected, int staleLanded, String directory) {
    }

    private StalledLeaderBench() {
    }

    /** The configuration of one run: healed 5 s, the pause, healed 5 s; clients go on 5 s after the final heal. */
    static RunConfig config(String workload, long seed, Path store) {
        return RunConfig.builder().workload(workload).clients(Clients.PROCESS)
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
        out.printf("%-17s %4s %-8s %6s %8s %10s %10s %9s %8s %7s%n", "workload", "seed", "verdict", "paused",
                "overlaps", "longest", "frozen", "awake", "rejected", "landed");
        out.flush();
        List<Row> rows = new ArrayList<>();
        for (String w : workloads) {
            List<Row> mine = new ArrayList<>();
            for (long seed = 1; seed <= runs; seed++) {
                RunOutcome o;
                try {
                    o = new Runner(new PrintWriter(new StringWriter()), Duration.ofHours(1))
                            .run(config(w, seed, store));
                } catch (RunFailedException e) {
                    out.printf("%-17s %4d %-8s %s%n", w, seed, "error", e.getMessage());
                    out.flush();
                    continue;
                }
                Row row = row(w, seed, o);
                mine.add(row);
                out.printf("%-17s %4d %-8s %6s %8d %10s %10s %9s %8d %7d  %s%n", w, seed, row.verdict(),
                        row.paused() == null ? "-" : row.paused(), row.overlaps(), ms(row.longestNanos()),
                        ms(row.frozenNanos()), ms(row.awakeNanos()), row.rejected(), row.staleLanded(),
                        row.directory());
                out.flush();
            }
            List<Row> frozeALeader = mine.stream().filter(r -> r.paused() != null).toList();
            out.printf("%-17s %4s %-8s %6s %8s %10s %10s %9s %8d %7d  (median/max over the %d of %d runs whose pause "
                            + "froze a leader; rejected and landed: totals)%n", w, "", "", "", "",
                    ms(median(frozeALeader, Row::longestNanos)) + "/" + ms(max(frozeALeader, Row::longestNanos)),
                    ms(median(frozeALeader, Row::frozenNanos)) + "/" + ms(max(frozeALeader, Row::frozenNanos)),
                    ms(median(frozeALeader, Row::awakeNanos)) + "/" + ms(max(frozeALeader, Row::awakeNanos)),
                    mine.stream().mapToInt(Row::rejected).sum(), mine.stream().mapToInt(Row::staleLanded).sum(),
                    frozeALeader.size(), mine.size());
            out.flush();
            rows.addAll(mine);
        }
        return rows;
    }

    /** The client the run's pause froze, from the nemesis's record; null when it could not act (nobody led). */
    private static String paused(RunOutcome o) {
        History h = HistoryFiles.read(o.directory().historyFile());
        for (Op n : h.nemesisOps()) {
            if (n.f().equals("pause-leader-client") && n.type() == OpType.INFO && n.value() instanceof Map<?, ?> m
                    && m.get("nodes") instanceof List<?> nodes && !nodes.isEmpty()) {
                return String.valueOf(nodes.get(0));
            }
        }
        return null;
    }

    private static Row row(String workload, long seed, RunOutcome o) {
        String paused = paused(o);
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
        // A pause that froze a leader without any overlap (nobody took over before it woke) counts as 0.
        long none = paused == null ? -1 : 0;
        return new Row(workload, seed, o.result().validity().name().toLowerCase(Locale.ROOT), paused, overlaps,
                longest == null ? none : longest.lengthNanos(), longest == null ? none : longest.frozenNanos(),
                longest == null ? none : longest.awakeNanos(), rejected, landed, o.directory().path().toString());
    }

    /** The median of a figure over the rows that have it (-1: none has). */
    private static long median(List<Row> rows, java.util.function.ToLongFunction<Row> f) {
        return Stats.median(rows.stream().mapToLong(f).filter(x -> x >= 0).toArray());
    }

    private static long max(List<Row> rows, java.util.function.ToLongFunction<Row> f) {
        return rows.stream().mapToLong(f).max().orElse(-1);
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "-" : Long.toString(Math.round(nanos / 1e6)) + "ms";
    }
}
