package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The nemesis protocol end to end against a recording system: named nemeses, schedules, the driver's history. */
class NemesisDriverTest {

    private static final NemesisTiming TIMING = new NemesisTiming(Duration.ofSeconds(3), Duration.ofSeconds(2),
            Duration.ofSeconds(1));

    @Test
    void everyFaultIsANemesisOfItsOwnAndMixedHasThemAll() {
        assertThat(Nemeses.names()).startsWith("none").endsWith("mixed")
                .containsAll(Faults.all().stream().map(Fault::name).toList());
        assertThat(Nemeses.require("mixed").faults()).isEqualTo(Faults.all());
        assertThat(Nemeses.require("mixed").forStorage(false).faults()).isEqualTo(Faults.all().stream()
                .filter(f -> !f.name().endsWith("-unfsynced") && !f.name().startsWith("disk-")).toList())
                .as("without --lazyfs, everything but the power failures and failing disks that need it")
                .hasSize(Faults.all().size() - 8);
        assertThat(Nemeses.require("none").isNone()).isTrue();
        assertThat(Nemeses.require("none").schedule(TIMING)).isEmpty();
        assertThatThrownBy(() -> Nemeses.require("chaos-monkey"))
                .hasMessageStartingWith("unknown nemesis 'chaos-monkey'; known: none, kill-leader");
        assertThat(Nemeses.require("halves").supports(1)).isFalse();
        assertThat(Nemeses.require("none").supports(1)).isTrue();
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        Gen<FaultOp> mixed = Nemeses.require("mixed").forStorage(false).schedule(TIMING).orElseThrow();
        List<Gens.Timed<FaultOp>> first = Gens.preview(mixed, 42, 40);
        assertThat(Gens.preview(mixed, 42, 40)).hasSize(40).isEqualTo(first);
        assertThat(Gens.preview(mixed, 43, 40)).isNotEqualTo(first);
        // Faults alternate with their heals, 2 s healed then 3 s faulted.
        assertThat(first.get(0).value().kind()).isEqualTo(FaultOp.Kind.START);
        assertThat(first.get(0).atNanos()).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(first.get(1).value()).isEqualTo(FaultOp.stop(first.get(0).value().fault()));
        assertThat(first.get(1).atNanos()).isEqualTo(Duration.ofSeconds(5).toNanos());
        assertThat(first.stream().map(t -> t.value().fault()).distinct().count())
                .as("mixed draws several kinds of fault").isGreaterThan(3);
    }

    @Test
    void aClientPartitionOutlastsTheSessionTimeout() {
        NemesisTiming t = new NemesisTiming(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(4));
        List<Gens.Timed<FaultOp>> ops = Gens.preview(Nemeses.require("client-partition").schedule(t).orElseThrow(),
                1, 2);
        assertThat(ops.get(1).atNanos() - ops.get(0).atNanos()).isEqualTo(Duration.ofSeconds(6).toNanos());
    }

    @Test
    void aNemesisDoesOnlyItsOwnFaults() {
        RecordingSystem s = new RecordingSystem(3);
        Nemesis kill = Nemeses.require("kill-leader").on(s.target(1));
        assertThat(kill.invoke(FaultOp.start("kill-leader")).description()).isEqualTo("kill n2");
        assertThatThrownBy(() -> kill.invoke(FaultOp.start("halves")))
                .hasMessageContaining("does not do fault 'halves'");
        FaultRecord healed = kill.healAll();
        assertThat(healed.nodes()).containsExactly("n2");
        assertThat(s.calls).containsExactly("kill n2", "heal", "start n2");
    }

    @Test
    void theDriverRecordsEachActionWithWhatItDidAndAlwaysHealsAtTheEnd() {
        RecordingSystem s = new RecordingSystem(3);
        InMemoryRecorder recorder = new InMemoryRecorder();
        // One fault 10 ms in, held 10 ms; the main phase outlasts it, then the final heal.
        Gen<FaultOp> once = io.zkchaos.nemesis.schedule.Schedules.once("pause-leader", Duration.ofMillis(10),
                Duration.ofMillis(10));
        try (NemesisDriver driver = new NemesisDriver(Nemeses.require("pause-leader").on(s.target(1)),
                Optional.of(once), 1, recorder, Duration.ofMillis(300))) {
            driver.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> driver.actions().size() == 3);
            assertThat(driver.actions()).extracting(NemesisDriver.Action::step)
                    .containsExactly("start", "stop", "final-heal");
            assertThat(driver.activeFaults()).isEmpty();
        }
        List<Op> ops = recorder.history().ops();
        assertThat(ops).extracting(Op::type).containsExactly(OpType.INVOKE, OpType.INFO, OpType.INVOKE,
                OpType.INFO, OpType.INVOKE, OpType.INFO);
        assertThat(ops).extracting(Op::f).containsExactly("pause-leader", "pause-leader", "heal", "heal", "heal",
                "heal");
        assertThat(((FaultRecord) ops.get(1).value()).description()).isEqualTo("pause n2");
        assertThat(s.calls).containsExactly("pause n2", "resume n2", "heal");
    }

    @Test
    void theActingThreadIsToldWhichFaultItApplies() {
        java.util.concurrent.atomic.AtomicReference<NemesisDriver> self = new java.util.concurrent.atomic
                .AtomicReference<>();
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Fault probe = Fault.of("probe", "asks the driver", Fault.Family.CRASH, t -> {
            seen.add("start " + self.get().acting());
            return FaultRecord.process("probe", "nothing", List.of());
        }, t -> {
            seen.add("stop " + self.get().acting());
            return FaultRecord.process("probe", "nothing", List.of());
        });
        NemesisDriver driver = new NemesisDriver(new NemesisDescriptor("probe", "", List.of(probe))
                .on(new RecordingSystem(3).target(1)), Optional.of(io.zkchaos.nemesis.schedule.Schedules.once(
                "probe", Duration.ofMillis(1), Duration.ofMillis(1))), 1, new InMemoryRecorder(),
                Duration.ofSeconds(60));
        self.set(driver);
        driver.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> driver.actions().size() == 2);
        driver.close();
        assertThat(seen).containsExactly("start probe", "stop probe");
        assertThat(driver.acting()).as("on a thread that applies no fault").isNull();
    }

    @Test
    void anActionThatCannotActIsRecordedWithItsReason() {
        RecordingSystem s = new RecordingSystem(3);
        s.leader = null;
        InMemoryRecorder recorder = new InMemoryRecorder();
        Gen<FaultOp> once = io.zkchaos.nemesis.schedule.Schedules.once("kill-leader", Duration.ofMillis(1),
                Duration.ofSeconds(60));
        NemesisDriver driver = new NemesisDriver(Nemeses.require("kill-leader").on(s.target(1)), Optional.of(once),
                1, recorder, Duration.ofSeconds(60));
        driver.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> driver.actions().size() == 1);
        driver.close(); // before the main phase ends: heals all the same
        assertThat(driver.actions().get(0).error()).contains("no node leads now");
        assertThat(recorder.history().ops().get(1).value()).isEqualTo(Map.of("error",
                driver.actions().get(0).error(), "outcome", NemesisDriver.COULD_NOT_ACT));
        assertThat(driver.actions()).extracting(NemesisDriver.Action::step).containsExactly("start", "final-heal");
    }

    @Test
    void anActionThatBreaksIsRecordedAsFailedNotAsCouldNotAct() {
        Fault broken = Fault.of("broken", "throws", Fault.Family.CRASH, t -> {
            throw new java.io.UncheckedIOException(new java.io.IOException("proxy gone"));
        }, t -> FaultRecord.process("broken", "nothing", List.of()));
        InMemoryRecorder recorder = new InMemoryRecorder();
        NemesisDriver driver = new NemesisDriver(new NemesisDescriptor("broken", "", List.of(broken))
                .on(new RecordingSystem(3).target(1)), Optional.of(
                io.zkchaos.nemesis.schedule.Schedules.once("broken", Duration.ofMillis(1), Duration.ofSeconds(60))),
                1, recorder, Duration.ofSeconds(60));
        driver.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> driver.actions().size() == 1);
        assertThat(driver.activeFaults()).as("a start that did not act is not in force").isEmpty();
        driver.close();
        assertThat(recorder.history().ops().get(1).value()).isEqualTo(Map.of("error",
                "java.io.IOException: proxy gone", "outcome", NemesisDriver.FAILED));
    }

    @Test
    void eachNemesisDeclaresWhatARunUnderItMustHaveExercised() {
        java.util.Set<String> any = java.util.Set.of();
        assertThat(Nemeses.require("none").minimum(Optional.of(any)).requirements()).isEmpty();
        assertThat(Nemeses.require("kill-leader").minimum(Optional.of(any)).ids())
                .containsExactly("fault-applied", "acked-under-fault");
        assertThat(Nemeses.require("kill-leader").minimum(Optional.empty()).ids()).containsExactly("fault-applied");
        // no quorum serves the clients under these: nothing is expected to be acknowledged meanwhile
        for (String n : List.of("kill-majority", "kill-all", "restart-all", "client-partition",
                "kill-all-lose-unfsynced", "kill-all-tear-unfsynced", "majorities-ring")) {
            assertThat(Nemeses.require(n).minimum(Optional.of(any)).ids()).as(n).containsExactly("fault-applied");
        }
        assertThat(Nemeses.require("stall-during-snapshot").minimum(Optional.of(any)).ids())
                .containsExactly("fault-applied", "trigger-fired", "acked-under-fault");
        io.zkchaos.checkers.evidence.Requirement.AcknowledgedUnderFault mixed = Nemeses.require("mixed")
                .minimum(Optional.of(java.util.Set.of("add"))).requirements().stream()
                .filter(r -> r instanceof io.zkchaos.checkers.evidence.Requirement.AcknowledgedUnderFault)
                .map(r -> (io.zkchaos.checkers.evidence.Requirement.AcknowledgedUnderFault) r).findFirst()
                .orElseThrow();
        assertThat(mixed.functions()).containsExactly("add");
        assertThat(mixed.faults()).contains("kill-leader", "isolate-leader", "crash-during-sync")
                .doesNotContain("kill-all", "client-partition", "kill-majority");
    }
}
