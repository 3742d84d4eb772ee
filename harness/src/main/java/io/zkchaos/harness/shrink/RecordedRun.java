package io.zkchaos.harness.shrink;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.results.FindingKind;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedSet;

/**
 * A finished run, as replaying and shrinking read it from its directory: how it was configured, the fault schedule it
 * executed, and what it found.
 *
 * @param directory       the run directory
 * @param config          its configuration ({@code config.json})
 * @param schedule        the faults it executed ({@code schedule.json})
 * @param verdict         its verdict ({@code results.json})
 * @param kinds           its kinds of finding
 * @param exercisedEnough whether it met its evidence minimum
 */
public record RecordedRun(RunDirectory directory, RunConfig config, FaultSchedule schedule, Validity verdict,
                          SortedSet<String> kinds, boolean exercisedEnough) {

    /**
     * Reads the run in {@code dir} (a {@code latest} link is followed).
     *
     * @throws IllegalArgumentException naming what is missing or wrong
     */
    public static RecordedRun read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
        RunDirectory run;
        try {
            run = new RunDirectory(dir.toRealPath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve " + dir + ": " + e.getMessage(), e);
        }
        RunConfig config = RunConfig.read(run);
        if (!Files.isRegularFile(run.scheduleFile())) {
            throw new IllegalArgumentException(run.path() + " has no " + RunDirectory.SCHEDULE + ": the run stopped "
                    + "before its main phase ended, or was made before runs wrote the schedule they executed (run it "
                    + "again with ./zkchaos run and the same options)");
        }
        FaultSchedule schedule = Json.readInput(run.scheduleFile(), FaultSchedule.class, "a fault schedule");
        if (!run.hasResults()) {
            throw new IllegalArgumentException(run.path() + " has no " + RunDirectory.RESULTS + ": the run stopped "
                    + "before it was checked");
        }
        CheckResult results;
        try {
            results = run.readCheckResult();
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new RecordedRun(run, config, schedule, results.validity(), FindingKind.of(results),
                FindingKind.exercisedEnough(results));
    }

    /** Its configuration with the schedule it executed instead of the seeded cycle, its runs made under {@code store}. */
    public RunConfig replay(Path store) {
        return config.withSchedule(schedule).withOut(store);
    }

    /** Where shrinking starts: its schedule and its size. */
    public Shrinker.Candidate candidate() {
        return new Shrinker.Candidate(schedule, new Shrinker.Size(config.cluster().nodes(),
                config.workload().concurrency(), keysMatter(config) ? config.workload().options().keys() : 0,
                config.timing().timeLimit().toMillis()));
    }

    /** Whether the workload reads {@code --keys} (only the registers do: on ZooKeeper and on the fle nodes). */
    static boolean keysMatter(RunConfig config) {
        return config.workload().name().equals("register");
    }

    /** The verdict and its findings, for people. */
    public String outcome() {
        return new TrialRun(directory.path(), verdict, kinds, exercisedEnough, null).outcome();
    }
}
