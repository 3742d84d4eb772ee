package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Usage errors of run --schedule, replay and shrink: exit 2 and a message naming the problem; no cluster is started
 * (every case is refused before a run would begin).
 */
class ReplayAndShrinkCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** A finished run's directory: its configuration, the schedule it executed, its verdict. */
    private RunDirectory finishedRun(Validity verdict) {
        RunDirectory run = new RunDirectory(dir.resolve("run"));
        run.writeConfig(RunConfig.builder().system("fle").workload("set").nemesis("mixed").seed(1)
                .out(dir.resolve("store")).build().saved());
        run.writeResults(CheckResult.of("no-lost-commit", verdict, "what it found", null));
        return run;
    }

    @Test
    void runSaysWhatIsWrongWithAScheduleFile() throws Exception {
        assertThat(run("run", "--workload", "set", "--schedule", dir.resolve("none.json").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("none.json: no such file (a fault schedule expected)");
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"nemesis\": \"mixed\", \"faults\": [{\"fault\": "
                + "\"halves\", \"startMillis\": 5000, \"endMillis\": 1000}]}");
        assertThat(run("run", "--workload", "set", "--schedule", bad.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("bad.json: not a fault schedule: schedule: fault halves ends at 1000 ms, "
                + "before it starts at 5000 ms");
        Path late = dir.resolve("late.json");
        Json.write(late, new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves", 70_000,
                75_000))));
        assertThat(run("run", "--workload", "set", "--schedule", late.toString())).isEqualTo(2);
        assertThat(err.toString()).as("the nemesis is the file's: mixed does halves")
                .contains("schedule: fault halves starts at 70s, not within the main phase (time-limit 60s)");
        assertThat(run("run", "--workload", "set", "--nemesis", "kill-leader", "--schedule", late.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("fault 'halves' is not one of nemesis 'kill-leader'");
    }

    @Test
    void replayAndShrinkNeedAFinishedRunThatWroteItsSchedule() {
        assertThat(run("replay", dir.resolve("nowhere").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("nowhere is not a directory");
        RunDirectory run = finishedRun(Validity.INVALID);
        assertThat(run("shrink", run.path().toString())).isEqualTo(2);
        assertThat(err.toString()).contains("has no schedule.json: the run stopped before its main phase ended, or "
                + "was made before runs wrote the schedule they executed");
        assertThat(run("replay", run.path().toString(), "--times", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--times must be at least 1, got 0");
    }

    @Test
    void shrinkNeedsSomethingToShrinkAndSaysHowAFindingIsNamed() {
        RunDirectory run = finishedRun(Validity.VALID);
        Json.write(run.scheduleFile(), new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves",
                5000, 10_000))));
        assertThat(run("shrink", run.path().toString())).isEqualTo(2);
        assertThat(err.toString()).contains("nothing to shrink: ").contains("found nothing (valid); shrink takes a "
                + "run whose verdict is INVALID");
        assertThat(run("shrink", run.path().toString(), "--finding", "lost")).isEqualTo(2);
        assertThat(err.toString()).contains("--finding must be CHECKER:KIND (e.g. no-lost-commit:lost), got 'lost'");
        assertThat(run("shrink", run.path().toString(), "--budget", "never")).isEqualTo(2);
        assertThat(run("shrink", run.path().toString(), "--keep-rate", "3/2")).isEqualTo(2);
        assertThat(err.toString()).contains("error: --keep-rate must be N/K with 1 <= N <= K (reproductions of "
                + "tries), got 3/2");
        assertThat(run("replay", run.path().toString(), "--targets", "ip")).isEqualTo(2);
        assertThat(err.toString()).contains("targets must be role or name, got 'ip'");
    }
}
