package io.zkchaos.harness.hunt;

import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.shrink.TrialRun;
import io.zkchaos.harness.shrink.Trials;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A bug hunt: rows of run configurations, run in turn (row 1, row 2, ..., row 1 again), each run with a seed of its
 * own, until the time budget is spent; then a tally per row. A run that has begun is finished, so a hunt may overrun
 * its budget by one run. Every row runs once at least, whatever the budget, so that each gets a line of evidence.
 *
 * @param rows    what to run
 * @param budget  how long to go on starting runs
 * @param seed    the first run's seed; run {@code i} (from 0, over all rows) has {@code seed + i}
 * @param out     where run directories go ({@code out/row-K/})
 */
public record Hunt(List<HuntRow> rows, Duration budget, long seed, Path out) {

    public Hunt {
        rows = List.copyOf(rows);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("a hunt needs at least one row");
        }
        if (budget.isNegative()) {
            throw new IllegalArgumentException("--budget must not be negative, got " + budget);
        }
    }

    /**
     * Runs the hunt.
     *
     * @param configOf turns a row's arguments for one run into its configuration ({@code run}'s own parsing)
     * @param trials   does a run and judges it
     * @param log      a line per run
     * @param nanos    the clock the budget is measured on
     * @return one tally per row, in the rows' order
     * @throws IllegalArgumentException when a row is not a valid run configuration (checked before any run)
     */
    public List<HuntTally> run(Function<List<String>, RunConfig> configOf, Trials trials, PrintWriter log,
                               LongSupplier nanos) throws InterruptedException {
        for (int r = 0; r < rows.size(); r++) {
            try {
                configOf.apply(rows.get(r).argsFor(seed, rowDirectory(r)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("row " + (r + 1) + " (" + rows.get(r).label() + "): "
                        + e.getMessage(), e);
            }
        }
        List<HuntTally> tallies = new ArrayList<>(rows.stream().map(HuntTally::empty).toList());
        long start = nanos.getAsLong();
        for (int i = 0; ; i++) {
            int r = i % rows.size();
            boolean everyRowRan = i >= rows.size();
            if (everyRowRan && nanos.getAsLong() - start >= budget.toNanos()) {
                break;
            }
            RunConfig config = configOf.apply(rows.get(r).argsFor(seed + i, rowDirectory(r)));
            long began = nanos.getAsLong();
            TrialRun run = trials.run(config);
            Duration took = Duration.ofNanos(nanos.getAsLong() - began);
            tallies.set(r, tallies.get(r).plus(run, took));
            log.printf(Locale.ROOT, "hunt run %d, row %d (%s), seed %d: %s in %.1f s%s%n", i + 1, r + 1,
                    rows.get(r).label(), seed + i, run.outcome(), took.toMillis() / 1000.0,
                    run.directory() == null ? "" : " -> " + run.directory());
            log.flush();
        }
        return tallies;
    }

    private Path rowDirectory(int r) {
        return out.resolve("row-" + (r + 1));
    }
}
