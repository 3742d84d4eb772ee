package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.nemesis.faults.ClockFaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The clock faults against an in-memory system that records every clock it is told to move: which nodes, by how
 * much, that a seed repeats itself, and that the heal sets every clock back (a real server's skewed clock is in
 * ServerClockIT).
 */
class ClockFaultsTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static List<String> run(long seed, String name, Function<ClockFaults, FaultRecord> fault) {
        RecordingSystem s = new RecordingSystem(3);
        FaultRecord r = fault.apply(new ClockFaults(s.target(seed), name));
        List<String> out = new ArrayList<>(s.calls);
        out.add(r.fault() + ": " + r.description() + " " + r.nodes());
        return out;
    }

    private static long offsetMillis(String call) {
        String s = call.substring(call.lastIndexOf(' ', call.length() - 3) + 1, call.length() - 2);
        return Math.round(Double.parseDouble(s) * 1000);
    }

    @Test
    void aSkewGivesEveryNodeItsOwnOffsetWithinTheBoundAndTheSeedRepeatsIt() {
        List<String> calls = run(7, "clock-skew", f -> f.skewClocks(MINUTE));
        assertThat(calls).hasSize(4);
        assertThat(calls.subList(0, 3)).extracting(c -> c.split(" ")[1]).containsExactly("n1", "n2", "n3");
        assertThat(calls.subList(0, 3)).allSatisfy(c -> assertThat(Math.abs(offsetMillis(c))).isLessThanOrEqualTo(60_000));
        assertThat(calls.subList(0, 3).stream().map(ClockFaultsTest::offsetMillis).distinct()).hasSize(3);
        assertThat(calls.get(3)).startsWith("clock-skew: skew the clock of n1 ").endsWith("[n1, n2, n3]");
        assertThat(run(7, "clock-skew", f -> f.skewClocks(MINUTE))).isEqualTo(calls);
        assertThat(run(8, "clock-skew", f -> f.skewClocks(MINUTE))).isNotEqualTo(calls);
    }

    @Test
    void aBumpMovesOneNodeForwardOrBackWithinItsRange() {
        List<Long> seen = new ArrayList<>();
        for (long seed = 0; seed < 20; seed++) {
            List<String> calls = run(seed, "clock-bump", f -> f.bumpClock(SECOND, MINUTE));
            assertThat(calls).hasSize(2);
            long ms = offsetMillis(calls.get(0));
            assertThat(Math.abs(ms)).isBetween(1_000L, 60_000L);
            assertThat(calls.get(1)).startsWith("clock-bump: bump the clock of " + calls.get(0).split(" ")[1]);
            seen.add(ms);
        }
        assertThat(seen).anyMatch(ms -> ms > 0).anyMatch(ms -> ms < 0);
    }

    @Test
    void aStrobeFlipsOneNodeBetweenItsOffsetAndTheTrueTimeAndStaysOnTheOffset() {
        List<String> calls = run(3, "clock-strobe", f -> f.strobeClock(SECOND, MINUTE, 4, Duration.ZERO));
        String node = calls.get(0).split(" ")[1];
        String offset = calls.get(0).substring(("clock " + node + " ").length());
        assertThat(calls.subList(0, 5)).containsExactly("clock " + node + " " + offset, "clock " + node + " +0.000 s",
                "clock " + node + " " + offset, "clock " + node + " +0.000 s", "clock " + node + " " + offset);
        assertThat(calls.get(5)).startsWith("clock-strobe: strobe the clock of " + node + " between " + offset)
                .contains("4 flips").endsWith("[" + node + "]");
    }

    @Test
    void theResetAndTheFinalHealSetEveryMovedClockBack() {
        RecordingSystem s = new RecordingSystem(3);
        NemesisTarget target = s.target(1);
        new ClockFaults(target, "clock-skew").skewClocks(MINUTE);
        FaultRecord reset = new ClockFaults(target, "heal").resetClocks();
        assertThat(reset.nodes()).containsExactly("n1", "n2", "n3");
        assertThat(s.offsets).isEmpty();

        new ClockFaults(target, "clock-bump").bumpClock(SECOND, MINUTE);
        String bumped = s.offsets.keySet().iterator().next();
        FaultRecord heal = Nemeses.require("clock-bump").on(s.target(1)).healAll();
        assertThat(s.offsets).isEmpty();
        assertThat(heal.description()).contains("reset the clock of " + bumped);
        assertThat(heal.nodes()).contains(bumped);
    }

    @Test
    void aSkewAndItsResetEachSetEveryClockInOneCall() {
        RecordingSystem s = new RecordingSystem(3);
        NemesisTarget target = s.target(1);
        new ClockFaults(target, "clock-skew").skewClocks(MINUTE);
        new ClockFaults(target, "heal").resetClocks();
        assertThat(s.clockBatches).as("one call (one wait) for the skew, one for the reset")
                .containsExactly(new java.util.TreeSet<>(List.of("n1", "n2", "n3")),
                        new java.util.TreeSet<>(List.of("n1", "n2", "n3")));
    }

    @Test
    void aHealNeverAsksASystemWithoutMovedClocks() {
        RecordingSystem s = new RecordingSystem(3);
        s.clocks = false;
        FaultRecord heal = Nemeses.require("kill-random").on(s.target(1)).healAll();
        assertThat(heal.description()).doesNotContain("clock");
    }

    @Test
    void aSystemThatCannotMoveClocksIsNamedInTheError() {
        RecordingSystem s = new RecordingSystem(3);
        s.clocks = false;
        assertThatThrownBy(() -> new ClockFaults(s.target(1), "clock-skew").skewClocks(MINUTE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot move n1's clock");
    }

    @Test
    void theClockFaultsAreNemesesOfTheirOwnAndPartOfMixed() {
        for (String name : List.of("clock-skew", "clock-bump", "clock-strobe")) {
            assertThat(Nemeses.require(name).movesClocks()).as(name).isTrue();
            assertThat(Nemeses.require(Nemeses.MIXED).faults()).extracting(Fault::name).contains(name);
        }
        assertThat(Nemeses.require("kill-random").movesClocks()).isFalse();
    }
}
