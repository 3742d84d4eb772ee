package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.nemesis.partition.Partitions;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Faults record the choices they made ({@link Aim}) and make them again when an operation carries them: the same
 * nodes by name, or by role when the leader has moved; a choice that cannot be made again is drawn from the seed.
 */
class AimedFaultsTest {

    private static FaultRecord start(RecordingSystem s, long seed, FaultOp op) {
        return Nemeses.require(op.fault()).on(s.target(seed)).invoke(op);
    }

    @Test
    void aFaultRecordsItsChoicesAndEveryNodesRoleThen() {
        RecordingSystem s = new RecordingSystem(3);
        s.states.put("n3", NodeState.PAUSED);
        FaultRecord did = start(s, 7, FaultOp.start("kill-random"));
        assertThat(did.aim().roles()).containsEntry("n2", Aim.LEADER).containsEntry("n1", Aim.FOLLOWER)
                .containsEntry("n3", Aim.PAUSED);
        assertThat(did.aim().choices()).containsExactly(new Aim.Choice(Aim.Choice.NODE, did.nodes(), null));
        assertThat(start(s, 7, FaultOp.start("halves")).aim()).as("a fault that chooses nothing").isNull();
    }

    @Test
    void drawsAreTheSeedsAsBeforeSoSeededRunsRepeat() {
        RecordingSystem s = new RecordingSystem(5);
        FaultRecord did = start(s, 11, FaultOp.start("random-halves"));
        assertThat(did.groups()).isEqualTo(FaultRecord.partition("random-halves",
                Partitions.randomHalves(s.nodes, new Random(11))).groups());
        RecordingSystem t = new RecordingSystem(5);
        FaultRecord ring = start(t, 11, FaultOp.start("majorities-ring"));
        assertThat(ring.grudge()).isEqualTo(Partitions.majoritiesRing(t.nodes, new Random(11)).grudge());
    }

    @Test
    void byNameTheSameNodesAreHitWhateverTheSeed() {
        RecordingSystem first = new RecordingSystem(5);
        FaultRecord did = start(first, 1, FaultOp.start("random-halves"));
        for (long seed = 2; seed < 12; seed++) {
            RecordingSystem again = new RecordingSystem(5);
            again.leader = "n4"; // by name, who leads does not matter
            FaultRecord replayed = start(again, seed, new FaultOp(FaultOp.Kind.START, "random-halves", did.aim(),
                    Aim.Targets.NAME));
            assertThat(replayed.groups()).isEqualTo(did.groups());
            assertThat(replayed.aim().choices()).isEqualTo(did.aim().choices());
        }
    }

    @Test
    void byRoleTheLeaderThenIsTheLeaderNowAndTheOthersKeepTheirNames() {
        RecordingSystem first = new RecordingSystem(3); // n2 leads
        FaultRecord killedLeader = start(first, 1, FaultOp.start("kill-leader"));
        assertThat(killedLeader.nodes()).containsExactly("n2");
        FaultRecord random = null;
        for (long seed = 1; random == null || !random.nodes().equals(List.of("n2")); seed++) {
            random = start(new RecordingSystem(3), seed, FaultOp.start("kill-random"));
        }

        RecordingSystem again = new RecordingSystem(3);
        again.leader = "n3";
        assertThat(start(again, 99, new FaultOp(FaultOp.Kind.START, "kill-leader", killedLeader.aim(), null))
                .nodes()).containsExactly("n3");
        RecordingSystem third = new RecordingSystem(3);
        third.leader = "n1";
        assertThat(start(third, 99, new FaultOp(FaultOp.Kind.START, "kill-random", random.aim(), Aim.Targets.ROLE))
                .nodes()).as("a random kill that hit the leader hits the leader").containsExactly("n1");
        RecordingSystem byName = new RecordingSystem(3);
        byName.leader = "n1";
        assertThat(start(byName, 99, new FaultOp(FaultOp.Kind.START, "kill-random", random.aim(), Aim.Targets.NAME))
                .nodes()).containsExactly("n2");

        // an order: the leader's place in a bridge follows the leader, the others stay
        RecordingSystem b = new RecordingSystem(5);
        FaultRecord bridge = start(b, 3, FaultOp.start("bridge"));
        RecordingSystem b2 = new RecordingSystem(5);
        b2.leader = "n5";
        FaultRecord replayed = start(b2, 4, new FaultOp(FaultOp.Kind.START, "bridge", bridge.aim(), null));
        assertThat(replayed.aim().choices().get(0).picked()).isEqualTo(bridge.aim().choices().get(0).picked()
                .stream().map(n -> n.equals("n2") ? "n5" : n.equals("n5") ? "n2" : n).toList());
    }

    @Test
    void aChoiceThatCannotBeMadeAgainIsDrawnFromTheSeed() {
        RecordingSystem first = new RecordingSystem(3);
        FaultRecord paused = start(first, 5, FaultOp.start("pause-random"));
        String node = paused.nodes().get(0);
        RecordingSystem again = new RecordingSystem(3);
        again.states.put(node, NodeState.DOWN);
        FaultRecord replayed = start(again, 5, new FaultOp(FaultOp.Kind.START, "pause-random", paused.aim(),
                Aim.Targets.NAME));
        assertThat(replayed.nodes()).hasSize(1).doesNotContain(node);
        assertThat(replayed.aim().roles()).containsEntry(node, Aim.DOWN);

        // an aim of another fault's choices: each asked choice of another kind ends the plan, drawn from here on
        FaultRecord halves = start(new RecordingSystem(5), 1, FaultOp.start("random-halves"));
        RecordingSystem s = new RecordingSystem(5);
        FaultRecord killed = start(s, 8, new FaultOp(FaultOp.Kind.START, "kill-random", halves.aim(), null));
        assertThat(killed.nodes()).isEqualTo(start(new RecordingSystem(5), 8, FaultOp.start("kill-random")).nodes());
    }

    @Test
    void numbersAndStopsAreRepeatedToo() {
        RecordingSystem s = new RecordingSystem(3);
        Nemesis n = Nemeses.require("restart-random").on(s.target(3));
        FaultRecord did = n.invoke(FaultOp.start("restart-random"));
        Aim.Choice delay = did.aim().choices().stream().filter(c -> c.what().equals("delay-ms")).findFirst()
                .orElseThrow();
        assertThat(delay.number()).isBetween(0L, Faults.RESTART_DELAY_MAX.toMillis());
        RecordingSystem t = new RecordingSystem(3);
        FaultRecord again = Nemeses.require("restart-random").on(t.target(4)).invoke(new FaultOp(FaultOp.Kind.START,
                "restart-random", did.aim(), Aim.Targets.NAME));
        assertThat(again.description()).isEqualTo(did.description());
        assertThat(again.aim().choices()).isEqualTo(did.aim().choices());
    }

    /** Runs {@code gen} until its {@code actions} are done, then closes the driver (the final heal). */
    private static List<NemesisDriver.Action> drive(RecordingSystem nodes, long seed,
                                                    io.zkchaos.checkers.gen.Gen<FaultOp> gen, int actions) {
        NemesisDriver driver = new NemesisDriver(Nemeses.require("mixed").forStorage(false).on(nodes.target(seed)),
                java.util.Optional.of(gen), seed, new io.zkchaos.checkers.history.InMemoryRecorder(),
                java.time.Duration.ofSeconds(60));
        driver.start();
        org.awaitility.Awaitility.await("the schedule's actions").atMost(java.time.Duration.ofSeconds(30))
                .until(() -> driver.actions().size() >= actions);
        driver.close();
        return driver.actions();
    }

    @Test
    void aDriverExecutingAnExecutedScheduleDoesTheSameActionsOnTheSameNodesNoSoonerThanPlanned() {
        FaultSchedule seeded = new FaultSchedule("mixed", null, List.of(
                FaultSchedule.Window.of("kill-random", 10, 30), FaultSchedule.Window.of("random-halves", 40, 60),
                FaultSchedule.Window.of("pause-random", 70, 90), FaultSchedule.Window.of("kill-leader", 100, 120)));
        FaultSchedule executed = FaultSchedule.executed("mixed", drive(new RecordingSystem(5), 3, seeded.gen(), 8));
        assertThat(executed.faults()).extracting(FaultSchedule.Window::fault)
                .containsExactly("kill-random", "random-halves", "pause-random", "kill-leader");

        RecordingSystem again = new RecordingSystem(5);
        again.leader = "n1"; // by name: who leads does not matter
        FaultSchedule replayed = FaultSchedule.executed("mixed", drive(again, 99,
                executed.withTargets(Aim.Targets.NAME).gen(), 8));
        assertThat(replayed.faults()).extracting(FaultSchedule.Window::fault, FaultSchedule.Window::nodes)
                .isEqualTo(executed.faults().stream().map(w -> org.assertj.core.groups.Tuple.tuple(w.fault(),
                        w.nodes())).toList());
        assertThat(replayed.faults().get(1).start().choices()).isEqualTo(executed.faults().get(1).start().choices());
        for (int i = 0; i < executed.faults().size(); i++) {
            assertThat(replayed.faults().get(i).startMillis()).as("never sooner than planned")
                    .isGreaterThanOrEqualTo(executed.faults().get(i).startMillis());
        }
    }
}
