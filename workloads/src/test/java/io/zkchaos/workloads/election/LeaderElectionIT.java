package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.workloads.Ensemble;
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

/** The recipe's edge cases, each provoked deterministically against a real 3-node ensemble. */
class LeaderElectionIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);
    private static Target target;
    private ZooKeeper admin;
    private final List<AutoCloseable> toClose = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        target = ensemble.get().target(Duration.ofSeconds(2), Duration.ofSeconds(2));
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

    /** Records what the recipe reports, in order. */
    static final class Events implements LeaderElection.Listener {
        final List<String> log = new CopyOnWriteArrayList<>();
        volatile Leadership last;

        @Override
        public void volunteering() {
            log.add("volunteering");
        }

        @Override
        public void acquired(Leadership l) {
            last = l;
            log.add("acquired " + l.token());
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

    private LeaderElection candidate(ZooKeeper zk, String path, String id, Events events, HerdCounters counters,
                                     LeaderElection.Hooks hooks) {
        LeaderElection e = new LeaderElection(zk, path, id, LeaderElection.Watching.PREDECESSOR, events, counters,
                hooks, Duration.ofSeconds(4));
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
        Ensemble.eventually(Duration.ofSeconds(5), c::hasLeadership, "candidate leads");
        assertThat(hookCalls).hasValue(1);
        // It led without any notification: exists said the node was gone and it read the children again at once.
        assertThat(counters.notifications()).isZero();
        assertThat(counters.getChildrenCalls()).isEqualTo(2);
        assertThat(events.log).containsExactly("volunteering", "acquired " + events.last.token());
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
        Ensemble.eventually(Duration.ofSeconds(5), leader::hasLeadership, "first candidate leads");

        Events events = new Events();
        ZooKeeper zk = Sessions.open(lossy, target.connectString(), target, null);
        toClose.add(() -> Sessions.closeQuietly(zk));
        LeaderElection c = candidate(zk, path, "c2", events, new HerdCounters(), LeaderElection.Hooks.NONE);
        c.start();
        Ensemble.eventually(Duration.ofSeconds(5), () -> {
            try {
                return admin.getChildren(path, false).size() == 2;
            } catch (Exception e) {
                return false;
            }
        }, "two candidates' nodes");
        leader.close();
        Ensemble.eventually(Duration.ofSeconds(5), c::hasLeadership, "the candidate leads after the leader resigns");
        assertThat(lostCreates).hasValue(1); // it never called create a second time
        List<String> children = admin.getChildren(path, false);
        assertThat(children).hasSize(1);
        assertThat(LeaderElection.sequenceOf(children.get(0))).isEqualTo(events.last.token());
        assertThat(admin.exists(path + "/" + children.get(0), false).getEphemeralOwner()).isEqualTo(zk.getSessionId());
        assertThat(leaderEvents.log).contains("releasing " + leaderEvents.last.token() + " closed");
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
        Ensemble.eventually(Duration.ofSeconds(5), c1[0]::hasLeadership, "c1 leads");
        long token1 = e1.last.token();

        Events e2 = new Events();
        LeaderElection[] c2 = new LeaderElection[1];
        ZooKeeper zk2 = session(ev -> {
            if (c2[0] != null) {
                c2[0].sessionEvent(ev);
            }
        });
        c2[0] = candidate(zk2, path, "c2", e2, new HerdCounters(), LeaderElection.Hooks.NONE);
        c2[0].start();
        Ensemble.eventually(Duration.ofSeconds(5), () -> e2.log.contains("volunteering"), "c2 volunteers");

        ensemble.get().expire(zk1, target);
        Ensemble.eventually(Duration.ofSeconds(10), () -> e1.log.contains("ended session-expired"),
                "c1 learns its session expired");
        assertThat(c1[0].hasLeadership()).isFalse();
        // It stopped leading as soon as it learned anything was wrong: the deletion of its ephemeral (the servers
        // notify the watch before they drop the connection), the disconnect, or the expiry itself.
        assertThat(e1.log).containsAnyOf("releasing " + token1 + " node-deleted",
                "releasing " + token1 + " disconnected", "releasing " + token1 + " session-expired");
        assertThat(e1.log.get(e1.log.size() - 1)).isEqualTo("ended session-expired");
        Ensemble.eventually(Duration.ofSeconds(10), c2[0]::hasLeadership, "c2 leads");
        assertThat(e2.last.token()).isGreaterThan(token1);
    }

    @Test
    void disconnectedLeaderReleasesAndVolunteersAgainWithANewTokenWhenBack() throws Exception {
        String path = electionPath("disconnect");
        Target onN2 = ensemble.get().onlyServer(2, Duration.ofSeconds(8), Duration.ofSeconds(2));
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
        Ensemble.eventually(Duration.ofSeconds(5), c[0]::hasLeadership, "leads");
        long token = events.last.token();
        ensemble.get().kill(2);
        try {
            Ensemble.eventually(Duration.ofSeconds(5), () -> events.log.contains("released " + token + " disconnected"),
                    "release on disconnect");
            assertThat(c[0].hasLeadership()).isFalse();
        } finally {
            ensemble.get().restart(2);
        }
        // Back within the session timeout: same session, old node given up, a new candidacy with a larger token.
        Ensemble.eventually(Duration.ofSeconds(20), () -> c[0].hasLeadership() && events.last.token() > token,
                "leads again with a new token");
        assertThat(events.log).containsSubsequence("acquired " + token, "releasing " + token + " disconnected",
                "released " + token + " disconnected", "volunteering", "acquired " + events.last.token());
        assertThat(admin.getChildren(path, false)).hasSize(1);
    }

    @Test
    void leaderWhoseNodeIsDeletedStopsAndVolunteersAgain() throws Exception {
        String path = electionPath("deleted");
        Events events = new Events();
        LeaderElection c = candidate(session(e -> { }), path, "c1", events, new HerdCounters(),
                LeaderElection.Hooks.NONE);
        c.start();
        Ensemble.eventually(Duration.ofSeconds(5), c::hasLeadership, "leads");
        long token = events.last.token();
        admin.delete(events.last.path(), -1);
        Ensemble.eventually(Duration.ofSeconds(5), () -> c.hasLeadership() && events.last.token() > token,
                "leads again with a new node");
        assertThat(events.log).containsSubsequence("acquired " + token, "releasing " + token + " node-deleted",
                "volunteering", "acquired " + events.last.token());
        c.close();
        assertThat(c.state()).isEqualTo(LeaderElection.State.CLOSED);
        assertThat(events.log).endsWith("releasing " + events.last.token() + " closed",
                "released " + events.last.token() + " closed", "ended closed");
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
        Ensemble.eventually(Duration.ofSeconds(5), () -> first.last != null, "a leads");
        Leadership aTerm = first.last;

        Events bEvents = new Events();
        LeaderElection b = candidate(session(e -> { }), path, "b", bEvents, new HerdCounters(),
                LeaderElection.Hooks.NONE);
        b.start();
        Ensemble.eventually(Duration.ofSeconds(5), () -> childCount(path) == 2, "b waits behind a");

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
        Ensemble.eventually(Duration.ofSeconds(10), b::hasLeadership, "b leads");
        assertThat(bEvents.last.token()).isGreaterThan(aTerm.token());
        assertThat(admin.exists(aTerm.path(), false)).as("a's old node deleted by its next candidacy").isNull();
        Ensemble.eventually(Duration.ofSeconds(5), () -> childCount(path) == 2, "a's new candidacy waits behind b");
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
