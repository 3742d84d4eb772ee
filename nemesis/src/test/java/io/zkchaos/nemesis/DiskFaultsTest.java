package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.DiskFaults;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The disk faults against an in-memory system that records every disk it is told to fail, repair or tear: which
 * node, what it says it did, that a seed repeats its choices and an aim makes them again, that the stop and the
 * final heal repair every disk before restarting what is down (the real file system's faults are in LazyFsMountIT,
 * a real server's answer to them in DiskFaultsIT).
 */
class DiskFaultsTest {

    private static final List<String> DISK_FAULTS = List.of("disk-eio-write", "disk-eio-fsync", "disk-full",
            "disk-slow-fsync");

    private static RecordingSystem lazy() {
        RecordingSystem s = new RecordingSystem(3);
        s.lazy = true;
        return s;
    }

    private static FaultRecord invoke(RecordingSystem s, long seed, FaultOp op) {
        return Nemeses.require(op.fault()).on(s.target(seed)).invoke(op);
    }

    @Test
    void eachDiskFaultFailsOneRunningNodesDiskAndSaysHow() {
        for (String name : DISK_FAULTS) {
            RecordingSystem s = lazy();
            s.states.put("n1", NodeState.DOWN);
            FaultRecord r = invoke(s, 3, FaultOp.start(name));
            assertThat(r.fault()).isEqualTo(name);
            assertThat(r.nodes()).hasSize(1).doesNotContain("n1");
            String node = r.nodes().get(0);
            assertThat(s.disks).containsOnlyKeys(node);
            assertThat(s.calls).containsExactly("disk " + node + " " + s.disks.get(node).get(0).describe());
            assertThat(r.description()).isEqualTo(node + "'s disk: " + s.disks.get(node).get(0).describe());
        }
        assertThat(invoke(lazy(), 3, FaultOp.start("disk-eio-fsync")).description()).endsWith("fsyncs fail with EIO");
        assertThat(invoke(lazy(), 3, FaultOp.start("disk-eio-write")).description()).endsWith("writes fail with EIO");
        assertThat(invoke(lazy(), 3, FaultOp.start("disk-full")).description()).contains("ENOSPC");
    }

    @Test
    void aSlowFsyncsDelaysAreSeededWithinItsRangeAndItsAimRepeatsThem() {
        RecordingSystem s = lazy();
        FaultRecord r = invoke(s, 5, FaultOp.start("disk-slow-fsync"));
        DiskFault.SlowFsync slow = (DiskFault.SlowFsync) s.disks.get(r.nodes().get(0)).get(0);
        assertThat(slow.least()).isEqualTo(Faults.SLOW_FSYNC_LEAST);
        assertThat(slow.most()).isEqualTo(Faults.SLOW_FSYNC_MOST);
        assertThat(r.aim().choices()).extracting(Aim.Choice::what).containsExactly(Aim.Choice.NODE,
                "fsync-delay-seed");
        assertThat(r.aim().choices().get(1).number()).isEqualTo(slow.seed());

        RecordingSystem same = lazy();
        invoke(same, 5, FaultOp.start("disk-slow-fsync"));
        assertThat(same.disks).isEqualTo(s.disks);
        RecordingSystem replayed = lazy();
        FaultRecord again = invoke(replayed, 99, new FaultOp(FaultOp.Kind.START, "disk-slow-fsync", r.aim(),
                Aim.Targets.NAME));
        assertThat(again.nodes()).isEqualTo(r.nodes());
        assertThat(replayed.disks).isEqualTo(s.disks);
    }

    @Test
    void theStopRepairsEveryFailingDiskThenRestartsAServerThatExited() {
        RecordingSystem s = lazy();
        FaultRecord r = invoke(s, 1, FaultOp.start("disk-eio-fsync"));
        String node = r.nodes().get(0);
        s.states.put(node, NodeState.DOWN); // the server exited on the error
        s.calls.clear();
        FaultRecord stop = invoke(s, 1, FaultOp.stop("disk-eio-fsync"));
        assertThat(s.calls).containsExactly("repair " + node, "start " + node);
        assertThat(s.disks).isEmpty();
        assertThat(stop.fault()).isEqualTo("repair-disks");
        assertThat(stop.description()).isEqualTo("repair the disk of " + node + "; restart " + node);
        assertThat(stop.nodes()).containsExactly(node);
    }

    @Test
    void theFinalHealRepairsEveryDiskBeforeItRestartsWhatIsDownAndNamesWhatItCouldNotRepair() {
        RecordingSystem s = lazy();
        NemesisTarget target = s.target(2);
        new DiskFaults(target, "disk-full").diskFull();
        new DiskFaults(target, "disk-eio-fsync").diskFsyncErrors();
        List<String> failing = s.disks.keySet().stream().sorted().toList();
        s.states.put("n3", NodeState.DOWN);
        s.calls.clear();
        FaultRecord heal = Nemeses.require("disk-full").on(s.target(2)).healAll();
        assertThat(s.disks).isEmpty();
        assertThat(s.calls).containsSubsequence("repair " + failing.get(0), "start n3");
        assertThat(s.calls.indexOf("start n3")).isGreaterThan(s.calls.indexOf("repair " + failing.get(
                failing.size() - 1)));
        assertThat(heal.description()).contains("repair the disk of " + String.join(", ", failing))
                .contains("restarted n3");
        assertThat(heal.nodes()).containsAll(failing).contains("n3");

        new DiskFaults(target, "disk-eio-write").diskWriteErrors();
        String broken = s.disks.keySet().iterator().next();
        s.failingRepairs.put(broken, Integer.MAX_VALUE);
        s.states.put("n1", NodeState.DOWN);
        assertThatThrownBy(() -> Nemeses.require("disk-eio-write").on(s.target(2)).healAll())
                .isInstanceOf(FaultNemesis.HealFailedException.class)
                .hasMessage("the final heal did not finish: could not repair disks: repair the disk of " + broken
                        + ": cannot repair " + broken + "'s disk now");
        assertThat(s.states).as("the other steps ran").containsEntry("n1", NodeState.RUNNING);
    }

    @Test
    void aHealNeverAsksASystemWithoutFailingDisks() {
        RecordingSystem s = new RecordingSystem(3);
        FaultRecord heal = Nemeses.require("kill-random").on(s.target(1)).healAll();
        assertThat(heal.description()).doesNotContain("disk");
        assertThat(s.calls).noneMatch(c -> c.startsWith("repair"));
    }

    @Test
    void aTornPowerFailureKillsAndTearsWithASeedPerNode() {
        RecordingSystem s = lazy();
        FaultRecord all = new CrashFaults(s.target(4), "kill-all-tear-unfsynced").killAllTearUnfsynced();
        assertThat(all.fault()).isEqualTo("kill-all-tear-unfsynced");
        assertThat(all.nodes()).containsExactly("n1", "n2", "n3");
        assertThat(s.calls.subList(0, 3)).as("every node stopped first").containsExactly("pause n1", "pause n2",
                "pause n3");
        List<String> kills = s.calls.subList(3, s.calls.size());
        assertThat(kills).hasSize(3).allMatch(c -> c.matches("kill-tear n[123] \\d+"));
        assertThat(kills.stream().map(c -> c.split(" ")[2]).distinct()).as("a seed of its own each").hasSize(3);
        assertThat(all.description()).startsWith("kill, tearing unfsynced writes, n1 (tear seed ")
                .contains(": torn in memory), n2 (tear seed ");
        RecordingSystem again = lazy();
        new CrashFaults(again.target(4), "kill-all-tear-unfsynced").killAllTearUnfsynced();
        assertThat(again.calls).isEqualTo(s.calls);

        RecordingSystem one = lazy();
        FaultRecord r = new CrashFaults(one.target(4), "kill-tear-unfsynced").killTearUnfsynced();
        assertThat(r.nodes()).hasSize(1);
        assertThat(one.states.get(r.nodes().get(0))).isEqualTo(NodeState.DOWN);
    }

    @Test
    void aSystemWithoutTheLazyFileSystemIsNamedInTheError() {
        RecordingSystem s = new RecordingSystem(3);
        assertThatThrownBy(() -> new DiskFaults(s.target(1), "disk-eio-fsync").diskFsyncErrors())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("disk fail");
        assertThatThrownBy(() -> new CrashFaults(s.target(1), "kill-tear-unfsynced").killTearUnfsynced())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot tear");
        assertThatThrownBy(() -> new DiskFault.SlowFsync(Duration.ofSeconds(2), Duration.ofSeconds(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("least <= most");
    }

    @Test
    void theDiskFaultsNeedTheLazyFileSystemAndMixedDrawsThemOnlyOnIt() {
        NemesisDescriptor mixed = Nemeses.require(Nemeses.MIXED);
        for (String name : List.of("disk-eio-write", "disk-eio-fsync", "disk-full", "disk-slow-fsync",
                "kill-tear-unfsynced", "kill-all-tear-unfsynced")) {
            assertThat(Nemeses.require(name).requiresLazyFs()).as(name).isTrue();
            assertThat(Nemeses.require(name).forStorage(false).faults()).as(name).extracting(Fault::name)
                    .containsExactly(name);
            assertThat(mixed.forStorage(true).faults()).extracting(Fault::name).contains(name);
            assertThat(mixed.forStorage(false).faults()).extracting(Fault::name).doesNotContain(name);
        }
        assertThat(mixed.requiresLazyFs()).isFalse();
        assertThat(mixed.forStorage(false).needsLazyFs()).isFalse();
        assertThat(Faults.byName("kill-all-tear-unfsynced").orElseThrow().is(Fault.Trait.NO_SERVICE)).isTrue();
        assertThat(Faults.byName("disk-eio-fsync").orElseThrow().is(Fault.Trait.NO_SERVICE)).isFalse();
    }
}
