package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.workloads.gen.FaultStep;
import io.zkchaos.workloads.gen.Gens;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunConfigTest {

    @Test
    void namesTheFieldThatIsWrong() {
        assertThatThrownBy(() -> RunConfig.builder().workload("bogus").build())
                .hasMessageContaining("unknown workload 'bogus'").hasMessageContaining("register, set, election");
        assertThatThrownBy(() -> RunConfig.builder().nemesis("chaos-monkey").build())
                .hasMessageContaining("unknown nemesis 'chaos-monkey'").hasMessageContaining("kill-leader");
        assertThatThrownBy(() -> RunConfig.builder().nodes(4).build()).hasMessageContaining("nodes must be 3 or 5");
        assertThatThrownBy(() -> RunConfig.builder().nodes(1).nemesis("halves").build())
                .hasMessageContaining("needs at least 3 nodes");
        assertThatThrownBy(() -> RunConfig.builder().timeLimit(Duration.ZERO).build())
                .hasMessageContaining("time-limit");
        assertThatThrownBy(() -> RunConfig.builder().concurrency(0).build()).hasMessageContaining("concurrency");
    }

    @Test
    void theScenarioIsWorkloadAndNemesis() {
        assertThat(RunConfig.builder().workload("set").nemesis("kill-leader").build().scenario())
                .isEqualTo("set-kill-leader");
    }

    @Test
    void theSameSeedGivesTheSameFaultScheduleAndAnotherSeedAnother() {
        RunConfig a = RunConfig.builder().nemesis("mixed").seed(42).faultFor(Duration.ofSeconds(3))
                .healFor(Duration.ofSeconds(2)).sessionTimeout(Duration.ofSeconds(1)).build();
        RunConfig b = RunConfig.builder().nemesis("mixed").seed(42).faultFor(Duration.ofSeconds(3))
                .healFor(Duration.ofSeconds(2)).sessionTimeout(Duration.ofSeconds(1)).build();
        RunConfig c = RunConfig.builder().nemesis("mixed").seed(43).faultFor(Duration.ofSeconds(3))
                .healFor(Duration.ofSeconds(2)).sessionTimeout(Duration.ofSeconds(1)).build();
        List<Gens.Timed<FaultStep>> first = Gens.preview(NemesisDriver.schedule(a), a.seed(), 40);
        List<Gens.Timed<FaultStep>> again = Gens.preview(NemesisDriver.schedule(b), b.seed(), 40);
        List<Gens.Timed<FaultStep>> other = Gens.preview(NemesisDriver.schedule(c), c.seed(), 40);
        assertThat(first).hasSize(40).isEqualTo(again).isNotEqualTo(other);
        // Faults alternate with their heals, 2 s healed then 3 s faulted.
        assertThat(first.get(0).value().kind()).isEqualTo(FaultStep.Kind.START);
        assertThat(first.get(0).atNanos()).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(first.get(1).value()).isEqualTo(FaultStep.stop(first.get(0).value().fault()));
        assertThat(first.get(1).atNanos()).isEqualTo(Duration.ofSeconds(5).toNanos());
        assertThat(first.stream().map(t -> t.value().fault()).distinct().count())
                .as("mixed draws several kinds of fault").isGreaterThan(3);
    }

    @Test
    void noneHasNoSchedule() {
        assertThat(NemesisDriver.schedule(RunConfig.builder().nemesis("none").build())).isNull();
    }

    @Test
    void aClientPartitionOutlastsTheSessionTimeout() {
        RunConfig c = RunConfig.builder().nemesis("client-partition").seed(1).faultFor(Duration.ofSeconds(1))
                .healFor(Duration.ofSeconds(1)).sessionTimeout(Duration.ofSeconds(4)).build();
        List<Gens.Timed<FaultStep>> steps = Gens.preview(NemesisDriver.schedule(c), 1, 2);
        assertThat(steps.get(1).atNanos() - steps.get(0).atNanos()).isEqualTo(Duration.ofSeconds(6).toNanos());
    }
}
