package io.zkchaos.checkers.servers;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class FaultWindowsTest {

    private static final Duration GRACE = Duration.ofSeconds(10);
    /** As the nemesis declares them, in small: client faults act on no server. */
    static final Function<String, FaultExcuses> DECLARED = name -> name.endsWith("-client")
            ? FaultExcuses.ON_CLIENTS_ONLY
            : name.startsWith("kill") || name.startsWith("crash")
            ? FaultExcuses.onServers(GRACE, ServerBehaviour.EXIT, ServerBehaviour.REJOIN)
            : FaultExcuses.onServers(GRACE, ServerBehaviour.REJOIN, ServerBehaviour.STALL);

    static Map<String, Object> record(String fault, List<String> nodes) {
        return map("fault", fault, "description", fault, "nodes", nodes, "groups", List.of(), "grudge", Map.of());
    }

    static Map<String, Object> partition(String fault, Map<String, List<String>> grudge) {
        List<String> nodes = grudge.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey)
                .toList();
        return map("fault", fault, "description", fault, "nodes", nodes, "groups", List.of(),
                "grudge", new TreeMap<>(grudge));
    }

    @Test
    void aKillsWindowRunsFromItsInvokeToItsHealsCompletion() {
        History h = new HistoryBuilder()
                .nemesis("kill-leader", record("kill-leader", List.of("n3")), 1000, 1040)
                .heal("kill-leader", record("restart", List.of("n3")), 4000, 4010)
                .build();
        List<FaultWindow> w = FaultWindows.from(h, DECLARED);
        assertThat(w).containsExactly(new FaultWindow("kill-leader", List.of("n3"), 1_000_000_000L, 4_010_000_000L,
                Set.of(ServerBehaviour.EXIT, ServerBehaviour.REJOIN), GRACE.toNanos()));
        assertThat(w.get(0).actsOn("n3", 1_020_000_000L)).as("acts while its start runs").isTrue();
        assertThat(w.get(0).actsOn("n1", 2_000_000_000L)).isFalse();
    }

    @Test
    void aStartThatCouldNotActOpensNoWindowAndOneNeverHealedLastsToTheEnd() {
        History h = new HistoryBuilder()
                .nemesis("kill-leader", map("error", "no leader", "outcome", "could-not-act"), 1000, 1001)
                .nemesis("pause-random", record("pause-random", List.of("n2")), 2000, 2010)
                .build();
        List<FaultWindow> w = FaultWindows.from(h, DECLARED);
        assertThat(w).hasSize(1);
        assertThat(w.get(0).fault()).isEqualTo("pause-random");
        assertThat(w.get(0).endNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aPartitionActsOnTheNodesOutsideTheLargestGroupThatHearsItselfBothWays() {
        // n1 cut off both ways from n2, n3: n1 alone is cut off, the majority is not acted on
        History halves = new HistoryBuilder()
                .nemesis("halves", partition("halves", Map.of("n1", List.of("n2", "n3"), "n2", List.of("n1"),
                        "n3", List.of("n1"))), 1000, 1010)
                .heal("halves", partition("heal", Map.of("n1", List.of(), "n2", List.of(), "n3", List.of())),
                        2000, 2010)
                .build();
        assertThat(FaultWindows.from(halves, DECLARED).get(0).nodes()).containsExactly("n1");
        // a one-way cut is a cut: n2 does not hear n3 (n3 hears n2): the largest group is {n1, n2} or {n1, n3}
        History oneWay = new HistoryBuilder()
                .nemesis("isolate", partition("isolate", Map.of("n1", List.of(), "n2", List.of("n3"),
                        "n3", List.of())), 1000, 1010)
                .build();
        assertThat(FaultWindows.from(oneWay, DECLARED).get(0).nodes()).containsExactly("n2", "n3");
        // a ring of three: every pair cut one way, no group of two: every node is cut off
        History ring = new HistoryBuilder()
                .nemesis("majorities-ring", partition("majorities-ring", Map.of("n1", List.of("n3"),
                        "n2", List.of("n1"), "n3", List.of("n2"))), 1000, 1010)
                .build();
        assertThat(FaultWindows.from(ring, DECLARED).get(0).nodes()).containsExactly("n1", "n2", "n3");
    }

    @Test
    void faultsOnClientsActOnNoServer() {
        History h = new HistoryBuilder()
                .nemesis("pause-random-client", record("pause-random-client", List.of("c1")), 1000, 1010)
                .heal("pause-random-client", record("resume", List.of("c1")), 2000, 2010)
                .build();
        FaultWindow w = FaultWindows.from(h, DECLARED).get(0);
        assertThat(w.nodes()).isEmpty();
        assertThat(w.excuses()).isEmpty();
    }

    @Test
    void composedFaultsOverlapAndEachHealClosesItsOwnTheFinalHealTheRest() {
        History h = new HistoryBuilder()
                .nemesis("isolate-follower", partition("isolate-follower", Map.of("n1", List.of("n2", "n3"),
                        "n2", List.of("n1"), "n3", List.of("n1"))), 1000, 1010)
                .nemesis("kill-random", record("kill-random", List.of("n2")), 1500, 1510)
                .heal("isolate-follower", partition("heal", Map.of("n1", List.of(), "n2", List.of(),
                        "n3", List.of())), 3000, 3010)
                .heal("all", record("heal", List.of("n2")), 5000, 5020)
                .build();
        List<FaultWindow> w = FaultWindows.from(h, DECLARED);
        assertThat(w).extracting(FaultWindow::fault).containsExactly("isolate-follower", "kill-random");
        assertThat(w.get(0).endNanos()).isEqualTo(3_010_000_000L);
        assertThat(w.get(1).endNanos()).isEqualTo(5_020_000_000L);
        assertThat(w.get(1).nodes()).containsExactly("n2");
    }

    @Test
    void protocolTriggersAndTheFaultsOwnHealAddTheirNodes() {
        History h = new HistoryBuilder()
                .nemesis("cut-during-sync", record("cut-during-sync", List.of("n2")), 1000, 1500)
                .nemesis("trigger", record("cut-during-sync", List.of("n3")), 1200, 1200)
                .heal("cut-during-sync", record("heal", List.of("n1")), 3000, 3500)
                .build();
        assertThat(FaultWindows.from(h, DECLARED).get(0).nodes()).containsExactly("n1", "n2", "n3");
    }

    @Test
    void anUndeclaredFaultIsRefusedByName() {
        History h = new HistoryBuilder().nemesis("kill-leader", record("kill-leader", List.of("n3")), 1000, 1010)
                .build();
        assertThatThrownBy(() -> FaultWindows.from(h, name -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fault kill-leader").hasMessageContaining("is not declared");
    }

    @Test
    void aRealComposedRunsWindows() throws Exception {
        // --nemesis mixed --compose 2 --seed 5, set workload on three servers: its nemesis entries as recorded
        History h = HistoryFiles.read(Path.of(getClass().getResource("/servers/mixed-compose-nemesis.jsonl").toURI()));
        List<FaultWindow> w = FaultWindows.from(h, DECLARED);
        assertThat(w).extracting(FaultWindow::fault)
                .containsExactly("majorities-ring", "pause-random", "crash-subset", "halves");
        assertThat(w).extracting(FaultWindow::nodes).containsExactly(List.of("n1", "n2", "n3"), List.of("n3"),
                List.of("n1", "n2"), List.of("n1"));
        // the ring healed by its own heal while pause-random held; crash-subset and halves by the final heal
        assertThat(w.get(0).endNanos()).isEqualTo(10_970_606_918L);
        assertThat(w.get(1).startNanos()).isLessThan(w.get(0).endNanos());
        assertThat(w.get(1).endNanos()).isEqualTo(15_242_860_706L);
        assertThat(w.get(2).endNanos()).isEqualTo(20_318_193_346L);
        assertThat(w.get(3).endNanos()).isEqualTo(20_318_193_346L);
    }

    @Test
    void aRealKillLeaderRunsWindows() throws Exception {
        History h = HistoryFiles.read(Path.of(getClass().getResource("/fixtures/set-kill-leader.jsonl").toURI()));
        List<FaultWindow> w = FaultWindows.from(h, DECLARED);
        assertThat(w).isNotEmpty().allSatisfy(x -> {
            assertThat(x.fault()).isEqualTo("kill-leader");
            assertThat(x.nodes()).hasSize(1);
            assertThat(x.endNanos()).isLessThan(Long.MAX_VALUE).isGreaterThan(x.startNanos());
        });
    }
}
