package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

    /**
     * Sessions of 2 minutes, so that "gone by close" and "gone by expiry" are far apart: the client pings every third
     * of the timeout, so the servers cannot expire the session sooner than 80 s after the kill, while the close on
     * reconnection takes seconds (the restart of n2 and one reconnection), even on a loaded machine.
     */
    private static final Duration SESSION = Duration.ofMinutes(2);
    /** From the kill until the node is gone: below the earliest expiry (80 s), far above what the close takes. */
    private static final Duration GONE_WITHIN = Duration.ofSeconds(70);

    @Test
    void aSessionRetiredWhileDisconnectedIsClosedOnReconnectionNotLeftToExpire() throws Exception {
        try (Ensemble ensemble = new Ensemble(3, Map.of("maxSessionTimeout", "240000"))) {
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
                Leadership term = events.awaitTermAfter(-1, "a leads");
                String node = term.path();
                admin.sync(path); // the admin's server may lag the one a created its node through
                assertThat(admin.exists(node, false).getEphemeralOwner()).isEqualTo(a.zooKeeper().getSessionId());

                ensemble.kill(2);
                long killedAt = System.nanoTime();
                Thread closer;
                try {
                    events.awaitLine("released " + term.token() + " disconnected");
                    // The process retires now, while its session cannot reach any server, and the server stays
                    // down for longer than Sessions.closeQuietly's own 2 s bound (or until close() returns).
                    closer = new Thread(a::close, "retire-a");
                    closer.start();
                    closer.join(TimeUnit.SECONDS.toMillis(4));
                } finally {
                    ensemble.restart(2);
                }
                // Closed when it reconnects: the node goes long before the session could expire. (Without the wait,
                // close() gives up after its 2 s bound and the servers keep the session until it expires.)
                Duration left = GONE_WITHIN.minusNanos(System.nanoTime() - killedAt);
                await("a's node is gone within " + GONE_WITHIN.toSeconds() + " s of the kill (closed on "
                        + "reconnection, not left to expire)").atMost(left).until(() -> gone(admin, node));
                closer.join(TimeUnit.SECONDS.toMillis(60));
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
