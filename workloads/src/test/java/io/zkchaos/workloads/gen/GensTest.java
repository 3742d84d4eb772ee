package io.zkchaos.workloads.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.register.RegisterWorkload;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GensTest {

    private static final long SEED = 42L;
    private static final long MS = 1_000_000L;

    @Test
    void sameSeedSameSequenceOtherSeedOtherSequence() {
        Gen<Invocation> gen = new RegisterWorkload("/r", 5, RegisterWorkload.ReadMode.SYNC).generator();
        List<Gens.Timed<Invocation>> a = Gens.preview(gen, SEED, 200);
        List<Gens.Timed<Invocation>> b = Gens.preview(gen, SEED, 200);
        List<Gens.Timed<Invocation>> c = Gens.preview(gen, SEED + 1, 200);
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
    void registerValuesAreUniqueAndCasExpectsTheLastValueWrittenToItsKey() {
        Gen<Invocation> gen = new RegisterWorkload("/r", 3, RegisterWorkload.ReadMode.PLAIN).generator();
        Map<String, Long> last = new HashMap<>();
        Set<Long> written = new HashSet<>();
        int cas = 0;
        for (Gens.Timed<Invocation> t : Gens.preview(gen, SEED, 500)) {
            Invocation op = t.value();
            assertThat(op.key()).matches("r[0-2]");
            switch (op.f()) {
                case "read" -> assertThat(op.value()).isNull();
                case "write" -> {
                    assertThat(written.add((Long) op.value())).isTrue();
                    last.put(op.key(), (Long) op.value());
                }
                case "cas" -> {
                    List<?> v = (List<?>) op.value();
                    assertThat(v.get(0)).isEqualTo(last.get(op.key()));
                    assertThat(written.add((Long) v.get(1))).isTrue();
                    last.put(op.key(), (Long) v.get(1));
                    cas++;
                }
                default -> throw new AssertionError("unexpected " + op);
            }
        }
        assertThat(cas).isGreaterThan(50);
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
    void nemesisCycleAlternatesFaultAndHealAtTheStatedTimesWithASeededChoice() {
        Gen<FaultStep> gen = NemesisGens.cycle(Duration.ofSeconds(10), Duration.ofSeconds(5),
                List.of("partition-leader", "kill-random", "pause-leader")).timeLimit(Duration.ofSeconds(60));
        List<Gens.Timed<FaultStep>> steps = Gens.preview(gen, SEED, 100);
        // heal 5, fault 10: starts at 5, 20, 35, 50; stops at 15, 30, 45 (the one started at 50 ends with the limit)
        assertThat(steps.stream().map(t -> t.atNanos() / 1_000_000_000L).toList())
                .containsExactly(5L, 15L, 20L, 30L, 35L, 45L, 50L);
        for (int i = 0; i < steps.size(); i++) {
            FaultStep s = steps.get(i).value();
            assertThat(s.kind()).isEqualTo(i % 2 == 0 ? FaultStep.Kind.START : FaultStep.Kind.STOP);
            if (i % 2 == 1) {
                assertThat(s.fault()).isEqualTo(steps.get(i - 1).value().fault());
            }
        }
        assertThat(Gens.preview(gen, SEED, 100)).isEqualTo(steps);
        // over many cycles every fault gets chosen
        Set<String> chosen = Gens.preview(NemesisGens.cycle(Duration.ofSeconds(1), Duration.ofSeconds(1),
                List.of("a", "b", "c")), SEED, 60).stream().map(t -> t.value().fault()).collect(Collectors.toSet());
        assertThat(chosen).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void phasePlanYieldsPhasesInOrderAtTheirTimes() {
        List<Gens.Timed<Phase>> phases = Gens.preview(
                new PhasePlan(Duration.ofSeconds(30), Duration.ofSeconds(10)).schedule(), SEED, 10);
        assertThat(phases.stream().map(Gens.Timed::value).toList())
                .containsExactly(Phase.MAIN, Phase.HEAL, Phase.RECOVER, Phase.FINAL_READS);
        assertThat(phases.stream().map(t -> t.atNanos() / 1_000_000_000L).toList())
                .containsExactly(0L, 30L, 30L, 40L);
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
        assertThatThrownBy(() -> NemesisGens.cycle(Duration.ofSeconds(1), Duration.ofSeconds(1), List.of()))
                .hasMessageContaining("at least one fault");
        assertThatThrownBy(() -> new Gens.Weighted<>(0, r -> 1)).hasMessageContaining("weight");
    }
}
