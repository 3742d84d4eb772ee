package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.InMemoryRecorder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A system that implements {@link NodeControl} and none of the optional controls ({@link ServingWait},
 * {@link PowerFailure}, {@link DataReplacement}, {@link DiskControl}, {@link ClockControl}): every fault that needs one
 * cannot act, says which system cannot do what to which node, and has done nothing; the heal never asks it for what it
 * lacks.
 */
class OptionalControlsTest {

    /** Processes only: a {@link RecordingSystem}'s nodes seen through nothing but {@link NodeControl}. */
    static final class ProcessesOnly implements NodeControl {
        final RecordingSystem s = new RecordingSystem(3);

        @Override
        public List<String> nodes() {
            return s.nodes();
        }

        @Override
        public NodeState state(String node) {
            return s.state(node);
        }

        @Override
        public Optional<String> leader() {
            return s.leader();
        }

        @Override
        public void start(String node) {
            s.start(node);
        }

        @Override
        public void kill(String node) {
            s.kill(node);
        }

        @Override
        public void pause(String node) {
            s.pause(node);
        }

        @Override
        public void resume(String node) {
            s.resume(node);
        }

        NemesisTarget target() {
            return new NemesisTarget(this, s.links(), new Random(1));
        }
    }

    @Test
    void aFaultWhoseControlTheSystemLacksCannotActAndSaysWhatItCannotDo() {
        Map<String, String> cannot = Map.of(
                "kill-all-lose-unfsynced", "ProcessesOnly cannot drop n1's unsynced writes: its data is not on a "
                        + "file system that holds writes until fsync",
                "kill-all-tear-unfsynced", "ProcessesOnly cannot tear n1's unsynced writes: its data is not on a "
                        + "file system that holds writes until fsync",
                "clock-skew", "ProcessesOnly cannot move n1's clock");
        cannot.forEach((fault, why) -> {
            ProcessesOnly p = new ProcessesOnly();
            assertThatThrownBy(() -> Faults.byName(fault).orElseThrow().start(p.target())).as(fault)
                    .isInstanceOf(IllegalStateException.class).hasMessage(why);
            assertThat(p.s.calls).as(fault + " did nothing").isEmpty();
        });
        for (String fault : List.of("replace-disk", "disk-eio-fsync", "disk-full", "clock-bump", "clock-strobe")) {
            ProcessesOnly p = new ProcessesOnly();
            assertThatThrownBy(() -> Faults.byName(fault).orElseThrow().start(p.target())).as(fault)
                    .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("ProcessesOnly cannot ")
                    .hasMessageMatching(".*n[123]'s (data directory|disk fail|clock).*");
            assertThat(p.s.calls).as(fault + " did nothing").isEmpty();
        }
    }

    @Test
    void aRollWaitsForServingOnlyWhereTheSystemCanTell() {
        ProcessesOnly p = new ProcessesOnly();
        assertThatThrownBy(() -> Faults.byName("rolling-restart").orElseThrow().start(p.target()))
                .isInstanceOf(IllegalStateException.class).hasMessageMatching("ProcessesOnly cannot tell whether "
                        + "n[123] serves");
    }

    @Test
    void theDriverRecordsItAsCouldNotActAndTheHealAsksNothingTheSystemLacks() {
        ProcessesOnly p = new ProcessesOnly();
        InMemoryRecorder recorder = new InMemoryRecorder();
        NemesisDriver driver = new NemesisDriver(Nemeses.require("kill-all-lose-unfsynced").on(p.target()),
                Optional.of(io.zkchaos.nemesis.schedule.Schedules.once("kill-all-lose-unfsynced",
                        Duration.ofMillis(1), Duration.ofSeconds(60))), 1, recorder, Duration.ofSeconds(60));
        driver.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> driver.actions().size() == 1);
        driver.close();
        assertThat(recorder.history().ops().get(1).value()).isEqualTo(Map.of("error", "ProcessesOnly cannot drop "
                + "n1's unsynced writes: its data is not on a file system that holds writes until fsync", "outcome",
                NemesisDriver.COULD_NOT_ACT));
        FaultRecord heal = driver.actions().get(1).did();
        assertThat(heal.description()).doesNotContain("disk").doesNotContain("clock");
        assertThat(p.s.calls).containsExactly("heal");
    }
}
