package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.nemesis.faults.CrashFaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The crash-restart faults against an in-memory system that records every kill, start and wait: what they do, that
 * the same seed repeats the same schedule of nodes and delays, and that another seed differs (real restarts on real
 * data are in SyncTriggersIT).
 */
class CrashRestartFaultsTest {

    private static List<String> run(int nodes, long seed, String name, Function<CrashFaults, FaultRecord> fault) {
        RecordingSystem s = new RecordingSystem(nodes);
        FaultRecord r = fault.apply(new CrashFaults(s.target(seed), name));
        List<String> out = new ArrayList<>(s.calls);
        out.add(r.description());
        return out;
    }

    @Test
    void restartRandomKillsOneNodeAndStartsItAgain() {
        List<String> calls = run(3, 1, "restart-random", f -> f.restartRandom(Duration.ofMillis(5)));
        assertThat(calls).hasSize(3);
        String node = calls.get(0).substring("kill ".length());
        assertThat(calls.get(1)).isEqualTo("start " + node);
        assertThat(calls.get(2)).startsWith("kill " + node + "; restart " + node + " on their data after ");
    }

    @Test
    void replaceDiskEmptiesAFollowerNeverTheLeaderAndWaitsUntilItServesAgain() {
        java.util.Set<String> chosen = new java.util.TreeSet<>();
        for (long i = 0; i < 20; i++) {
            long seed = i * 1_000_003L; // far apart: the first draws of seeds next to each other are alike
            List<String> calls = run(5, seed, "replace-disk",
                    f -> f.replaceDisk(Duration.ofMillis(3), Duration.ofSeconds(1)));
            String node = calls.get(0).substring("replace-disk ".length());
            assertThat(calls).containsExactly("replace-disk " + node, "start " + node, "serves " + node,
                    calls.get(3));
            assertThat(calls.get(3)).startsWith("kill " + node + ", empty its data directory (its id kept), restart "
                    + "it on the empty directory after ").endsWith(" ms (serves)");
            chosen.add(node);
            assertThat(run(5, seed, "replace-disk", f -> f.replaceDisk(Duration.ofMillis(3), Duration.ofSeconds(1))))
                    .as("the same seed, the same node and delay").isEqualTo(calls);
        }
        assertThat(chosen).as("n2 leads").doesNotContain("n2").hasSizeGreaterThan(1);
    }

    @Test
    void replaceDiskNeedsASystemThatCanEmptyADataDirectoryAndAFollower() {
        RecordingSystem s = new RecordingSystem(3);
        s.emptiesDisks = false;
        assertThatThrownBy(() -> new CrashFaults(s.target(1), "replace-disk").replaceDisk(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot empty n")
                .hasMessageContaining("data directory");
        RecordingSystem alone = new RecordingSystem(3);
        alone.kill("n1");
        alone.kill("n3");
        assertThatThrownBy(() -> new CrashFaults(alone.target(1), "replace-disk").replaceDisk(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class).hasMessage("no running follower (leader n2)");
    }

    @Test
    void restartLeaderAimsAtTheLeader() {
        assertThat(run(5, 3, "restart-leader", f -> f.restartLeader(Duration.ZERO)))
                .containsExactly("kill n2", "start n2", "kill n2; restart n2 on their data after 0 ms");
    }

    @Test
    void restartAllKillsEveryNodeBeforeStartingAny() {
        List<String> calls = run(5, 4, "restart-all", f -> f.restartAll(Duration.ofMillis(5)));
        assertThat(calls.subList(0, 5)).allMatch(c -> c.startsWith("kill ")).hasSize(5);
        assertThat(calls.subList(5, 10)).allMatch(c -> c.startsWith("start ")).hasSize(5);
    }

    @Test
    void aRollingRestartTakesEachNodeDownOnlyOnceTheOneBeforeServes() {
        List<String> calls = run(5, 5, "rolling-restart", f -> f.rollingRestart(Duration.ofSeconds(1)));
        assertThat(calls).hasSize(16);
        for (int i = 0; i < 5; i++) {
            String node = calls.get(3 * i).substring("kill ".length());
            assertThat(calls.subList(3 * i, 3 * i + 3)).containsExactly("kill " + node, "start " + node,
                    "serves " + node);
        }
        assertThat(calls.get(15)).doesNotContain("did not serve");
    }

    @Test
    void laggingFollowersAreNeverTheLeaderNorAQuorum() {
        for (long seed = 0; seed < 40; seed++) {
            RecordingSystem s = new RecordingSystem(5);
            FaultRecord r = new CrashFaults(s.target(seed), "lagging-follower").stopFollowers();
            assertThat(r.nodes()).hasSizeBetween(1, 2).doesNotContain("n2");
            RecordingSystem three = new RecordingSystem(3);
            assertThat(new CrashFaults(three.target(seed), "lagging-follower").stopFollowers().nodes()).hasSize(1).doesNotContain("n2");
        }
        RecordingSystem one = new RecordingSystem(1);
        one.leader = "n1";
        assertThatThrownBy(() -> new CrashFaults(one.target(1), "lagging-follower").stopFollowers())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without losing the quorum");
    }

    @Test
    void catchUpBringsTheLaggingBackOneByOneSometimesFromANewLeader() {
        boolean sawNewLeader = false;
        for (long seed = 0; seed < 20; seed++) {
            RecordingSystem s = new RecordingSystem(5);
            s.states.put("n4", NodeState.DOWN);
            s.states.put("n5", NodeState.DOWN);
            FaultRecord r = new CrashFaults(s.target(seed), "heal").catchUp(Duration.ofSeconds(1), Duration.ZERO);
            List<String> starts = s.calls.stream().filter(c -> c.startsWith("start n4") || c.startsWith("start n5"))
                    .toList();
            assertThat(starts).hasSize(2);
            // the second lagging node starts only after the first serves
            int first = s.calls.indexOf(starts.get(0));
            assertThat(s.calls.get(first + 1)).isEqualTo("serves " + starts.get(0).substring(6));
            if (r.description().contains("crash-restart leader n2")) {
                sawNewLeader = true;
                assertThat(s.calls.indexOf("kill n2")).isGreaterThan(first).isLessThan(s.calls.indexOf(starts.get(1)));
            }
        }
        assertThat(sawNewLeader).as("the seeded coin crash-restarts the leader in some of 20 seeds").isTrue();
    }

    @Test
    void theSameSeedRepeatsEveryScheduleAndAnotherSeedChangesIt() {
        List<Function<CrashFaults, FaultRecord>> faults = List.of(
                f -> f.restartRandom(Duration.ofMillis(20)),
                f -> f.restartAll(Duration.ofMillis(20)),
                f -> f.rollingRestart(Duration.ofSeconds(1)),
                CrashFaults::stopFollowers);
        for (Function<CrashFaults, FaultRecord> fault : faults) {
            assertThat(run(5, 42, "crash", fault)).isEqualTo(run(5, 42, "crash", fault));
            List<List<String>> others = new ArrayList<>();
            for (long seed = 0; seed < 10; seed++) {
                others.add(run(5, seed, "crash", fault));
            }
            assertThat(others.stream().distinct().count()).as("different seeds give different schedules")
                    .isGreaterThan(1);
        }
    }
}
