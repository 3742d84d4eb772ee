package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.ClockFaults;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server whose wall clock is moved really runs on it: ZooKeeper stamps every transaction with its leader's wall
 * clock ({@code PrepRequestProcessor}: the znode's {@code mtime}), so a znode written while the leader's clock is
 * hours ahead carries that time, and one written while only a follower's clock is moved does not. The session that
 * wrote both lives on (session expiry runs on the monotonic clock, which the fault leaves alone). Moving every
 * server's clock at once takes one wait for the servers to read their control files, not one per server, and every
 * server then runs on its own offset (the time it stamps a new connection with, {@code cons}'s {@code est}).
 */
class ServerClockIT extends ProcessesUnderRuns {

    @RegisterExtension
    static final ExecutionCondition LIBFAKETIME = Prerequisites.forClass("libfaketime", () ->
            ProcessClock.library().isPresent() ? Optional.empty()
                    : Optional.of("libfaketime is not installed (apt-get install libfaketime)"));

    private static final Duration AHEAD = Duration.ofHours(2);
    /** Far below the offsets, far above any delay between a write and its stamp on a loaded machine. */
    private static final long SLACK_MS = Duration.ofMinutes(10).toMillis();

    @Test
    void theLeadersMovedClockStampsItsTransactionsAndTheHealSetsItBack() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).clocks(true).runDirectory(runs.resolve("clocks"))
                .startTimeout(Duration.ofSeconds(120)) // libfaketime costs each JVM about a second of CPU at start
                .build();
        try (LocalCluster cluster = LocalCluster.start(config);
             ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
            String leader = cluster.leader().orElseThrow();
            String follower = cluster.nodes().stream().filter(n -> !n.equals(leader)).findFirst().orElseThrow();
            assertThat(Files.readString(runs.resolve("clocks").resolve(leader).resolve("clock"))).isEqualTo("+0.000\n");

            cluster.setClockOffset(leader, AHEAD);
            assertThat(cluster.clockOffsets()).containsExactly(java.util.Map.entry(leader, AHEAD));
            assertThat(mtimeAheadMillis(zk, "/ahead")).as("a write stamped by a leader 2 h ahead")
                    .isBetween(AHEAD.toMillis() - SLACK_MS, AHEAD.toMillis() + SLACK_MS);

            // the seeded fault's own path: only the follower moved now, so the leader stamps the true time
            NemesisTarget target = cluster.nemesisTarget(new Random(1));
            FaultRecord reset = new ClockFaults(target, "heal").resetClocks();
            assertThat(reset.nodes()).containsExactly(leader);
            cluster.setClockOffset(follower, AHEAD.negated());
            assertThat(mtimeAheadMillis(zk, "/follower-moved")).as("a follower's clock does not stamp writes")
                    .isBetween(-SLACK_MS, SLACK_MS);
            assertThat(new ClockFaults(target, "heal").resetClocks().nodes()).containsExactly(follower);
            assertThat(cluster.clockOffsets()).isEmpty();
            assertThat(zk.getState().isAlive()).as("the session lived through a 2 h jump").isTrue();

            // every server moved by one call: one wait, and each server on its own offset when it returns
            AtomicInteger waits = new AtomicInteger();
            cluster.clockWait(() -> {
                waits.incrementAndGet();
                ProcessClock.awaitApplied();
            });
            Map<String, Duration> offsets = Map.of("n1", Duration.ofHours(1), "n2", Duration.ofHours(3),
                    "n3", Duration.ofHours(-2));
            cluster.setClockOffsets(offsets);
            assertThat(waits).as("waits for the servers to read their clocks").hasValue(1);
            for (Map.Entry<String, Duration> e : offsets.entrySet()) {
                assertThat(connectionStampAheadMillis(cluster, e.getKey())).as("%s's clock", e.getKey())
                        .isBetween(e.getValue().toMillis() - SLACK_MS, e.getValue().toMillis() + SLACK_MS);
            }
            assertThat(new ClockFaults(target, "heal").resetClocks().nodes()).containsExactly("n1", "n2", "n3");
            assertThat(waits).as("the reset of three clocks waits once too").hasValue(2);
            assertThat(connectionStampAheadMillis(cluster, "n3")).as("n3's clock reset")
                    .isBetween(-SLACK_MS, SLACK_MS);
        }
    }

    /**
     * Opens a session on {@code node} alone and answers how far ahead of this machine's clock the server stamped
     * its connection ({@code new Date()} when it accepted it: {@code cons} shows it as {@code est}).
     */
    private static long connectionStampAheadMillis(LocalCluster cluster, String node) throws Exception {
        long before = System.currentTimeMillis();
        try (ZooKeeper zk = Zk.connect(cluster.connectString(node), Duration.ofSeconds(10))) {
            String[] hostPort = cluster.directConnectString(node).split(":");
            String cons = FourLetterWords.ask(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])),
                    "cons", Duration.ofSeconds(10));
            Matcher m = Pattern.compile("sid=0x" + Long.toHexString(zk.getSessionId()) + ",.*?est=(\\d+)")
                    .matcher(cons);
            assertThat(m.find()).as("%s's cons names session 0x%x: %s", node, zk.getSessionId(), cons).isTrue();
            return Long.parseLong(m.group(1)) - before;
        }
    }

    /** Creates {@code path} and answers how far its mtime is ahead of this machine's clock. */
    private static long mtimeAheadMillis(ZooKeeper zk, String path) throws Exception {
        assertThat(Zk.write(zk, path)).as("write " + path).isTrue();
        long now = System.currentTimeMillis();
        Stat stat = zk.exists(path, false);
        return stat.getMtime() - now;
    }
}
