package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.nemesis.faults.CrashFaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Compound faults against an in-memory system that records every signal: the two faults that crash several times
 * at once ({@code crash-subset}, {@code crash-restart-crash}), each stop undoing only its own family's harm, the
 * {@code --compose} check, and a driver holding several faults at once in its history.
 */
class CompoundFaultsTest {

    private static final Duration RESTART = Duration.ofMillis(5);

    @Test
    void aSubsetCrashesTogetherAndAllButOneComeBack() {
        Set<Integer> sizes = new HashSet<>();
        for (long seed = 0; seed < 30; seed++) {
            RecordingSystem s = new RecordingSystem(5);
            FaultRecord r = new CrashFaults(s.target(seed), "crash-subset").crashSubsetLeaveOne(RESTART);
            List<String> killed = s.calls.stream().filter(c -> c.startsWith("kill ")).map(c -> c.substring(5))
                    .toList();
            List<String> started = s.calls.stream().filter(c -> c.startsWith("start ")).map(c -> c.substring(6))
                    .toList();
            assertThat(killed).hasSizeGreaterThanOrEqualTo(2).doesNotHaveDuplicates();
            assertThat(s.calls.subList(0, killed.size())).as("every kill before any start").allMatch(c ->
                    c.startsWith("kill "));
            assertThat(started).hasSize(killed.size() - 1);
            assertThat(killed).containsAll(started);
            List<String> down = new ArrayList<>(killed);
            down.removeAll(started);
            assertThat(down).hasSize(1);
            assertThat(s.state(down.get(0))).isEqualTo(NodeState.DOWN);
            assertThat(r.nodes()).containsExactlyInAnyOrderElementsOf(killed);
            assertThat(r.description()).endsWith(down.get(0) + " stays down until the heal");
            sizes.add(killed.size());
            // the stop brings the last one back
            Faults.byName("crash-subset").orElseThrow().stop(s.target(seed));
            assertThat(s.calls.get(s.calls.size() - 1)).isEqualTo("start " + down.get(0));
        }
        assertThat(sizes).as("subsets of 2 to 5 nodes").contains(2, 5).hasSizeGreaterThan(2);
        // the same seed, the same subset and the same node left down
        RecordingSystem a = new RecordingSystem(5);
        RecordingSystem b = new RecordingSystem(5);
        new CrashFaults(a.target(9), "crash-subset").crashSubsetLeaveOne(RESTART);
        new CrashFaults(b.target(9), "crash-subset").crashSubsetLeaveOne(RESTART);
        assertThat(a.calls).isEqualTo(b.calls);
    }

    @Test
    void aSubsetCrashNeedsTwoRunningNodes() {
        RecordingSystem s = new RecordingSystem(3);
        s.kill("n1");
        s.kill("n2");
        assertThatThrownBy(() -> new CrashFaults(s.target(1), "crash-subset").crashSubsetLeaveOne(RESTART))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("at least two running nodes");
    }

    @Test
    void aNodeCrashesRestartsAndCrashesAgainWhileItRejoins() {
        Map<String, Integer> victims = new HashMap<>();
        for (long seed = 0; seed < 20; seed++) {
            RecordingSystem s = new RecordingSystem(3);
            FaultRecord r = new CrashFaults(s.target(seed), "crash-restart-crash").crashRestartCrash(RESTART, Duration.ofMillis(1),
                    Duration.ofMillis(20));
            String node = r.nodes().get(0);
            assertThat(s.calls).containsExactly("kill " + node, "start " + node, "kill " + node);
            assertThat(s.state(node)).isEqualTo(NodeState.DOWN);
            assertThat(r.description()).matches("kill " + node + "; restart it on its data after \\d+ ms; kill it "
                    + "again (\\d+) ms after it started; it stays down until the heal");
            long again = Long.parseLong(r.description().replaceAll(".*kill it again (\\d+) ms.*", "$1"));
            assertThat(again).isBetween(1L, 20L);
            victims.merge(node, 1, Integer::sum);
            Faults.byName("crash-restart-crash").orElseThrow().stop(s.target(seed));
            assertThat(s.state(node)).isEqualTo(NodeState.RUNNING);
        }
        assertThat(victims).as("a random node, not always the same").hasSizeGreaterThan(1);
    }

    /** What each family's stop may do to the system: its own kind of undoing only. */
    private static final Map<Fault.Family, List<String>> UNDOES = Map.of(
            Fault.Family.NETWORK, List.of("heal", "heal-client "),
            Fault.Family.CRASH, List.of("kill ", "start ", "serves ", "failed start "),
            Fault.Family.PAUSE, List.of("resume "),
            Fault.Family.CLOCK, List.of("clock "));

    @Test
    void eachStopUndoesOnlyItsOwnFamilysHarmAndTheFinalHealUndoesEverything() {
        // one fault of every other family in force, then a fault of each kind of stop (heal, restartDown, catchUp,
        // resumeAll, resetClocks) started and stopped among them; the faults on clients and at protocol moments need
        // what a recording system has not
        Map<Fault.Family, String> others = Map.of(Fault.Family.NETWORK, "halves", Fault.Family.CRASH, "kill-random",
                Fault.Family.PAUSE, "pause-random", Fault.Family.CLOCK, "clock-bump");
        for (String name : List.of("isolate-leader", "client-partition", "kill-majority", "crash-subset",
                "lagging-follower", "pause-leader", "clock-skew")) {
            Fault f = Faults.byName(name).orElseThrow();
            RecordingSystem s = new RecordingSystem(5);
            NemesisTarget t = s.target(3);
            for (Map.Entry<Fault.Family, String> o : others.entrySet()) {
                if (o.getKey() != f.family()) {
                    Faults.byName(o.getValue()).orElseThrow().start(t);
                }
            }
            f.start(t);
            int before = s.calls.size();
            f.stop(t);
            assertThat(s.calls.subList(before, s.calls.size())).as("%s's stop", f.name())
                    .allMatch(c -> UNDOES.get(f.family()).stream().anyMatch(c::startsWith));
            Set<Fault.Family> harmed = harm(s);
            assertThat(harmed).as("after %s's stop", f.name()).doesNotContain(f.family());
            FaultRecord healed = Nemeses.require("mixed").on(t).healAll();
            assertThat(harm(s)).as("after the final heal (%s)", healed.description()).isEmpty();
        }
    }

    /** The families whose harm is in force: links cut, nodes down or paused, clocks moved. */
    private static Set<Fault.Family> harm(RecordingSystem s) {
        Set<Fault.Family> h = new HashSet<>();
        if (!s.grudge.isEmpty()) {
            h.add(Fault.Family.NETWORK);
        }
        s.nodes().forEach(n -> {
            if (s.state(n) == NodeState.DOWN) {
                h.add(Fault.Family.CRASH);
            } else if (s.state(n) == NodeState.PAUSED) {
                h.add(Fault.Family.PAUSE);
            }
        });
        if (!s.clockOffsets().isEmpty()) {
            h.add(Fault.Family.CLOCK);
        }
        return h;
    }

    @Test
    void composeIsAtLeastOneAndAtMostTheFamiliesOfTheNemesis() {
        // without --lazyfs, every family but the disks' (their faults need it); with it, all of them
        NemesisDescriptor mixed = Nemeses.require("mixed").forStorage(false);
        assertThat(mixed.families()).containsExactlyElementsOf(java.util.Arrays.stream(Fault.Family.values())
                .filter(f -> f != Fault.Family.DISK).toList());
        assertThat(Nemeses.require("mixed").forStorage(true).families()).containsExactly(Fault.Family.values());
        mixed.requireCompose(5);
        assertThatThrownBy(() -> mixed.forClients(false).requireCompose(5))
                .hasMessage("--compose 5 asks for up to 5 faults at once, each of another family, but nemesis "
                        + "'mixed' has faults of 4 families (network, crash, pause, clock) on this run");
        assertThatThrownBy(() -> mixed.requireCompose(0)).hasMessageContaining("--compose must be at least 1");
        assertThatThrownBy(() -> Nemeses.require("kill-leader").requireCompose(2))
                .hasMessageContaining("has faults of 1 family (crash)");
        Nemeses.require("kill-leader").requireCompose(1);
        Nemeses.require("none").requireCompose(1);
        assertThat(Faults.byName("crash-subset").orElseThrow().family()).isEqualTo(Fault.Family.CRASH);
        assertThat(mixed.faults()).extracting(Fault::name).contains("crash-subset", "crash-restart-crash");
    }

    @Test
    void aScheduleThatOverlapsTwoFaultsOfOneFamilyIsRefused() {
        NemesisDescriptor mixed = Nemeses.require("mixed");
        io.zkchaos.nemesis.schedule.FaultSchedule ok = new io.zkchaos.nemesis.schedule.FaultSchedule("mixed", null,
                List.of(io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("halves", 0, 5000),
                        io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("kill-leader", 1000, 6000),
                        io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("bridge", 5000, 7000)));
        mixed.requireFamiliesApart(ok);
        assertThatThrownBy(() -> mixed.requireFamiliesApart(ok.withFaults(List.of(
                io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("halves", 0, 5000),
                io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("bridge", 4000, 7000)))))
                .hasMessage("schedule: bridge at 4000 ms starts while halves (from 0 ms) holds; both are network "
                        + "faults, and a stop undoes its whole family's harm: faults of one family never overlap");
    }

    @Test
    void aComposedNemesisHoldsSeveralFaultsAtOnceInItsHistory() {
        NemesisDescriptor mixed = Nemeses.require("mixed").forClients(false);
        NemesisTiming timing = new NemesisTiming(Duration.ofMillis(150), Duration.ofMillis(50),
                Duration.ofMillis(10));
        InMemoryRecorder recorder = new InMemoryRecorder();
        RecordingSystem s = new RecordingSystem(5);
        try (NemesisDriver driver = new NemesisDriver(mixed.on(s.target(1)), mixed.schedule(timing, 3), 1, recorder,
                Duration.ofSeconds(2))) {
            driver.start();
            await("the final heal").atMost(Duration.ofSeconds(30)).until(() -> driver.actions().stream()
                    .anyMatch(a -> a.step().equals("final-heal")));
        }
        // the history: each start an invoke of its name, each stop a heal whose invoke names it
        Map<String, Fault.Family> open = new HashMap<>();
        int most = 0;
        for (Op op : recorder.history().nemesisOps()) {
            if (op.type() != OpType.INVOKE || "trigger".equals(op.f())) {
                continue;
            }
            if ("heal".equals(op.f())) {
                if ("all".equals(op.value())) {
                    open.clear();
                } else {
                    assertThat(open).containsKey((String) op.value());
                    open.remove((String) op.value());
                }
                continue;
            }
            Fault.Family family = Faults.byName(op.f()).orElseThrow().family();
            assertThat(open.values()).as("%s starts while %s hold", op.f(), open.keySet()).doesNotContain(family);
            open.put(op.f(), family);
            most = Math.max(most, open.size());
            assertThat(open).hasSizeLessThanOrEqualTo(3);
        }
        assertThat(most).as("faults overlap in the history").isGreaterThan(1);
        assertThat(harm(s)).isEmpty();
    }
}
