package io.zkchaos.checkers.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void theMedianIsTheMiddleSampleOrTheMeanOfTheTwoMiddleOnes() {
        assertThat(Stats.median(List.of(9L, 1L, 5L))).isEqualTo(5L);
        assertThat(Stats.median(List.of(8L, 2L, 4L, 6L))).isEqualTo(5L);
        assertThat(Stats.median(new double[] {0.5, 0.25})).isEqualTo(0.375);
        assertThat(Stats.median(new double[] {3, 1, 2})).isEqualTo(2.0);
    }

    @Test
    void noSamplesHaveNoMedianAndTheSamplesAreLeftAsTheyWere() {
        assertThat(Stats.median(List.of())).isEqualTo(-1L);
        assertThat(Stats.median(new double[0])).isNaN();
        long[] samples = {3, 1, 2};
        Stats.median(samples);
        assertThat(samples).containsExactly(3, 1, 2);
    }

    @Test
    void aPercentileIsTheNearestRank() {
        List<Long> hundred = java.util.stream.LongStream.rangeClosed(1, 100).boxed().toList();
        assertThat(Stats.percentile(hundred, 0.99)).isEqualTo(100L);
        assertThat(Stats.percentile(hundred, 0.5)).isEqualTo(51L);
        assertThat(Stats.percentile(hundred, 0)).isEqualTo(1L);
        assertThat(Stats.percentile(List.of(), 0.5)).isEqualTo(-1L);
        assertThatThrownBy(() -> Stats.percentile(hundred, 99)).hasMessageContaining("from 0 to 1, got 99");
    }
}
