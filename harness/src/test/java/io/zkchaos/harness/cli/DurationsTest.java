package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void readsTheUsualUnitsAndIso() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void rejectsWhatIsNotAPositiveDuration() {
        for (String bad : new String[] {"10", "10x", "s", "-1s", "1.5s", "", "10 s"}) {
            assertThatThrownBy(() -> Durations.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + bad + "' is not a duration; use e.g. 500ms, 10s, 2m, 1h");
        }
        assertThatThrownBy(() -> Durations.parse("0ms")).hasMessage("'0ms' is not a positive duration");
        assertThatThrownBy(() -> Durations.parse("PT-1S")).hasMessage("'PT-1S' is not a positive duration");
    }

    @Test
    void defaultsAreShownTheWayTheyAreRead() {
        for (Duration d : new Duration[] {Duration.ofMillis(500), Duration.ofSeconds(10), Duration.ofSeconds(60),
                Duration.ofMillis(1500), Duration.ofNanos(1), Duration.ZERO}) {
            assertThat(io.zkchaos.checkers.DurationText.parse(io.zkchaos.checkers.DurationText.format(d)))
                    .as("%s", d).contains(d);
        }
        assertThat(io.zkchaos.checkers.DurationText.format(Duration.ofSeconds(60))).isEqualTo("60s");
        assertThat(io.zkchaos.checkers.DurationText.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }
}
