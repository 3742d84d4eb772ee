package io.zkchaos.harness.cli;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.shrink.RecordedRun;
import io.zkchaos.harness.shrink.RunLog;
import io.zkchaos.harness.shrink.Replay;
import io.zkchaos.harness.shrink.Trials;
import io.zkchaos.nemesis.Aim;
import io.zkchaos.results.Verdicts;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos replay RUN_DIR [--times N]}: runs a finished run's configuration and the schedule it executed again,
 * N times, and says how often its verdict and its findings came back, with each replay's report.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Run a finished run again, N times, with its configuration (seed included) and the fault "
                + "schedule it executed (its schedule.json: the same faults at the same times on the same nodes, by "
                + "role or by name as the file says); print how many runs had its verdict, which of its findings "
                + "recurred, and each replay's report.",
        footer = {"", "Replays go to RUN_DIR/replays/ (summary in replay.json, every run's progress in runs.log).",
                "Exit status: 0 when at least one replay reproduced the original verdict (for an invalid run: one "
                        + "of its findings), 1 when none did, 2 on an error."})
public final class ReplayCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    FinishedRunArgs run;

    @Option(names = "--times", defaultValue = "3", description = "how many replays (default: ${DEFAULT-VALUE})")
    int times;

    @Option(names = "--targets", paramLabel = "role|name", description = "find the schedule's nodes by role (the "
            + "leader then is the leader now) or by name, whatever the file says (default: as the file says)")
    String targets;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RecordedRun original;
        Aim.Targets by;
        try {
            if (times < 1) {
                throw new IllegalArgumentException("--times must be at least 1, got " + times);
            }
            by = targets == null ? null : Aim.Targets.parse(targets);
            original = run.read();
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        Path dir = run.dir(original, Replay.DIRECTORY);
        var schedule = by == null ? original.schedule() : original.schedule().withTargets(by);
        stdout.println("replay " + original.directory().path() + " (" + original.outcome() + ") " + times
                + " time(s): seed " + original.config().seed() + ", " + schedule.faults().size() + " fault(s) as its "
                + "schedule.json says, nodes by " + schedule.targets().wireName());
        stdout.println("  runs in " + dir + " (their progress in " + dir.resolve(RunLog.FILE) + ")");
        stdout.flush();
        Replay.Summary summary;
        try (PrintWriter log = RunLog.open(dir)) {
            summary = Replay.run(original.directory().path().toString(), original.verdict(), original.kinds(),
                    original.config().withSchedule(schedule).withOut(dir), times, Trials.real(log), stdout);
        }
        stdout.println("  summary: " + Replay.write(dir, summary));
        boolean reproduced = original.verdict() == Validity.INVALID ? summary.reproduced() > 0
                : summary.sameVerdict() > 0;
        return reproduced ? Verdicts.Exit.VALID : Verdicts.Exit.INVALID;
    }
}
