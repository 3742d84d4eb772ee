package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.ClockReading;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.Felt;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.ClockFaults;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.faults.PauseFaults;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each fault's record says what the real system felt, read from the system: a moved clock read back from the server
 * (the timestamp it logs a {@code srvr} with), a kill as the process seen gone, a pause as the process seen stopped,
 * a partition as the proxy's connections reset at the cut.
 */
class FaultsFeltIT extends ProcessesUnderRuns {

    @RegisterExtension
    static final ExecutionCondition LIBFAKETIME = Prerequisites.forClass("libfaketime", () ->
            ProcessClock.library().isPresent() ? Optional.empty()
                    : Optional.of("libfaketime is not installed (apt-get install libfaketime)"));

    @Test
    void clocksKillsPausesAndPartitionsAreMeasuredFromTheSystem() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).clocks(true).runDirectory(runs.resolve("felt"))
                .startTimeout(Duration.ofSeconds(120)) // libfaketime costs each JVM about a second of CPU at start
                .build();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            NemesisTarget target = cluster.nemesisTarget(new Random(7));

            // a true clock reads back as the true time, from the server's own log line
            ClockReading plain = cluster.readClock("n1").orElseThrow();
            assertThat(plain.shows(0, 250)).as("n1's unmoved clock read back: %s", plain).isTrue();

            // a bump of 40..50 s reads back as such
            FaultRecord bump = new ClockFaults(target, "clock-bump").bumpClock(Duration.ofSeconds(40), Duration.ofSeconds(50));
            assertThat(bump.felt()).singleElement().satisfies(f -> {
                assertThat(f.node()).isEqualTo(bump.nodes().get(0));
                assertThat(f.felt()).as(f.what()).isTrue();
                assertThat(f.what()).startsWith("server clock read back at ").contains("srvr logged in server.log");
            });
            String moved = bump.nodes().get(0);
            long asked = cluster.clockOffsets().get(moved).toMillis();
            ClockReading read = cluster.readClock(moved).orElseThrow();
            assertThat(read.leastOffsetMillis()).as("the server's own clock").isBetween(asked - 250, asked + 250);
            new ClockFaults(target, "heal").resetClocks();

            // a kill: the process seen gone; a pause: the process seen stopped
            FaultRecord kill = new CrashFaults(target, "kill-random").killRandom();
            assertThat(kill.felt()).singleElement().isEqualTo(Felt.of(kill.nodes().get(0), true,
                    "process seen gone"));
            new CrashFaults(target, "heal").restartDown();
            cluster.awaitQuorum(Duration.ofSeconds(60));
            FaultRecord pause = new PauseFaults(target, "pause-random").pauseRandom();
            assertThat(pause.felt()).singleElement().isEqualTo(Felt.of(pause.nodes().get(0), true,
                    "process seen stopped"));
            new PauseFaults(target, "heal").resumeAll();
            cluster.awaitQuorum(Duration.ofSeconds(60));

            // a partition: the proxy reset the leader's open quorum connections at the cut
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                zk.create("/before", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            FaultRecord isolate = new NetworkFaults(target, "isolate-leader").isolateLeader();
            String leader = isolate.nodes().stream().filter(n -> isolate.grudge().get(n).size() == 2).findFirst()
                    .orElseThrow();
            FaultRecord healed = new NetworkFaults(target, "heal").heal();
            assertThat(healed.felt()).anySatisfy(f -> {
                assertThat(f.node()).isEqualTo(leader);
                assertThat(f.felt()).as(f.what()).isTrue();
                assertThat(f.what()).matches("[1-9]\\d* connections? reset, \\d+ bytes dropped on its faulted links");
            });
            // nothing faulted since that heal: a heal now measures nothing
            assertThat(new NetworkFaults(target, "heal").heal().felt()).isEmpty();
        }
    }
}
