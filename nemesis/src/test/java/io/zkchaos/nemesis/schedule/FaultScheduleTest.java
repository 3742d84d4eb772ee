package io.zkchaos.nemesis.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.nemesis.Aim;
import io.zkchaos.nemesis.FaultOp;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisDriver;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The executed schedule as data: pairing a driver's actions, executing it again, its file form and its rules. */
class FaultScheduleTest {

    private static FaultRecord killed(String node, Aim aim) {
        return FaultRecord.process("kill-random", "kill", List.of(node)).withAim(aim);
    }

    @Test
    void theExecutedScheduleIsEachStartWithItsStopTheirChoicesAndWhatFired() {
        Aim start = new Aim(new TreeMap<>(Map.of("n1", "follower", "n2", "leader")),
                List.of(new Aim.Choice("node", List.of("n2"), null)));
        List<NemesisDriver.Action> actions = List.of(
                new NemesisDriver.Action(2010, "start", "kill-random", killed("n2", start), null, 2000),
                new NemesisDriver.Action(4100, "trigger", "kill-random",
                        new FaultRecord("kill-random", "fired on DIFF", List.of(), List.of(), new TreeMap<>()), null,
                        4100),
                new NemesisDriver.Action(5050, "stop", "kill-random", FaultRecord.process("restart", "restart",
                        List.of("n2")), null, 5000),
                new NemesisDriver.Action(7001, "start", "kill-leader", null, "no node leads now", 7000),
                new NemesisDriver.Action(9000, "final-heal", "all", FaultRecord.process("heal", "heal", List.of()),
                        null, 8990));
        FaultSchedule s = FaultSchedule.executed("mixed", actions);
        assertThat(s.nemesis()).isEqualTo("mixed");
        assertThat(s.targets()).as("the default").isEqualTo(Aim.Targets.ROLE);
        assertThat(s.faults()).hasSize(2);
        FaultSchedule.Window w = s.faults().get(0);
        assertThat(w).extracting(FaultSchedule.Window::fault, FaultSchedule.Window::startMillis,
                FaultSchedule.Window::endMillis).containsExactly("kill-random", 2000L, 5000L);
        assertThat(w.nodes()).containsExactly("n2");
        assertThat(w.roles()).containsExactly(Map.entry("n2", "leader"));
        assertThat(w.start()).isEqualTo(start);
        assertThat(w.fired()).containsExactly("fired on DIFF");
        assertThat(w.stopTookMillis()).as("the stop began at 5000 and was done at 5050").isEqualTo(50);
        FaultSchedule.Window unended = s.faults().get(1);
        assertThat(unended.endMillis()).isEqualTo(FaultSchedule.AT_FINAL_HEAL);
        assertThat(unended.error()).isEqualTo("no node leads now");
        assertThat(s.lastMillis()).isEqualTo(7000);
    }

    @Test
    void itsGeneratorStartsAndStopsEachFaultAtItsTimesWithItsAims() {
        Aim aim = new Aim(null, List.of(new Aim.Choice("node", List.of("n3"), null)));
        FaultSchedule s = new FaultSchedule("mixed", Aim.Targets.NAME, List.of(
                new FaultSchedule.Window("kill-random", 1000, 3000, null, null, null, aim, null, null, null, 0),
                FaultSchedule.Window.of("halves", 3000, FaultSchedule.AT_FINAL_HEAL)));
        List<Gens.Timed<FaultOp>> ops = Gens.preview(s.gen(), 0, 10);
        assertThat(ops).extracting(Gens.Timed::atNanos).containsExactly(1_000_000_000L, 3_000_000_000L,
                3_000_000_000L);
        assertThat(ops.get(0).value()).isEqualTo(new FaultOp(FaultOp.Kind.START, "kill-random", aim,
                Aim.Targets.NAME));
        assertThat(ops.get(1).value().kind()).as("a stop before the next start").isEqualTo(FaultOp.Kind.STOP);
        assertThat(ops.get(2).value()).isEqualTo(FaultOp.start("halves"));
    }

    @Test
    void overlappingFaultsArePairedByNameAndExecutedAgainOverlapping() {
        List<NemesisDriver.Action> actions = List.of(
                new NemesisDriver.Action(1010, "start", "halves", FaultRecord.process("halves", "cut", List.of("n1")),
                        null, 1000),
                new NemesisDriver.Action(2010, "start", "kill-random", killed("n2", null), null, 2000),
                new NemesisDriver.Action(3000, "trigger", "kill-random",
                        new FaultRecord("kill-random", "fired on DIFF", List.of(), List.of(), new TreeMap<>()), null,
                        3000),
                new NemesisDriver.Action(4010, "stop", "halves", FaultRecord.process("heal", "heal", List.of()),
                        null, 4000),
                new NemesisDriver.Action(5010, "start", "pause-leader", FaultRecord.process("pause-leader", "pause",
                        List.of("n3")), null, 5000),
                new NemesisDriver.Action(6010, "stop", "kill-random", FaultRecord.process("restart", "restart",
                        List.of("n2")), null, 6000),
                new NemesisDriver.Action(9000, "final-heal", "all", FaultRecord.process("heal", "heal", List.of()),
                        null, 8990));
        FaultSchedule s = FaultSchedule.executed("mixed", actions);
        assertThat(s.faults()).extracting(FaultSchedule.Window::fault, FaultSchedule.Window::startMillis,
                FaultSchedule.Window::endMillis).containsExactly(
                org.assertj.core.groups.Tuple.tuple("halves", 1000L, 4000L),
                org.assertj.core.groups.Tuple.tuple("kill-random", 2000L, 6000L),
                org.assertj.core.groups.Tuple.tuple("pause-leader", 5000L, FaultSchedule.AT_FINAL_HEAL));
        assertThat(s.faults().get(1).fired()).containsExactly("fired on DIFF");
        assertThat(s.faults().get(0).fired()).isEmpty();
        // executed again: the same starts and stops, interleaved at their times
        assertThat(Gens.preview(s.gen(), 0, 10)).extracting(t -> t.atNanos() / 1_000_000, t -> t.value().kind()
                + " " + t.value().fault()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(1000L, "START halves"),
                org.assertj.core.groups.Tuple.tuple(2000L, "START kill-random"),
                org.assertj.core.groups.Tuple.tuple(4000L, "STOP halves"),
                org.assertj.core.groups.Tuple.tuple(5000L, "START pause-leader"),
                org.assertj.core.groups.Tuple.tuple(6000L, "STOP kill-random"));
    }

    @Test
    void atOneTimeAFaultThatHeldStopsFirstAndOneHeldForNoTimeStartsFirst() {
        FaultSchedule s = new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves", 0, 2000),
                FaultSchedule.Window.of("kill-leader", 1000, 2000), FaultSchedule.Window.of("bridge", 2000, 2000)));
        assertThat(Gens.preview(s.gen(), 0, 10)).extracting(t -> t.value().kind() + " " + t.value().fault())
                .containsExactly("START halves", "START kill-leader", "STOP halves", "STOP kill-leader",
                        "START bridge", "STOP bridge");
    }

    @Test
    void aScheduleFileReadsBackAsWritten() throws Exception {
        ObjectMapper json = new ObjectMapper();
        FaultSchedule s = new FaultSchedule("kill-random", Aim.Targets.NAME, List.of(new FaultSchedule.Window(
                "kill-random", 1000, 3000, "kill n3", List.of("n3"), new TreeMap<>(Map.of("n3", "leader")),
                new Aim(new TreeMap<>(Map.of("n3", "leader")), List.of(new Aim.Choice("node", List.of("n3"), null),
                        new Aim.Choice("delay-ms", null, 12L))), null, List.of(), null, 40)));
        String text = json.writeValueAsString(s);
        assertThat(text).contains("\"targets\":\"name\"").doesNotContain("\"error\"");
        assertThat(json.readValue(text, FaultSchedule.class)).isEqualTo(s);
        // the least a person writes by hand: times and names
        FaultSchedule hand = json.readValue("{\"nemesis\": \"mixed\", \"faults\": [{\"fault\": \"kill-leader\", "
                + "\"startMillis\": 5000, \"endMillis\": 9000}]}", FaultSchedule.class);
        assertThat(hand.targets()).isEqualTo(Aim.Targets.ROLE);
        assertThat(hand.faults().get(0)).isEqualTo(FaultSchedule.Window.of("kill-leader", 5000, 9000));
        assertThatThrownBy(() -> json.readValue("{\"nemesis\": \"mixed\", \"targets\": \"ip\"}", FaultSchedule.class))
                .hasMessageContaining("targets must be role or name, got 'ip'");
    }

    @Test
    void aScheduleListsItsFaultsInStartOrderAndNeverOneFaultTwiceAtOnce() {
        // faults of different families may overlap (--compose)
        assertThat(new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves", 0, 5000),
                FaultSchedule.Window.of("kill-leader", 4000, FaultSchedule.AT_FINAL_HEAL),
                FaultSchedule.Window.of("halves", 6000, 7000))).faults()).hasSize(3);
        assertThatThrownBy(() -> new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves", 0, 5000),
                FaultSchedule.Window.of("halves", 4000, 6000))))
                .hasMessage("schedule: fault #2 (halves) starts at 4000 ms, before the halves started at 0 ms ends at "
                        + "5000 ms: one fault is not in force twice at once");
        assertThatThrownBy(() -> new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves", 3000,
                4000), FaultSchedule.Window.of("kill-leader", 1000, 2000))))
                .hasMessageContaining("before fault #1 (halves) at 3000 ms: the faults are listed in start order");
        assertThatThrownBy(() -> FaultSchedule.Window.of("halves", 3000, 2000))
                .hasMessage("schedule: fault halves ends at 2000 ms, before it starts at 3000 ms (-1: at the final "
                        + "heal)");
        assertThatThrownBy(() -> FaultSchedule.Window.of("halves", -5, 2000)).hasMessageContaining("starts at -5 ms");
        assertThatThrownBy(() -> new FaultSchedule(" ", null, List.of())).hasMessageContaining("nemesis must name");
    }
}
