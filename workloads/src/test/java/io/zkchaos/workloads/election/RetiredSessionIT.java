package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.workloads.Ensemble;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * A candidate process that retires while its session is disconnected (its server lost the ZooKeeper leader, or
 * died) must not leave its session — and the election node it holds — to the servers until expiry: expiry counts
 * only under one ZooKeeper leader's reign, so under a nemesis that replaces the leader more often than the session
 * timeout such a session, and the node every candidate waits behind, lives on indefinitely (seen in fenced-writes
 * under pause-leader: no leader for the last 12 s of the run). The retiring process waits, bounded, for its session
 * to reconnect and closes it then.
 */
class RetiredSessionIT {

    private static final Duration SESSION = Duration.ofSeconds(20);

    @Test
    void aSessionRetiredWhileDisconnectedIsClosedOnReconnectionNotLeftToExpire() throws Exception {
        // Sessions of 20 s (the servers allow it), so "gone by expiry" and "gone by close" are far apart in time.
        try (Ensemble ensemble = new Ensemble(3, Map.of("maxSessionTimeout", "30000"))) {
            Target all = ensemble.target(SESSION, Duration.ofSeconds(10)); // the first connect waits for a quorum
            Target onN2 = ensemble.onlyServer(2, SESSION, Duration.ofSeconds(2));
            ZooKeeper admin = Sessions.open(all.connectString(), all, null);
            try {
                String path = "/it/election/retired";
                Znodes.deleteRecursive(admin, path);
                Znodes.ensurePath(admin, path);
                CandidateSession a = OwnRecipe.herdFree().open("a", path, onN2, new HerdCounters());
                LeaderElectionIT.Events events = new LeaderElectionIT.Events();
                a.startCandidacy(events);
                Ensemble.eventually(Duration.ofSeconds(5), () -> events.last != null, "a leads");
                String node = events.last.path();
                assertThat(admin.exists(node, false).getEphemeralOwner()).isEqualTo(a.zooKeeper().getSessionId());

                ensemble.kill(2);
                long killedAt = System.nanoTime();
                Thread closer;
                try {
                    Ensemble.eventually(Duration.ofSeconds(5),
                            () -> events.log.contains("released " + events.last.token() + " disconnected"),
                            "a learns it is disconnected");
                    // The process retires now, while its session cannot reach any server, and the server stays
                    // down for longer than Sessions.closeQuietly's own 2 s bound (or until close() returns).
                    closer = new Thread(a::close, "retire-a");
                    closer.start();
                    long closeStarted = System.nanoTime();
                    Ensemble.eventually(Duration.ofSeconds(10), () -> !closer.isAlive()
                            || System.nanoTime() - closeStarted > TimeUnit.SECONDS.toNanos(4),
                            "close returned, or 4 s passed");
                } finally {
                    ensemble.restart(2);
                }
                // Closed when it reconnects: the node goes long before the 20 s session could expire. (Without the
                // wait, close() gives up after its 2 s bound and the servers keep the session until it expires.)
                Ensemble.eventually(Duration.ofSeconds(12), () -> gone(admin, node), "a's node is gone");
                assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killedAt))
                        .as("gone well before the session timeout (20 s) after the kill").isLessThan(15);
                closer.join(TimeUnit.SECONDS.toMillis(45));
                assertThat(closer.isAlive()).as("close() is bounded").isFalse();
            } finally {
                Sessions.closeQuietly(admin);
            }
        }
    }

    private static boolean gone(ZooKeeper admin, String node) {
        try {
            return admin.exists(node, false) == null;
        } catch (Exception e) {
            return false;
        }
    }
}
