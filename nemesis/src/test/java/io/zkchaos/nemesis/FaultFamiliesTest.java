package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.faults.PauseFaults;
import io.zkchaos.nemesis.net.CutMode;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The shapes the fault actions of each family compute, against an in-memory cluster that records what it was told
 * (the real application to links and processes is covered by ProxiedClusterIT and PartitionShapesIT).
 */
class FaultFamiliesTest {

    private static Set<String> heard(SortedMap<String, SortedSet<String>> grudge, String node) {
        Set<String> h = new TreeSet<>(grudge.keySet());
        h.removeAll(grudge.get(node));
        return h;
    }

    @Test
    void isolateTheLeaderCutsItFromEveryoneBothWays() {
        RecordingSystem c = new RecordingSystem(5);
        FaultRecord r = new NetworkFaults(c.target(1), "isolate-leader").isolateLeader();
        assertThat(r.fault()).isEqualTo("isolate-leader");
        assertThat(r.groups()).containsExactly(List.of("n2"), List.of("n1", "n3", "n4", "n5"));
        assertThat(c.grudge.get("n2")).containsExactly("n1", "n3", "n4", "n5");
        assertThat(c.grudge.get("n1")).containsExactly("n2");
        assertThat(r.grudge()).isEqualTo(c.grudge);
        assertThat(r.nodes()).containsExactly("n1", "n2", "n3", "n4", "n5");
    }

    @Test
    void isolateFollowerBlackHolesTheLowestNamedFollowerAndRestoresTheCutMode() {
        RecordingSystem c = new RecordingSystem(3);
        c.leader = "n1";
        FaultRecord r = new NetworkFaults(c.target(1), "isolate-follower").isolateFollower();
        assertThat(r.fault()).isEqualTo("isolate-follower");
        assertThat(r.groups()).containsExactly(List.of("n2"), List.of("n1", "n3"));
        assertThat(c.grudge.get("n2")).containsExactly("n1", "n3");
        assertThat(c.grudgeModes).containsExactly(CutMode.BLACKHOLE);
        assertThat(c.mode).isEqualTo(CutMode.REFUSE);
        assertThat(c.calls).doesNotContain("cut-client n2");
        c.leader = "n3";
        c.states.put("n1", NodeState.DOWN);
        assertThat(new NetworkFaults(c.target(1), "isolate-follower").isolateFollower().groups().get(0)).containsExactly("n2");
        c.leader = null;
        assertThatThrownBy(() -> new NetworkFaults(c.target(1), "isolate-follower").isolateFollower())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no node leads");
    }

    @Test
    void losingUnsyncedWritesNeedsASystemThatCanAndSaysWhatItDid() {
        RecordingSystem c = new RecordingSystem(3);
        assertThatThrownBy(() -> new CrashFaults(c.target(1), "kill-all-lose-unfsynced").killAllLoseUnfsynced())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot drop n1's unsynced writes");
        c.lazy = true;
        FaultRecord all = new CrashFaults(c.target(1), "kill-all-lose-unfsynced").killAllLoseUnfsynced();
        assertThat(all.fault()).isEqualTo("kill-all-lose-unfsynced");
        assertThat(all.nodes()).containsExactly("n1", "n2", "n3");
        assertThat(c.calls).as("every node stopped before the first dies: the power fails for all at once")
                .containsExactly("pause n1", "pause n2", "pause n3", "kill-lose n1", "kill-lose n2", "kill-lose n3");
        c.states.replaceAll((n, st) -> NodeState.RUNNING);
        c.calls.clear();
        FaultRecord one = new CrashFaults(c.target(7), "kill-lose-unfsynced").killLoseUnfsynced();
        assertThat(one.nodes()).hasSize(1);
        assertThat(c.calls).containsExactly("kill-lose " + one.nodes().get(0));
        assertThat(one.description()).isEqualTo("kill, dropping unfsynced writes, " + one.nodes().get(0));
    }

    @Test
    void halvesPutTheMinorityFirst() {
        RecordingSystem c = new RecordingSystem(5);
        FaultRecord r = new NetworkFaults(c.target(1), "halves").halves();
        assertThat(r.groups()).containsExactly(List.of("n1", "n2"), List.of("n3", "n4", "n5"));
        assertThat(heard(c.grudge, "n1")).containsExactly("n1", "n2");
        assertThat(heard(c.grudge, "n5")).containsExactly("n3", "n4", "n5");
    }

    @Test
    void randomHalvesRepeatWithTheSeed() {
        FaultRecord a = new NetworkFaults(new RecordingSystem(5).target(7), "random-halves").randomHalves();
        FaultRecord b = new NetworkFaults(new RecordingSystem(5).target(7), "random-halves").randomHalves();
        assertThat(a).isEqualTo(b);
        assertThat(a.groups().get(0)).hasSize(2);
        assertThat(a.groups().get(1)).hasSize(3);
    }

    @Test
    void aBridgeNodeHearsBothHalvesWhichDoNotHearEachOther() {
        RecordingSystem c = new RecordingSystem(5);
        FaultRecord r = new NetworkFaults(c.target(3), "bridge").bridge();
        List<String> left = r.groups().get(0);
        List<String> right = r.groups().get(1);
        Set<String> bridge = new TreeSet<>(left);
        bridge.retainAll(right);
        assertThat(bridge).hasSize(1);
        String b = bridge.iterator().next();
        assertThat(c.grudge.get(b)).isEmpty();
        for (String l : left) {
            for (String x : right) {
                if (!l.equals(b) && !x.equals(b)) {
                    assertThat(c.grudge.get(l)).contains(x);
                    assertThat(c.grudge.get(x)).contains(l);
                }
            }
        }
    }

    @Test
    void inAMajoritiesRingEveryNodeHearsADifferentMajority() {
        for (int n : new int[] {3, 5}) {
            RecordingSystem c = new RecordingSystem(n);
            new NetworkFaults(c.target(n), "majorities-ring").majoritiesRing();
            Set<Set<String>> majorities = new java.util.HashSet<>();
            for (String node : c.nodes) {
                Set<String> h = heard(c.grudge, node);
                assertThat(h).as("%s hears a majority", node).hasSize(n / 2 + 1);
                majorities.add(h);
            }
            assertThat(majorities).as("no two nodes hear the same majority").hasSize(n);
        }
    }

    @Test
    void processFaultsSayWhatTheyDid() {
        RecordingSystem c = new RecordingSystem(5);
        NemesisTarget t = c.target(5);
        assertThat(new CrashFaults(t, "kill-leader").killLeader())
                .isEqualTo(FaultRecord.process("kill-leader", "kill", List.of("n2")));
        assertThat(new CrashFaults(t, "kill-leader").killLeader().description()).isEqualTo("kill n2");
        FaultRecord majority = new CrashFaults(t, "kill-majority").killMajority();
        assertThat(majority.nodes()).hasSize(3);
        assertThat(new CrashFaults(t, "heal").restartDown().nodes()).containsAll(majority.nodes()).contains("n2");
        FaultRecord pause = new PauseFaults(t, "pause-random").pauseRandom();
        assertThat(new PauseFaults(t, "heal").resumeAll().nodes()).isEqualTo(pause.nodes());
        assertThat(c.calls).startsWith("kill n2");
    }

    @Test
    void killAllKillsEveryRunningNodeInASeededOrderAndTheHealStartsThemAll() {
        RecordingSystem c = new RecordingSystem(5);
        c.states.put("n4", NodeState.DOWN);
        FaultRecord all = new CrashFaults(c.target(9), "kill-all").killAll();
        assertThat(all.fault()).isEqualTo("kill-all");
        assertThat(all.nodes()).containsExactlyInAnyOrder("n1", "n2", "n3", "n5");
        assertThat(c.calls).containsExactlyElementsOf(all.nodes().stream().map(n -> "kill " + n).toList());
        assertThat(new CrashFaults(new RecordingSystem(5).target(9), "kill-all").killAll().nodes())
                .as("the same seed, the same order").isEqualTo(new CrashFaults(new RecordingSystem(5).target(9), "kill-all")
                        .killAll().nodes());
        assertThat(new CrashFaults(c.target(1), "heal").restartDown().nodes()).containsExactly("n1", "n2", "n3", "n4", "n5");
    }

    @Test
    void leaderFaultsWithoutALeaderSaySo() {
        RecordingSystem c = new RecordingSystem(3);
        c.leader = null;
        assertThatThrownBy(() -> new PauseFaults(c.target(1), "pause-leader").pauseLeader())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no node leads now");
    }

    @Test
    void recordsSerialiseAsPlainJson() throws Exception {
        RecordingSystem c = new RecordingSystem(3);
        FaultRecord r = new NetworkFaults(c.target(1), "isolate").isolate("n1");
        String json = new ObjectMapper().writeValueAsString(r);
        assertThat(json).isEqualTo("{\"fault\":\"isolate\",\"description\":\"isolate n1 from {n2, n3}\","
                + "\"nodes\":[\"n1\",\"n2\",\"n3\"],"
                + "\"groups\":[[\"n1\"],[\"n2\",\"n3\"]],"
                + "\"grudge\":{\"n1\":[\"n2\",\"n3\"],\"n2\":[\"n1\"],\"n3\":[\"n1\"]}}");
        assertThat(new ObjectMapper().readValue(json, FaultRecord.class)).isEqualTo(r);
    }
}
