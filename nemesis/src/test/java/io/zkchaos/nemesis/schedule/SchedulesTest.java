package io.zkchaos.nemesis.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.nemesis.FaultOp;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Nemesis schedules are pure: the same seed gives the same fault operations at the same times. */
class SchedulesTest {

    private static final long SEED = 42L;

    @Test
    void nemesisCycleAlternatesFaultAndHealAtTheStatedTimesWithASeededChoice() {
        Gen<FaultOp> gen = Schedules.cycle(Duration.ofSeconds(10), Duration.ofSeconds(5),
                List.of("partition-leader", "kill-random", "pause-leader")).timeLimit(Duration.ofSeconds(60));
        List<Gens.Timed<FaultOp>> steps = Gens.preview(gen, SEED, 100);
        // heal 5, fault 10: starts at 5, 20, 35, 50; stops at 15, 30, 45 (the one started at 50 ends with the limit)
        assertThat(steps.stream().map(t -> t.atNanos() / 1_000_000_000L).toList())
                .containsExactly(5L, 15L, 20L, 30L, 35L, 45L, 50L);
        for (int i = 0; i < steps.size(); i++) {
            FaultOp s = steps.get(i).value();
            assertThat(s.kind()).isEqualTo(i % 2 == 0 ? FaultOp.Kind.START : FaultOp.Kind.STOP);
            if (i % 2 == 1) {
                assertThat(s.fault()).isEqualTo(steps.get(i - 1).value().fault());
            }
        }
        assertThat(Gens.preview(gen, SEED, 100)).isEqualTo(steps);
        // over many cycles every fault gets chosen
        Set<String> chosen = Gens.preview(Schedules.cycle(Duration.ofSeconds(1), Duration.ofSeconds(1),
                List.of("a", "b", "c")), SEED, 60).stream().map(t -> t.value().fault()).collect(Collectors.toSet());
        assertThat(chosen).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void aCycleNeedsAFault() {
        assertThatThrownBy(() -> Schedules.cycle(Duration.ofSeconds(1), Duration.ofSeconds(1), List.of()))
                .hasMessageContaining("at least one fault");
    }
}
