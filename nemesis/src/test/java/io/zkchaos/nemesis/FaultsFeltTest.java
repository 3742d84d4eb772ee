package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.nemesis.faults.ClockFaults;
import io.zkchaos.nemesis.faults.DiskFaults;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a fault's record says the system felt: a failing disk is judged on the counts of its window (taken before
 * the repair, named for its fault by the nemesis, in the stop's record or the final heal's), a clock on what the
 * server's clock read back; a system that measures nothing says nothing.
 */
class FaultsFeltTest {

    private static RecordingSystem lazy() {
        RecordingSystem s = new RecordingSystem(3);
        s.lazy = true;
        return s;
    }

    @Test
    void aDiskThatMetNoWriteOrFsyncInItsWindowIsNotFelt() {
        RecordingSystem s = lazy();
        Nemesis nemesis = Nemeses.require("disk-eio-fsync").on(s.target(3));
        FaultRecord started = nemesis.invoke(FaultOp.start("disk-eio-fsync"));
        String node = started.nodes().get(0);
        assertThat(started.felt()).as("a disk fault is measured when it ends").isEmpty();
        s.diskCounts.put(node, Map.of("writes", 0L, "fsyncs", 0L, "failed_fsyncs", 0L));
        FaultRecord stopped = nemesis.invoke(FaultOp.stop("disk-eio-fsync"));
        assertThat(stopped.felt()).containsExactly(new Felt("disk-eio-fsync", node, false,
                "failed no fsync (0 writes, 0 fsyncs in its window)"));
    }

    @Test
    void theFinalHealMeasuresTheDiskFaultStillOpenAndNamesIt() {
        RecordingSystem s = lazy();
        Nemesis nemesis = Nemeses.require("disk-slow-fsync").on(s.target(3));
        String node = nemesis.invoke(FaultOp.start("disk-slow-fsync")).nodes().get(0);
        s.diskCounts.put(node, Map.of("writes", 12L, "fsyncs", 4L, "slowed_fsyncs", 4L));
        FaultRecord healed = nemesis.healAll();
        assertThat(healed.felt()).containsExactly(new Felt("disk-slow-fsync", node, true,
                "4 fsyncs slowed (12 writes, 4 fsyncs in its window)"));
    }

    @Test
    void eachFaultOfADiskCountsItsOwnCounter() {
        List<DiskFault> both = List.of(new DiskFault.WriteErrors(), new DiskFault.Full());
        Felt f = DiskFaults.diskFelt("n2", both, Map.of("writes", 3L, "fsyncs", 0L, "failed_writes", 3L));
        assertThat(f).isEqualTo(Felt.of("n2", true, "3 writes failed (3 writes, 0 fsyncs in its window)"));
        assertThat(DiskFaults.diskFelt("n2", both, Map.of("writes", 1L, "fsyncs", 1L)))
                .isEqualTo(Felt.of("n2", false, "failed no write, refused no write (1 write, 1 fsync in its window)"));
    }

    @Test
    void aClockReadBackFarFromTheOffsetAskedWasNotFelt() {
        ClockReading at42 = new ClockReading(1_000, 43_010, 1_020, "srvr logged in server.log");
        assertThat(ClockFaults.clockFelt("n1", Duration.ofSeconds(42), at42))
                .isEqualTo(Felt.of("n1", true, "server clock read back at +42.000 s (asked +42.000 s; srvr logged "
                        + "in server.log)"));
        ClockReading unmoved = new ClockReading(1_000, 1_010, 1_020, "srvr logged in server.log");
        assertThat(ClockFaults.clockFelt("n1", Duration.ofSeconds(42), unmoved).felt()).isFalse();
    }

    @Test
    void aSystemThatMeasuresNothingSaysNothing() {
        RecordingSystem s = new RecordingSystem(3); // no process state, no clock, no disk counts
        FaultRecord kill = Nemeses.require("kill-random").on(s.target(3)).invoke(FaultOp.start("kill-random"));
        assertThat(kill.felt()).isEmpty();
    }
}
