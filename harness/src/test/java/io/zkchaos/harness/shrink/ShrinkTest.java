package io.zkchaos.harness.shrink;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.run.config.Timing;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A candidate as the run it stands for, and what the built-in faults allow a shrink. */
class ShrinkTest {

    @Test
    void aCandidateIsTheOriginalRunResizedWithItsSchedule() {
        RunConfig base = RunConfig.builder().workload("register").nemesis("mixed").nodes(5).concurrency(8).keys(4)
                .seed(7).out(Path.of("/tmp/never")).timeLimit(Duration.ofSeconds(60)).recover(Duration.ofSeconds(9))
                .build();
        FaultSchedule one = new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves", 1000, 2000)));
        RunConfig c = Shrink.sized(base, new Shrinker.Candidate(one, new Shrinker.Size(3, 2, 1, 3000)));
        assertThat(c.cluster().nodes()).isEqualTo(3);
        assertThat(c.workload().concurrency()).isEqualTo(2);
        assertThat(c.workload().options().keys()).isEqualTo(1);
        assertThat(c.timing()).isEqualTo(new Timing(Duration.ofSeconds(3), Duration.ofSeconds(9)));
        assertThat(c.nemesis().schedule()).isEqualTo(one);
        assertThat(c.seed()).isEqualTo(7);
        assertThat(c.withSchedule(null).withOut(Path.of("/tmp/never")))
                .isEqualTo(RunConfig.builder().workload("register").nemesis("mixed").nodes(3).concurrency(2).keys(1)
                        .seed(7).out(Path.of("/tmp/never")).timeLimit(Duration.ofSeconds(3))
                        .recover(Duration.ofSeconds(9)).build());
        // keys of 0: the workload has none to shrink, its own are kept
        assertThat(Shrink.sized(base, new Shrinker.Candidate(one, new Shrinker.Size(5, 8, 0, 3000))).workload()
                .options().keys()).isEqualTo(4);
    }

    @Test
    void aCandidateWithNoFaultRunsAsNemesisNoneAndOneWithFaultsKeepsTheRecordedFamilies() {
        RunConfig base = RunConfig.builder().workload("register").nemesis("mixed")
                .without(List.of(io.zkchaos.nemesis.Fault.Family.CLOCK)).relax(List.of("fault-applied"))
                .seed(7).out(Path.of("/tmp/never")).timeLimit(Duration.ofSeconds(60)).build();
        RunConfig none = Shrink.sized(base, new Shrinker.Candidate(new FaultSchedule("mixed", null, List.of()),
                new Shrinker.Size(3, 2, 1, 60_000)));
        assertThat(none.nemesis().name()).isEqualTo("none");
        assertThat(none.nemesis().schedule()).isNull();
        assertThat(none.faultOps()).isEmpty();
        assertThat(none.checks().relax()).as("none has no fault-applied to relax").isEmpty();
        FaultSchedule one = new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves", 1000, 2000)));
        RunConfig c = Shrink.sized(base, new Shrinker.Candidate(one, new Shrinker.Size(3, 2, 1, 3000)));
        assertThat(c.nemesis().without()).containsExactly(io.zkchaos.nemesis.Fault.Family.CLOCK);
        assertThat(c.checks().relax()).containsExactly("fault-applied");
    }

    @Test
    void theFaultsSayHowShortAndOnHowFewNodes() {
        RunConfig config = RunConfig.builder().workload("set").sessionTimeout(Duration.ofSeconds(4)).build();
        Shrinker.Rules rules = Shrink.rules(config);
        assertThat(rules.minHoldMillis("client-partition")).as("1.5 session timeouts").isEqualTo(6000);
        assertThat(rules.minHoldMillis("kill-leader")).isZero();
        assertThat(rules.supports("halves", 3)).isTrue();
        assertThat(rules.supports("halves", 1)).isFalse();
        assertThat(rules.supports("no-such-fault", 3)).isFalse();
    }

    @Test
    void aTrialSaysItsVerdictAndWhatKeptItFromCountingInOneLine() {
        assertThat(TrialRun.failed(null, "no quorum served (n2 exited)\nlast lines of server.log:\n...").outcome())
                .isEqualTo("ERROR (no quorum served (n2 exited))");
        assertThat(new TrialRun(null, io.zkchaos.checkers.Validity.INVALID, new java.util.TreeSet<>(List.of(
                "no-lost-commit:lost")), false, null).outcome()).isEqualTo("INVALID (exercised too little)");
        assertThat(new TrialRun(null, io.zkchaos.checkers.Validity.INVALID, new java.util.TreeSet<>(List.of(
                "no-lost-commit:lost")), true, null).outcome()).isEqualTo("INVALID no-lost-commit:lost");
    }
}
