package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.nemesis.faults.ClientFaults;
import io.zkchaos.nemesis.faults.ClockFaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The faults on client processes, against recording clients (the real processes, signals and histories are covered
 * by ClientProcessesIT and ClientPauseFencingChaosIT in the harness): what they aim at, what they record, and when a nemesis
 * offers them.
 */
class ClientFaultsTest {

    /** Client processes that record what they were told; p4 leads. */
    static final class RecordingClients implements ClientControl {
        final Map<String, NodeState> states = new LinkedHashMap<>();
        final List<String> calls = new ArrayList<>();
        String leader = "p4";

        RecordingClients(String... names) {
            for (String n : names) {
                states.put(n, NodeState.RUNNING);
            }
        }

        @Override
        public List<String> clients() {
            return List.copyOf(states.keySet());
        }

        @Override
        public NodeState state(String client) {
            return states.get(client);
        }

        @Override
        public Optional<String> leader() {
            return Optional.ofNullable(leader);
        }

        @Override
        public void pause(String client) {
            calls.add("pause " + client);
            states.put(client, NodeState.PAUSED);
        }

        @Override
        public void resume(String client) {
            calls.add("resume " + client);
            states.put(client, NodeState.RUNNING);
        }

        @Override
        public void kill(String client) {
            calls.add("kill " + client);
            states.remove(client);
        }

        /** Recorded as {@code clocks {p3=+1.500 s, p4=...}}: one call, one entry. */
        @Override
        public void setClockOffsets(Map<String, Duration> offsets) {
            Map<String, String> set = new java.util.TreeMap<>();
            offsets.forEach((c, d) -> set.put(c, ClockFaults.offsetText(d)));
            calls.add("clocks " + set);
            offsets.forEach((c, d) -> {
                if (d.isZero()) {
                    clockOffsets.remove(c);
                } else {
                    clockOffsets.put(c, d);
                }
            });
        }

        final Map<String, Duration> clockOffsets = new LinkedHashMap<>();

        @Override
        public Map<String, Duration> clockOffsets() {
            return Map.copyOf(clockOffsets);
        }
    }

    private static NemesisTarget target(RecordingClients clients, long seed) {
        return new RecordingSystem(3).target(seed).withClients(clients);
    }

    @Test
    void pauseLeaderClientFreezesTheClientThatLeadsAndTheHealResumesIt() {
        RecordingClients clients = new RecordingClients("p3", "p4", "p5");
        Fault pause = Faults.byName("pause-leader-client").orElseThrow();
        FaultRecord did = pause.start(target(clients, 1));
        assertThat(did).isEqualTo(FaultRecord.process("pause-leader-client", "pause client", List.of("p4")));
        assertThat(did.description()).isEqualTo("pause client p4");
        assertThat(clients.states).containsEntry("p4", NodeState.PAUSED).containsEntry("p3", NodeState.RUNNING);
        FaultRecord healed = pause.stop(target(clients, 1));
        assertThat(healed.fault()).isEqualTo("resume-clients");
        assertThat(healed.nodes()).containsExactly("p4");
        assertThat(clients.calls).containsExactly("pause p4", "resume p4");
    }

    @Test
    void pauseRandomClientRepeatsWithTheSeedAndPicksOnlyRunningClients() {
        List<String> first = new ArrayList<>();
        List<String> again = new ArrayList<>();
        for (List<String> picks : List.of(first, again)) {
            RecordingClients clients = new RecordingClients("p0", "p1", "p2", "p3", "p4");
            NemesisTarget t = target(clients, 9);
            for (int i = 0; i < 5; i++) {
                picks.addAll(new ClientFaults(t, "pause-random-client").pauseRandomClient().nodes());
            }
        }
        assertThat(first).isEqualTo(again).doesNotHaveDuplicates().hasSize(5);
        RecordingClients allPaused = new RecordingClients("p0");
        allPaused.states.put("p0", NodeState.PAUSED);
        assertThatThrownBy(() -> new ClientFaults(target(allPaused, 1), "pause-random-client").pauseRandomClient())
                .hasMessage("no client process is running");
    }

    @Test
    void killLeaderClientKillsItAndItsHealHasNothingToUndo() {
        RecordingClients clients = new RecordingClients("p3", "p4");
        Fault kill = Faults.byName("kill-leader-client").orElseThrow();
        assertThat(kill.start(target(clients, 1)).description()).isEqualTo("kill client p4");
        assertThat(kill.stop(target(clients, 1)).nodes()).isEmpty();
        assertThat(clients.calls).containsExactly("kill p4");
    }

    @Test
    void theFaultsAimedAtTheLeadingClientSaySoAsATrait() {
        assertThat(Faults.all().stream().filter(f -> f.is(Fault.Trait.ON_LEADING_CLIENT)).map(Fault::name))
                .containsExactlyInAnyOrder("pause-leader-client", "kill-leader-client");
        assertThat(Faults.all().stream().filter(f -> f.is(Fault.Trait.ON_LEADING_CLIENT)))
                .allMatch(f -> f.is(Fault.Trait.ON_CLIENTS));
    }

    @Test
    void withoutALeadingClientTheLeaderFaultsSaySo() {
        RecordingClients clients = new RecordingClients("p3");
        clients.leader = null;
        assertThatThrownBy(() -> new ClientFaults(target(clients, 1), "pause-leader-client").pauseLeaderClient())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no client process leads now");
    }

    @Test
    void healAllResumesPausedClientsAndNamesThem() {
        RecordingClients clients = new RecordingClients("p3", "p4");
        NemesisTarget t = target(clients, 1);
        Nemesis n = Nemeses.require("pause-leader-client").on(t);
        n.invoke(FaultOp.start("pause-leader-client"));
        FaultRecord healed = n.healAll();
        assertThat(healed.nodes()).containsExactly("p4");
        assertThat(clients.states).containsEntry("p4", NodeState.RUNNING);
    }

    @Test
    void aClientClockSkewMovesEveryRunningClientInOneCallAndItsStopResetsOnlyTheClients() {
        RecordingClients clients = new RecordingClients("p3", "p4", "p5");
        clients.states.put("p5", NodeState.PAUSED);
        RecordingSystem servers = new RecordingSystem(3);
        NemesisTarget t = servers.target(1).withClients(clients);
        new ClockFaults(t, "clock-skew").skewClocks(Duration.ofMinutes(1)); // a server clock fault in force at the same time
        Fault skew = Faults.byName("client-clock-skew").orElseThrow();
        FaultRecord did = skew.start(t);
        assertThat(did.nodes()).containsExactly("p3", "p4");
        assertThat(did.description()).startsWith("skew the clock of client p3 ");
        assertThat(clients.calls).singleElement().asString().startsWith("clocks {p3=").contains(", p4=");
        assertThat(clients.clockOffsets.values()).allSatisfy(d -> assertThat(d.abs())
                .isLessThanOrEqualTo(Duration.ofMinutes(1)));
        assertThat(skew.start(target(new RecordingClients("p3", "p4", "p5"), 1)).description())
                .as("a seed repeats itself").isEqualTo(skew.start(target(new RecordingClients("p3", "p4", "p5"), 1))
                        .description());

        FaultRecord stop = skew.stop(t);
        assertThat(stop).isEqualTo(FaultRecord.process("client-clock-reset", "reset the clock of client",
                List.of("p3", "p4")));
        assertThat(clients.clockOffsets).isEmpty();
        assertThat(servers.clockOffsets()).as("the servers' clocks are not the client fault's to reset")
                .hasSize(3);
        assertThat(Faults.byName("clock-skew").orElseThrow().stop(t).nodes()).containsExactly("n1", "n2", "n3");
        assertThat(clients.calls).hasSize(2);
    }

    @Test
    void aClientClockBumpMovesOneClientEitherWayAndTheFinalHealResetsIt() {
        List<Long> seen = new ArrayList<>();
        for (long seed = 0; seed < 20; seed++) {
            RecordingClients clients = new RecordingClients("p3", "p4", "p5");
            FaultRecord did = Faults.byName("client-clock-bump").orElseThrow().start(target(clients, seed));
            assertThat(did.nodes()).hasSize(1);
            Duration d = clients.clockOffsets.get(did.nodes().get(0));
            assertThat(d.abs()).isBetween(Duration.ofSeconds(1), Duration.ofMinutes(10));
            seen.add(d.toMillis());
            if (seed == 0) {
                FaultRecord heal = Nemeses.require("client-clock-bump").on(target(clients, 1)).healAll();
                assertThat(clients.clockOffsets).isEmpty();
                assertThat(heal.description()).contains("reset the clock of client " + did.nodes().get(0));
            }
        }
        assertThat(seen).anyMatch(ms -> ms > 0).anyMatch(ms -> ms < 0);
    }

    @Test
    void clientClockFaultsAreClientFaultsThatMoveClientClocks() {
        for (String name : List.of("client-clock-skew", "client-clock-bump")) {
            Fault f = Faults.byName(name).orElseThrow();
            assertThat(f.family()).as(name).isEqualTo(Fault.Family.CLIENT);
            assertThat(f.needsClientProcesses()).as(name).isTrue();
            assertThat(Nemeses.require(name).movesClientClocks()).as(name).isTrue();
            assertThat(Nemeses.require(name).movesClocks()).as(name + " moves no server's clock").isFalse();
        }
        assertThatThrownBy(() -> new ClientFaults(new RecordingSystem(3).target(1), "client-clock-skew").skewClientClocks(
                Duration.ofMinutes(1))).hasMessageContaining("no client process is running");
        assertThatThrownBy(() -> ClientControl.NONE.setClockOffsets(Map.of("p1", Duration.ofSeconds(1))))
                .hasMessageContaining("clients run as threads of the harness");
    }

    @Test
    void withClientsAsThreadsHealAllHasNoClientToResumeAndAClientFaultSaysWhy() {
        NemesisTarget t = new RecordingSystem(3).target(1);
        assertThat(t.clients()).isSameAs(ClientControl.NONE);
        assertThat(Nemeses.require("mixed").on(t).healAll().nodes()).isEmpty();
        assertThatThrownBy(() -> ClientControl.NONE.pause("p1"))
                .hasMessageContaining("clients run as threads of the harness");
    }

    @Test
    void clientFaultsAreOfferedOnlyWhenClientsAreProcesses() {
        NemesisDescriptor mixed = Nemeses.require("mixed");
        assertThat(mixed.forClients(true)).isSameAs(mixed);
        assertThat(mixed.forClients(false).faults()).isNotEmpty().noneMatch(Fault::needsClientProcesses);
        assertThat(mixed.faults()).filteredOn(Fault::needsClientProcesses).extracting(Fault::name)
                .containsExactly("pause-leader-client", "pause-random-client", "kill-leader-client",
                        "client-clock-skew", "client-clock-bump");
        assertThat(Nemeses.require("kill-leader").forClients(false)).isSameAs(Nemeses.require("kill-leader"));
        assertThatThrownBy(() -> Nemeses.require("pause-leader-client").forClients(false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("nemesis 'pause-leader-client' acts on client processes, but the clients run as threads "
                        + "of the harness: run them as processes (--clients process)");
        assertThat(Nemeses.require("pause-leader-client").supports(1)).isTrue();
    }

    @Test
    void aClientPauseOutlastsTwoSessionTimeouts() {
        NemesisTiming t = new NemesisTiming(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(4));
        NemesisDescriptor pause = Nemeses.require("pause-leader-client");
        assertThat(pause.hold(t)).isEqualTo(Duration.ofSeconds(8));
        List<Gens.Timed<FaultOp>> ops = Gens.preview(pause.schedule(t).orElseThrow(), 1, 2);
        assertThat(ops.get(1).atNanos() - ops.get(0).atNanos()).isEqualTo(Duration.ofSeconds(8).toNanos());
        assertThat(Nemeses.require("kill-leader-client").hold(t)).isEqualTo(Duration.ofSeconds(1));
    }
}
