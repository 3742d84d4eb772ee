package io.zkchaos.harness.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MovedClocksTest {

    @Test
    void aClockSetBackToZeroIsNoLongerMovedAndTheOthersKeepTheirOffsets() {
        MovedClocks<String> clocks = new MovedClocks<>();
        clocks.record(Map.of("n1", Duration.ofHours(2), "n2", Duration.ofSeconds(-30)));
        Map<String, Duration> reset = new LinkedHashMap<>();
        reset.put("n1", Duration.ZERO);
        reset.put("n3", Duration.ofMinutes(5));
        clocks.record(reset);

        assertThat(clocks.offsets()).containsOnly(Map.entry("n2", Duration.ofSeconds(-30)),
                Map.entry("n3", Duration.ofMinutes(5)));
    }

    @Test
    void theOffsetsAreACopy() {
        MovedClocks<Integer> clocks = new MovedClocks<>();
        clocks.record(Map.of(1, Duration.ofSeconds(10)));
        Map<Integer, Duration> before = clocks.offsets();
        clocks.record(Map.of(1, Duration.ZERO));

        assertThat(before).containsOnly(Map.entry(1, Duration.ofSeconds(10)));
        assertThat(clocks.offsets()).isEmpty();
    }
}
