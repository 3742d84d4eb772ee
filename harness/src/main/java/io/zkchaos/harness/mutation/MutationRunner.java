package io.zkchaos.harness.mutation;

import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.RunConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs the mutation matrix: every row {@code runs} times with seeds {@code firstSeed ..}, then the correct build in
 * every scenario of the rows with the same seeds. Runs one after the other (each is three node JVMs); every run is
 * a whole {@link Runner} run kept in the store, so any cell of the table can be opened (its report) or re-run by
 * seed.
 */
public final class MutationRunner {

    private final PrintWriter progress;
    private final Path store;
    private final int runs;
    private final long firstSeed;

    /**
     * @param progress  one line per run as it ends
     * @param store     where the run directories go
     * @param runs      runs per row (seeds {@code firstSeed .. firstSeed + runs - 1})
     * @param firstSeed the first seed
     */
    public MutationRunner(PrintWriter progress, Path store, int runs, long firstSeed) {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1, got " + runs);
        }
        this.progress = progress;
        this.store = store;
        this.runs = runs;
        this.firstSeed = firstSeed;
    }

    /** The rows of {@code mutations}, then the correct build's row for each of their scenarios. */
    public List<MutationRow> run(List<Mutation> mutations) throws InterruptedException {
        Set<MutationScenario> scenarios = new LinkedHashSet<>();
        mutations.forEach(m -> scenarios.add(m.scenario()));
        int total = (mutations.size() + scenarios.size()) * runs;
        int[] done = {0};
        List<MutationRow> rows = new ArrayList<>();
        for (Mutation m : mutations) {
            rows.add(new MutationRow(m, m.scenario(), runAll(m.bugs(), m.scenario(), done, total, false)));
        }
        for (MutationScenario s : scenarios) {
            rows.add(new MutationRow(null, s, runAll(List.of(), s, done, total, false)));
        }
        return rows;
    }

    /**
     * The row of {@code m} with seeds from the first on, stopping at the first run that catches it (at most
     * {@code runs} runs). The matrix asks a visible bug to be caught at least once in its seeds: whether a given
     * seed catches one whose window is short (an isolated leader acknowledges only until its next tick) depends on
     * timing, which a loaded machine shifts. A test that needs the catch, not the rate, stops at the first.
     */
    public MutationRow runUntilCaught(Mutation m) throws InterruptedException {
        return new MutationRow(m, m.scenario(), runAll(m.bugs(), m.scenario(), new int[] {0}, runs, true));
    }

    /** The correct build's row in {@code scenario}, every seed. */
    public MutationRow runCorrectBuild(MutationScenario scenario) throws InterruptedException {
        return new MutationRow(null, scenario, runAll(List.of(), scenario, new int[] {0}, runs, false));
    }

    private List<MutationRun> runAll(List<String> bugs, MutationScenario scenario, int[] done, int total,
                                     boolean untilCaught) throws InterruptedException {
        List<MutationRun> out = new ArrayList<>();
        for (long seed = firstSeed; seed < firstSeed + runs; seed++) {
            if (untilCaught && out.stream().anyMatch(MutationRun::invalid)) {
                break;
            }
            MutationRun r = runOne(bugs, scenario, seed);
            out.add(r);
            done[0]++;
            progress.printf("[%d/%d] %s, %s, seed %d: %s%s%n", done[0], total,
                    bugs.isEmpty() ? MutationRow.CORRECT : String.join("+", bugs), scenario.label(), seed,
                    r.validity() == null ? r.said() : r.validity() + " (" + r.said() + ")",
                    r.bugCodePaths().isEmpty() ? "" : "; " + RunOutcome.bugCodePathsLine(r.bugCodePaths()));
            progress.flush();
        }
        return out;
    }

    private MutationRun runOne(List<String> bugs, MutationScenario scenario, long seed) throws InterruptedException {
        RunConfig config = scenario.config(bugs, seed, store);
        try {
            RunOutcome o = new Runner(new PrintWriter(new StringWriter()), Duration.ofHours(1)).run(config);
            return MutationRun.of(seed, o.result(), o.directory().path(), o.bugCodePaths());
        } catch (RuntimeException e) {
            // not a verdict: the row shows it, and the other runs go on
            return MutationRun.failed(seed, String.valueOf(e.getMessage()), null);
        }
    }
}
