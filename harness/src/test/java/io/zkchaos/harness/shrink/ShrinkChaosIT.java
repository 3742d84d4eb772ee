package io.zkchaos.harness.shrink;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.nemesis.schedule.FaultSchedule.Window;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shrinking a planted finding with real runs ({@code -Pchaos}: about a quarter of an hour here). The fle nodes built
 * with {@code ack-before-durable} acknowledge a write before it is on disk; a power loss of the whole ensemble
 * ({@code kill-all}) loses what they acknowledged in the last second, every time (the mutation matrix's row), and no
 * other fault of the schedule loses anything. From a run of three faults the shrink must reach {@code kill-all} alone.
 */
class ShrinkChaosIT {

    @TempDir
    Path store;

    @Test
    void aFindingThatAPowerLossExposesShrinksToThePowerLossAlone() throws Exception {
        StringWriter progress = new StringWriter();
        RunConfig config = RunConfig.builder().system("fle").bugs(List.of("ack-before-durable")).workload("set")
                .nemesis("mixed").seed(1).out(store).timeLimit(Duration.ofSeconds(26))
                .recover(Duration.ofSeconds(25)).failoverBound(Duration.ofSeconds(60))
                .schedule(new FaultSchedule("mixed", null, List.of(Window.of("pause-random", 3000, 5000),
                        Window.of("kill-all", 8000, 13_000), Window.of("halves", 20_000, 23_000))))
                .build();
        RunOutcome original = new Runner(new PrintWriter(progress), Duration.ofSeconds(10)).run(config);
        assertThat(original.result().validity()).as("the original run: %s", original.result().summary())
                .isEqualTo(Validity.INVALID);

        RecordedRun recorded = RecordedRun.read(original.directory().path());
        assertThat(recorded.kinds()).contains("no-lost-commit:lost");
        StringWriter steps = new StringWriter();
        Shrink.Outcome o = Shrink.run(recorded, java.util.Set.of("no-lost-commit:lost"),
                new Shrinker.KeepRate(1, 2), Duration.ofMinutes(12),
                0, store.resolve("shrink"), new PrintWriter(steps, true), new PrintWriter(progress, true));
        System.out.println(steps);

        assertThat(o.result().smallest().schedule().faults()).as(steps.toString()).extracting(Window::fault)
                .containsExactly("kill-all");
        assertThat(o.run()).isNotNull();
        assertThat(Files.readString(o.report())).contains("kill-all").contains("original").contains("shrunk");
        assertThat(Files.isRegularFile(o.schedule())).isTrue();
    }
}
