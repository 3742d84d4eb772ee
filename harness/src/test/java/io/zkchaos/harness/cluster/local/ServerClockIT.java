package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.FaultActions;
import io.zkchaos.nemesis.FaultRecord;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server whose wall clock is moved really runs on it: ZooKeeper stamps every transaction with its leader's wall
 * clock ({@code PrepRequestProcessor}: the znode's {@code mtime}), so a znode written while the leader's clock is
 * hours ahead carries that time, and one written while only a follower's clock is moved does not. The session that
 * wrote both lives on (session expiry runs on the monotonic clock, which the fault leaves alone).
 */
class ServerClockIT extends ProcessesUnderRuns {

    @RegisterExtension
    static final ExecutionCondition LIBFAKETIME = Prerequisites.forClass("libfaketime", () ->
            ServerClock.library().isPresent() ? Optional.empty()
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
            FaultActions actions = new FaultActions(cluster.nemesisTarget(new Random(1)));
            FaultRecord reset = actions.resetClocks();
            assertThat(reset.nodes()).containsExactly(leader);
            cluster.setClockOffset(follower, AHEAD.negated());
            assertThat(mtimeAheadMillis(zk, "/follower-moved")).as("a follower's clock does not stamp writes")
                    .isBetween(-SLACK_MS, SLACK_MS);
            assertThat(actions.resetClocks().nodes()).containsExactly(follower);
            assertThat(cluster.clockOffsets()).isEmpty();
            assertThat(zk.getState().isAlive()).as("the session lived through a 2 h jump").isTrue();
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
