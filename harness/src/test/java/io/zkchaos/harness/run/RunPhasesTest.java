package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunPhasesTest {

    @Test
    void phasesKeepTheirOrderAndSayTheirSeconds() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("start", 3100L);
        m.put("clients", 22000L);
        m.put("check", 40L);
        RunPhases p = new RunPhases(m);
        assertThat(p.toString()).isEqualTo("start 3.1 s, clients 22.0 s, check 0.0 s");
        assertThat(p.of("report")).isZero();
    }

    @Test
    void aClockLapsEachPhaseOnceInOrderAndAddsARepeatedOne() {
        RunPhases.Clock clock = new RunPhases.Clock();
        clock.lap("start");
        clock.lap("clients");
        clock.lap("start");
        assertThat(clock.phases().millis().keySet()).containsExactly("start", "clients");
        assertThat(clock.phases().millis().values()).allSatisfy(v -> assertThat(v).isNotNegative());
    }
}
