package io.zkchaos.nemesis.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.nemesis.FaultOp;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Compound fault schedules, previewed on the generator's own clock: up to K faults at once, never two of one family,
 * windows that overlap, each held at least the fault time, the same seed the same schedule.
 */
class ComposedScheduleTest {

    private static final Duration HOLD = Duration.ofSeconds(4);
    private static final Map<String, List<String>> FAMILIES = new LinkedHashMap<>();

    static {
        FAMILIES.put("network", List.of("halves", "bridge", "isolate-leader"));
        FAMILIES.put("crash", List.of("kill-random", "kill-leader", "crash-subset"));
        FAMILIES.put("pause", List.of("pause-random"));
        FAMILIES.put("clock", List.of("clock-skew", "clock-bump"));
    }

    private static final Map<String, String> FAMILY_OF = new HashMap<>();

    static {
        FAMILIES.forEach((family, faults) -> faults.forEach(f -> FAMILY_OF.put(f, family)));
    }

    private static List<Gens.Timed<FaultOp>> preview(int k, long seed) {
        Gen<FaultOp> gen = Schedules.compose(HOLD, Duration.ofSeconds(2), FAMILIES, k)
                .timeLimit(Duration.ofSeconds(300));
        return Gens.preview(gen, seed, 10_000);
    }

    /** A fault from its start to its stop, on the generator's clock. */
    private record Held(String fault, long from, long to) {
    }

    /** Replays the operations, checking at each start what is in force; returns every window. */
    private static List<Held> windows(List<Gens.Timed<FaultOp>> ops, int k) {
        Map<String, Long> open = new LinkedHashMap<>();
        List<Held> held = new java.util.ArrayList<>();
        for (Gens.Timed<FaultOp> t : ops) {
            String f = t.value().fault();
            if (t.value().kind() == FaultOp.Kind.START) {
                assertThat(open).as("at most %d at once", k).hasSizeLessThan(k);
                assertThat(open.keySet()).as("never two of one family: %s starts while %s hold", f, open.keySet())
                        .noneMatch(o -> FAMILY_OF.get(o).equals(FAMILY_OF.get(f)));
                open.put(f, t.atNanos());
            } else {
                assertThat(open).as("a stop of a fault in force").containsKey(f);
                held.add(new Held(f, open.remove(f), t.atNanos()));
            }
        }
        return held;
    }

    @Test
    void upToKFaultsOfDifferentFamiliesHoldInOverlappingWindows() {
        for (int k = 2; k <= 4; k++) {
            for (long seed = 0; seed < 20; seed++) {
                List<Held> held = windows(preview(k, seed), k);
                assertThat(held).hasSizeGreaterThan(20);
                assertThat(held).allMatch(h -> h.to() - h.from() >= HOLD.toNanos(), "held at least the fault time");
                // overlapping, not back to back: a fault starts while another holds and outlasts its start
                assertThat(held).anyMatch(a -> held.stream().anyMatch(b -> b != a && b.from() > a.from()
                        && b.from() < a.to() && b.to() > a.to()));
            }
            // K at once happens, and the windows' lengths differ
            List<Held> held = windows(preview(k, 7), k);
            int most = 0;
            for (Held h : held) {
                most = Math.max(most, (int) held.stream().filter(o -> o.from() <= h.from() && h.from() < o.to())
                        .count());
            }
            assertThat(most).isEqualTo(k);
            assertThat(held.stream().map(h -> h.to() - h.from()).distinct().count()).isGreaterThan(1);
        }
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        assertThat(preview(3, 42)).isEqualTo(preview(3, 42));
        assertThat(preview(3, 42)).isNotEqualTo(preview(3, 43));
        // every family gets its turn
        assertThat(preview(2, 42).stream().map(t -> FAMILY_OF.get(t.value().fault())).distinct())
                .containsExactlyInAnyOrderElementsOf(FAMILIES.keySet());
    }

    @Test
    void itNeedsAsManyFamiliesAsFaultsAtOnce() {
        assertThatThrownBy(() -> Schedules.compose(HOLD, HOLD, FAMILIES, 5))
                .hasMessage("up to 5 faults at once, each of another family, needs at least 5 families; there are 4 "
                        + "[network, crash, pause, clock]");
        assertThatThrownBy(() -> Schedules.compose(HOLD, HOLD, FAMILIES, 0)).hasMessageContaining("up to 0 faults");
        assertThatThrownBy(() -> Schedules.compose(HOLD, HOLD, Map.of("network", List.of()), 1))
                .hasMessage("fault family 'network' has no faults");
    }
}
