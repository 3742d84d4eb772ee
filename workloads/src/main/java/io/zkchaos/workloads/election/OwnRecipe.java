package io.zkchaos.workloads.election;

import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;

/** Candidate sessions running {@link LeaderElection}: one ZooKeeper session, a new recipe per candidacy. */
public final class OwnRecipe implements CandidateFactory {

    private final LeaderElection.Watching watching;
    private final LeaderElection.Hooks hooks;
    private final Sessions.Factory sessions;

    public OwnRecipe(LeaderElection.Watching watching, LeaderElection.Hooks hooks, Sessions.Factory sessions) {
        this.watching = Objects.requireNonNull(watching, "watching");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
    }

    /** The herd-free recipe on real sessions. */
    public static OwnRecipe herdFree() {
        return new OwnRecipe(LeaderElection.Watching.PREDECESSOR, LeaderElection.Hooks.NONE, Sessions.REAL);
    }

    /** The naive watch-the-smallest recipe, for the herd measurement. */
    public static OwnRecipe naive() {
        return new OwnRecipe(LeaderElection.Watching.SMALLEST, LeaderElection.Hooks.NONE, Sessions.REAL);
    }

    /**
     * Waits (bounded) until the session is connected, so that closing it really closes it. A session closed while
     * disconnected is only abandoned: the servers keep it, and every ephemeral it holds (a leader's node blocks
     * every candidate), until it expires; and expiry counts only under one ZooKeeper leader's reign — a new leader
     * gives every session a fresh timeout — so a nemesis that replaces the leader more often than the session
     * timeout keeps such a session alive indefinitely. Returns at once if the session is already over.
     */
    static void awaitConnected(ZooKeeper zk, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        try {
            while (zk.getState().isAlive() && !zk.getState().isConnected() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public CandidateSession open(String name, String electionPath, Target target, HerdCounters counters)
            throws Exception {
        AtomicReference<LeaderElection> current = new AtomicReference<>();
        ZooKeeper zk = Sessions.openClient(sessions, target.connectString(), target, event -> {
            LeaderElection e = current.get();
            if (e != null) {
                e.sessionEvent(event);
            }
        });
        Duration closeTimeout = target.requestTimeout().multipliedBy(2);
        // Candidacies of this session that gave up but whose node may remain (see LeaderElection): shared, so the
        // next candidacy deletes what the previous one could not.
        Set<String> leftovers = ConcurrentHashMap.newKeySet();
        List<ACL> acl = target.acls().forClient(zk);
        return new CandidateSession() {
            @Override
            public void startCandidacy(LeaderElection.Listener listener) {
                LeaderElection e = new LeaderElection(zk, electionPath, name, watching, listener, counters, hooks,
                        closeTimeout, leftovers, acl);
                LeaderElection previous = current.getAndSet(e);
                if (previous != null) {
                    previous.close();
                }
                e.start();
            }

            @Override
            public ZooKeeper zooKeeper() {
                return zk;
            }

            @Override
            public void resign() {
                LeaderElection e = current.getAndSet(null);
                if (e != null) {
                    e.close();
                }
            }

            @Override
            public void close() {
                resign();
                awaitConnected(zk, target.sessionTimeout().multipliedBy(2));
                Sessions.closeQuietly(zk);
            }
        };
    }
}
