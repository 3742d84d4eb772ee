package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.nemesis.Aim;
import io.zkchaos.nemesis.NemesisDriver;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.nemesis.schedule.FaultSchedule.Window;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The schedule a run executed, executed again on a real 3-node ensemble (the fle nodes, every link through the
 * proxy): the same faults in the same order on the same nodes, each started no sooner than the schedule says and at
 * most {@link #TOLERANCE} later (the driver starts an action when it is due; only a previous action still under way,
 * or a thread scheduled late on a loaded machine, makes it later).
 */
class ScheduleReplayIT extends ProcessesUnderRuns {

    /** How much later than planned an action may start on a loaded 2-core machine. */
    static final Duration TOLERANCE = Duration.ofSeconds(3);

    /** Runs {@code schedule} on {@code cluster} with choices drawn from {@code seed}; returns what it executed. */
    private static FaultSchedule execute(LocalCluster cluster, FaultSchedule schedule, long seed) {
        NemesisDriver driver = new NemesisDriver(Nemeses.require("mixed").forStorage(false).on(cluster.nemesisTarget(new Random(seed))),
                Optional.of(schedule.gen()), seed, new InMemoryRecorder(),
                Duration.ofMillis(schedule.lastMillis() + 500));
        try (driver) {
            driver.start();
            await("the schedule and the final heal").atMost(Duration.ofSeconds(90))
                    .until(() -> driver.actions().stream().anyMatch(a -> a.step().equals("final-heal")));
        }
        return FaultSchedule.executed("mixed", driver.actions());
    }

    @Test
    void anExecutedScheduleExecutedAgainDoesTheSameFaultsOnTheSameNodesAtItsTimes() {
        try (LocalCluster cluster = LocalCluster.start(ClusterConfig.builder().system(SystemUnderTest.FLE).nodes(3)
                .runDirectory(runs.resolve("fle")).build())) {
            // a leader fault first (a leader is there after the start), then faults that need none
            FaultSchedule seeded = new FaultSchedule("mixed", null, List.of(
                    Window.of("isolate-leader", 500, 1500), Window.of("kill-random", 2500, 3000),
                    Window.of("random-halves", 4000, 4500), Window.of("pause-random", 5500, 6000)));
            FaultSchedule first = execute(cluster, seeded, 1);
            assertThat(first.faults()).extracting(Window::fault).containsExactly("isolate-leader", "kill-random",
                    "random-halves", "pause-random");
            assertThat(first.faults()).allSatisfy(w -> assertThat(w.error()).isNull());
            cluster.awaitQuorum(Duration.ofSeconds(60));

            FaultSchedule again = execute(cluster, first.withTargets(Aim.Targets.NAME), 2);
            assertThat(again.faults()).extracting(Window::fault, Window::nodes, Window::description)
                    .isEqualTo(first.faults().stream().map(w -> org.assertj.core.groups.Tuple.tuple(w.fault(),
                            w.nodes(), w.description())).toList());
            for (int i = 0; i < first.faults().size(); i++) {
                Window planned = first.faults().get(i);
                Window done = again.faults().get(i);
                assertThat(done.start().choices()).isEqualTo(planned.start().choices());
                assertThat(done.startMillis()).as("start of %s", planned.fault())
                        .isBetween(planned.startMillis(), planned.startMillis() + TOLERANCE.toMillis());
                assertThat(done.endMillis()).as("end of %s", planned.fault())
                        .isBetween(planned.endMillis(), planned.endMillis() + TOLERANCE.toMillis());
            }
        }
    }
}
