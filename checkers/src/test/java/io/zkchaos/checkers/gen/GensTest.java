package io.zkchaos.checkers.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GensTest {

    private static final long SEED = 42L;
    private static final long MS = 1_000_000L;

    @Test
    void sameSeedSameSequenceOtherSeedOtherSequence() {
        Gen<Integer> gen = Gens.from(() -> r -> r.nextInt(1000)).stagger(Duration.ofMillis(5));
        List<Gens.Timed<Integer>> a = Gens.preview(gen, SEED, 200);
        List<Gens.Timed<Integer>> b = Gens.preview(gen, SEED, 200);
        List<Gens.Timed<Integer>> c = Gens.preview(gen, SEED + 1, 200);
        assertThat(a).hasSize(200).isEqualTo(b).isNotEqualTo(c);
    }

    @Test
    void weightedMixFollowsWeights() {
        Gen<String> gen = Gens.mix(() -> List.of(new Gens.Weighted<>(3, r -> "a"), new Gens.Weighted<>(1, r -> "b")));
        Map<String, Long> counts = Gens.preview(gen, SEED, 4000).stream()
                .collect(Collectors.groupingBy(Gens.Timed::value, Collectors.counting()));
        assertThat(counts.get("a")).isBetween(2800L, 3200L);
        assertThat(counts.get("b")).isBetween(800L, 1200L);
    }

    @Test
    void rateSpacesValuesAndTimeLimitEndsTheSequence() {
        Gen<String> gen = Gens.repeat("x").rate(10).timeLimit(Duration.ofSeconds(1));
        List<Gens.Timed<String>> out = Gens.preview(gen, SEED, 1000);
        assertThat(out).hasSize(10);
        for (int i = 0; i < out.size(); i++) {
            assertThat(out.get(i).atNanos()).isEqualTo(i * 100 * MS);
        }
    }

    @Test
    void untilReadsItsEndAtEveryCallSoAnEndMovedLaterLetsItGoOnButDoneStaysDone() {
        long[] end = {250 * MS};
        Gen.Cursor<String> c = Gens.repeat("x").rate(10).until(() -> end[0]).start(SEED);
        assertThat(c.next(0)).isInstanceOf(Gen.Next.Emit.class);
        assertThat(c.next(1)).isEqualTo(new Gen.Next.Pending<String>(100 * MS));
        assertThat(c.next(100 * MS)).isInstanceOf(Gen.Next.Emit.class);
        assertThat(c.next(200 * MS)).isInstanceOf(Gen.Next.Emit.class);
        assertThat(c.next(201 * MS)).as("the next value is due past the end: wake at the end")
                .isEqualTo(new Gen.Next.Pending<String>(250 * MS));
        end[0] = 450 * MS; // moved later before the end came
        assertThat(c.next(250 * MS)).isEqualTo(new Gen.Next.Pending<String>(300 * MS));
        assertThat(c.next(300 * MS)).isInstanceOf(Gen.Next.Emit.class);
        assertThat(c.next(450 * MS)).isInstanceOf(Gen.Next.Done.class);
        end[0] = 900 * MS;
        assertThat(c.next(500 * MS)).as("over stays over").isInstanceOf(Gen.Next.Done.class);
    }

    @Test
    void staggerIsSeededAndBoundedAndDoesNotChangeTheValues() {
        Gen<Integer> base = Gens.from(() -> {
            int[] i = {0};
            return r -> i[0]++;
        });
        List<Gens.Timed<Integer>> a = Gens.preview(base.stagger(Duration.ofMillis(10)), SEED, 100);
        List<Gens.Timed<Integer>> b = Gens.preview(base.stagger(Duration.ofMillis(10)), SEED, 100);
        assertThat(a).isEqualTo(b);
        assertThat(a.stream().map(Gens.Timed::value).toList()).isEqualTo(
                Gens.preview(base, SEED, 100).stream().map(Gens.Timed::value).toList());
        long previous = 0;
        for (Gens.Timed<Integer> t : a) {
            assertThat(t.atNanos() - previous).isBetween(0L, 20 * MS);
            previous = t.atNanos();
        }
        // mean gap 10 ms: 100 values take roughly a second
        assertThat(a.get(99).atNanos()).isBetween(600 * MS, 1400 * MS);
    }

    @Test
    void concatRunsEachInTurnAndLimitCounts() {
        Gen<String> gen = Gens.repeat("a").limit(2).then(Gens.<String>sleep(Duration.ofMillis(5)))
                .then(Gens.each(List.of("b", "c")));
        List<Gens.Timed<String>> out = Gens.preview(gen, SEED, 10);
        assertThat(out.stream().map(Gens.Timed::value).toList()).containsExactly("a", "a", "b", "c");
        assertThat(out.get(2).atNanos()).isEqualTo(5 * MS);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> Gens.repeat(1).rate(0)).hasMessageContaining("rate");
        assertThatThrownBy(() -> Gens.repeat(1).timeLimit(Duration.ZERO)).hasMessageContaining("time limit");
        assertThatThrownBy(() -> new Gens.Weighted<>(0, r -> 1)).hasMessageContaining("weight");
    }
}
