package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The recipe's edge cases, each provoked deterministically against a real 3-node ensemble.
 *
 * <p>What the tests wait for: the listener's own events, never {@link LeaderElection#hasLeadership()} followed by a
 * read of the listener. The recipe sets that flag before it calls {@code acquired} (as Curator's LeaderLatch does),
 * so a test that saw the flag may read the listener before it was told. Sessions are 10 s (the ensemble allows
 * them): the edge cases are provoked on purpose, and a 2 s session could expire by itself on a loaded machine. The
 * admin session syncs before it reads what a candidate wrote: ZooKeeper promises no read-your-writes across sessions,
 * and the admin's server may lag (seen on a loaded machine: a node a closed candidate had deleted, still listed).
 */
class LeaderElectionIT {

    /** How long anything the ensemble has to do may take on a loaded 2-core machine (it takes well under 1 s). */
    private static final Duration BOUND = Duration.ofSeconds(30);

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);
    private static Target target;
    private ZooKeeper admin;
    private final List<AutoCloseable> toClose = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        target = ensemble.get().target(Duration.ofSeconds(10), Duration.ofSeconds(5));
    }

    @BeforeEach
    void openAdmin() throws Exception {
        admin = Sessions.open(target.connectString(), target, null);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        Sessions.closeQuietly(admin);
    }

    /**
     * Records what the recipe reports, in order. An acquired term is logged before it is added to {@link #terms}, so
     * a test that has seen a term (by {@link #awaitTermAfter}) also sees every log line up to it.
     */
    static final class Events implements LeaderElection.Listener {
        final List<String> log = new CopyOnWriteArrayList<>();
        final List<Leadership> terms = new CopyOnWriteArrayList<>();

        @Override
        public void volunteering() {
            log.add("volunteering");
        }

        @Override
        public void acquired(Leadership l) {
            log.add("acquired " + l.token());
            terms.add(l);
        }

        /** The last term the listener was told of, or null. */
        Leadership last() {
            return terms.isEmpty() ? null : terms.get(terms.size() - 1);
        }

        /** Waits (at most BOUND) until the listener is told of a term with a token above {@code token}. */
        Leadership awaitTermAfter(long token, String what) {
            return await(what).atMost(BOUND).until(this::last, l -> l != null && l.token() > token);
        }

        /** Waits (at most BOUND) until {@code line} is in the log. */
        void awaitLine(String line) {
            await("the listener hears: " + line).atMost(BOUND).until(() -> log.contains(line));
        }

        @Override
        public void releasing(Leadership l, ReleaseReason r) {
            log.add("releasing " + l.token() + " " + r.wireName());
        }

        @Override
        public void released(Leadership l, ReleaseReason r) {
            log.add("released " + l.token() + " " + r.wireName());
        }

        @Override
        public void ended(String why) {
            log.add("ended " + why);
        }
    }

    private String electionPath(String name) throws Exception {
        String path = "/it/election/" + name;
        Znodes.deleteRecursive(admin, path);
        Znodes.ensurePath(admin, path);
        return path;
    }

    /** A candidate whose close() waits for its cleanup (as long as {@link #BOUND}), so its log is complete after. */
    private LeaderElection candidate(ZooKeeper zk, String path, String id, Events events, HerdCounters counters,
                                     LeaderElection.Hooks hooks) {
        LeaderElection e = new LeaderElection(zk, path, id, LeaderElection.Watching.PREDECESSOR, events, counters,
                hooks, BOUND);
        toClose.add(e);
        return e;
    }

    private ZooKeeper session(java.util.function.Consumer<org.apache.zookeeper.WatchedEvent> forward)
            throws Exception {
        ZooKeeper zk = Sessions.open(target.connectString(), target, forward::accept);
        toClose.add(() -> Sessions.closeQuietly(zk));
        return zk;
    }

    @Test
    void predecessorVanishingBetweenGetChildrenAndExistsIsRecheckedAtOnce() throws Exception {
        String path = electionPath("vanish");
        // A predecessor that will be deleted exactly between the candidate's getChildren and its exists.
        String predecessor = admin.create(path + "/n_other-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL_SEQUENTIAL);
        AtomicInteger hookCalls = new AtomicInteger();
        ZooKeeper zk = session(e -> { });
        LeaderElection.Hooks deleteIt = watched -> {
            hookCalls.incrementAndGet();
            assertThat(watched).isEqualTo(predecessor);
            try {
                admin.delete(watched, -1);
                // The candidate's server may lag the admin's: let it catch up, so that the candidate's exists
                // really finds the node gone (else it would see it, watch it, and learn of the deletion by a
                // notification — the other, ordinary path).
                zk.sync(path);
            } catch (KeeperException | InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        HerdCounters counters = new HerdCounters();
        Events events = new Events();
        LeaderElection c = candidate(zk, path, "c1", events, counters, deleteIt);
        c.start();
        Leadership term = events.awaitTermAfter(-1, "candidate leads");
        assertThat(c.hasLeadership()).isTrue();
        assertThat(hookCalls).hasValue(1);
        // It led without any notification: exists said the node was gone and it read the children again at once.
        assertThat(counters.notifications()).isZero();
        assertThat(counters.getChildrenCalls()).isEqualTo(2);
        assertThat(events.log).containsExactly("volunteering", "acquired " + term.token());
    }

    /**
     * A session event that reaches a new candidacy just before its start (a candidate process's SyncConnected,
     * delivered by the client's event thread after the session was handed over) runs on the recipe's thread after
     * the start: it must not make the candidate create a node and lead before it volunteered. It did: the history
     * then showed the acquire invoked after its ok was refused, a leader nobody knew of, and every other candidate
     * waiting behind it (a client-process run with no leader for its whole length).
     */
    @Test
    void aSessionEventJustBeforeTheStartDoesNotMakeTheCandidateLeadBeforeItVolunteers() throws Exception {
        String path = electionPath("event-before-start");
        for (int i = 0; i < 5; i++) {
            Events events = new Events();
            LeaderElection c = candidate(session(e -> { }), path, "c" + i, events, new HerdCounters(),
                    LeaderElection.Hooks.NONE);
            c.sessionEvent(new WatchedEvent(Watcher.Event.EventType.None, Watcher.Event.KeeperState.SyncConnected,
                    null));
            c.start();
            Leadership term = events.awaitTermAfter(-1, "candidate c" + i + " leads");
            assertThat(events.log).as("what candidate c%d told its listener", i)
                    .containsExactly("volunteering", "acquired " + term.token());
            assertThat(term.path()).as("its node is named by its candidacy").doesNotContain("n_null-");
            c.close();
            events.awaitLine("ended closed");
        }
    }

    @Test
    void connectionLossAfterARealCreateFindsTheNodeAgainInsteadOfCreatingASecond() throws Exception {
        String path = electionPath("lost-create");
        AtomicInteger lostCreates = new AtomicInteger();
        // The create really happens on the server, then the caller sees ConnectionLoss (the reply was "lost").
        Sessions.Factory lossy = (cs, timeout, watcher, config) -> new ZooKeeper(cs, timeout, watcher, config) {
            @Override
            public String create(String p, byte[] data, List<ACL> acl, CreateMode mode, Stat stat)
                    throws KeeperException, InterruptedException {
                String created = super.create(p, data, acl, mode, stat);
                if (lostCreates.getAndIncrement() == 0) {
                    throw new KeeperException.ConnectionLossException();
                }
                return created;
            }
        };
        // Someone leads already, so the candidate must also wait correctly on the node it found again.
        Events leaderEvents = new Events();
        LeaderElection leader = candidate(session(e -> { }), path, "leader", leaderEvents, new HerdCounters(),
                LeaderElection.Hooks.NONE);
        leader.start();
        Leadership leaderTerm = leaderEvents.awaitTermAfter(-1, "first candidate leads");

        Events events = new Events();
        ZooKeeper zk = Sessions.open(lossy, target.connectString(), target, null);
        toClose.add(() -> Sessions.closeQuietly(zk));
        LeaderElection c = candidate(zk, path, "c2", events, new HerdCounters(), LeaderElection.Hooks.NONE);
        c.start();
        await("two candidates' nodes").atMost(BOUND).until(() -> childCount(path) == 2);
        leader.close();
        Leadership term = events.awaitTermAfter(-1, "the candidate leads after the leader resigns");
        assertThat(lostCreates).hasValue(1); // it never called create a second time
        admin.sync(path); // the admin's server may lag the servers the candidates wrote through
        List<String> children = admin.getChildren(path, false);
        assertThat(children).hasSize(1);
        assertThat(LeaderElection.sequenceOf(children.get(0))).isEqualTo(term.token());
        assertThat(admin.exists(path + "/" + children.get(0), false).getEphemeralOwner()).isEqualTo(zk.getSessionId());
        assertThat(leaderEvents.log).contains("releasing " + leaderTerm.token() + " closed");
    }

    @Test
    void expiredLeaderStopsLeadingAndTheNextCandidateTakesOverWithALargerToken() throws Exception {
        String path = electionPath("expiry");
        Events e1 = new Events();
        LeaderElection[] c1 = new LeaderElection[1];
        ZooKeeper zk1 = session(ev -> {
            if (c1[0] != null) {
                c1[0].sessionEvent(ev);
            }
        });
        c1[0] = candidate(zk1, path, "c1", e1, new HerdCounters(), LeaderElection.Hooks.NONE);
        c1[0].start();
        long token1 = e1.awaitTermAfter(-1, "c1 leads").token();

        Events e2 = new Events();
        LeaderElection[] c2 = new LeaderElection[1];
        ZooKeeper zk2 = session(ev -> {
            if (c2[0] != null) {
                c2[0].sessionEvent(ev);
            }
        });
        c2[0] = candidate(zk2, path, "c2", e2, new HerdCounters(), LeaderElection.Hooks.NONE);
        c2[0].start();
        e2.awaitLine("volunteering");

        ensemble.get().expire(zk1, target);
        e1.awaitLine("ended session-expired");
        assertThat(c1[0].hasLeadership()).isFalse();
        // It stopped leading as soon as it learned anything was wrong: the deletion of its ephemeral (the servers
        // notify the watch before they drop the connection), the disconnect, or the expiry itself.
        assertThat(e1.log).containsAnyOf("releasing " + token1 + " node-deleted",
                "releasing " + token1 + " disconnected", "releasing " + token1 + " session-expired");
        assertThat(e1.log.get(e1.log.size() - 1)).isEqualTo("ended session-expired");
        assertThat(e2.awaitTermAfter(-1, "c2 leads").token()).isGreaterThan(token1);
    }

    @Test
    void disconnectedLeaderReleasesAndVolunteersAgainWithANewTokenWhenBack() throws Exception {
        String path = electionPath("disconnect");
        // A session long enough to outlive n2's restart even on a loaded machine (the point is that it survives).
        Target onN2 = ensemble.get().onlyServer(2, Duration.ofSeconds(30), Duration.ofSeconds(5));
        Events events = new Events();
        LeaderElection[] c = new LeaderElection[1];
        ZooKeeper zk = Sessions.open(onN2.connectString(), onN2, ev -> {
            if (c[0] != null) {
                c[0].sessionEvent(ev);
            }
        });
        toClose.add(() -> Sessions.closeQuietly(zk));
        c[0] = candidate(zk, path, "c1", events, new HerdCounters(), LeaderElection.Hooks.NONE);
        c[0].start();
        long token = events.awaitTermAfter(-1, "leads").token();
        long session = zk.getSessionId();
        ensemble.get().kill(2);
        try {
            events.awaitLine("released " + token + " disconnected");
            assertThat(c[0].hasLeadership()).isFalse();
        } finally {
            ensemble.get().restart(2);
        }
        // Back within the session timeout: same session, old node given up, a new candidacy with a larger token.
        Leadership again = events.awaitTermAfter(token, "leads again with a new token");
        assertThat(zk.getSessionId()).isEqualTo(session);
        assertThat(events.log).containsSubsequence("acquired " + token, "releasing " + token + " disconnected",
                "released " + token + " disconnected", "volunteering", "acquired " + again.token());
        admin.sync(path);
        assertThat(admin.getChildren(path, false)).hasSize(1);
    }

    @Test
    void leaderWhoseNodeIsDeletedStopsAndVolunteersAgain() throws Exception {
        String path = electionPath("deleted");
        Events events = new Events();
        LeaderElection c = candidate(session(e -> { }), path, "c1", events, new HerdCounters(),
                LeaderElection.Hooks.NONE);
        c.start();
        Leadership first = events.awaitTermAfter(-1, "leads");
        long token = first.token();
        admin.delete(first.path(), -1);
        Leadership second = events.awaitTermAfter(token, "leads again with a new node");
        assertThat(events.log).containsSubsequence("acquired " + token, "releasing " + token + " node-deleted",
                "volunteering", "acquired " + second.token());
        c.close(); // returns once the cleanup is done (it waits up to BOUND for it)
        assertThat(c.state()).isEqualTo(LeaderElection.State.CLOSED);
        assertThat(events.log).endsWith("releasing " + second.token() + " closed",
                "released " + second.token() + " closed", "ended closed");
        admin.sync(path);
        assertThat(admin.getChildren(path, false)).isEmpty();
    }

    @Test
    void aResignWhoseDeleteIsLostDoesNotLeaveTheSessionsOldNodeBlockingTheElection() throws Exception {
        String path = electionPath("lost-delete");
        AtomicBoolean loseNextDelete = new AtomicBoolean();
        AtomicInteger lostDeletes = new AtomicInteger();
        // The delete never reaches the servers: the caller sees ConnectionLoss and the node stays (as when the
        // session's server drops its clients because it lost the ZooKeeper leader, the moment a leader resigns).
        Sessions.Factory lossy = (cs, timeout, watcher, config) -> new ZooKeeper(cs, timeout, watcher, config) {
            @Override
            public void delete(String p, int version) throws InterruptedException, KeeperException {
                if (loseNextDelete.getAndSet(false)) {
                    lostDeletes.incrementAndGet();
                    throw new KeeperException.ConnectionLossException();
                }
                super.delete(p, version);
            }
        };
        CandidateSession a = new OwnRecipe(LeaderElection.Watching.PREDECESSOR, LeaderElection.Hooks.NONE, lossy)
                .open("a", path, target, new HerdCounters());
        toClose.add(a);
        Events first = new Events();
        a.startCandidacy(first);
        Leadership aTerm = first.awaitTermAfter(-1, "a leads");

        Events bEvents = new Events();
        LeaderElection b = candidate(session(e -> { }), path, "b", bEvents, new HerdCounters(),
                LeaderElection.Hooks.NONE);
        b.start();
        await("b waits behind a").atMost(BOUND).until(() -> childCount(path) == 2);

        loseNextDelete.set(true);
        a.resign(); // a leader resigning: release "closed", then the delete, which is lost
        assertThat(lostDeletes).hasValue(1);
        assertThat(first.log).endsWith("releasing " + aTerm.token() + " closed", "released " + aTerm.token()
                + " closed", "ended closed");
        assertThat(admin.exists(aTerm.path(), false)).as("the lost delete left a's node behind").isNotNull();

        // The same session volunteers again, as the workload does after every resignation. Its live session keeps
        // the old node, which b waits on: without the cleanup nobody leads for as long as a's session lives.
        Events second = new Events();
        a.startCandidacy(second);
        assertThat(bEvents.awaitTermAfter(-1, "b leads").token()).isGreaterThan(aTerm.token());
        admin.sync(path);
        assertThat(admin.exists(aTerm.path(), false)).as("a's old node deleted by its next candidacy").isNull();
        await("a's new candidacy waits behind b").atMost(BOUND).until(() -> childCount(path) == 2);
        assertThat(second.log).containsExactly("volunteering");
    }

    private int childCount(String path) {
        try {
            return admin.getChildren(path, false).size();
        } catch (Exception e) {
            return -1;
        }
    }
}
