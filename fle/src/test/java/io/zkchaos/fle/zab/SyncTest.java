package io.zkchaos.fle.zab;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.Timing;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.sim.Firewall;
import io.zkchaos.fle.sim.SimCluster;
import io.zkchaos.fle.sim.SimNetwork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ZAB synchronisation: a follower's history is brought to the leader's by DIFF, TRUNC or SNAP. */
class SyncTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    /** The sync messages (DIFF, TRUNC, SNAP) delivered to {@code to}. */
    private static List<QuorumMessage> syncsTo(List<SimNetwork.Delivery> log, long to) {
        return log.stream()
                .filter(d -> d.to() == to && (d.kind() == MessageKind.DIFF || d.kind() == MessageKind.TRUNC
                        || d.kind() == MessageKind.SNAP))
                .map(d -> (QuorumMessage) d.message())
                .toList();
    }

    private static long otherThan(SimCluster c, long... not) {
        return c.sids().stream().filter(s -> java.util.Arrays.stream(not).noneMatch(n -> n == s)).findFirst()
                .orElseThrow();
    }

    @Test
    void aFollowerThatMissedWritesCatchesUpByDiff() {
        SimCluster c = SimCluster.builder().servers(3).build();
        List<SimNetwork.Delivery> log = new ArrayList<>();
        c.network().observe(log::add);
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        long lagging = otherThan(c, leader);
        c.crash(lagging);
        for (int i = 0; i < 3; i++) {
            assertThat(c.put(leader, "k", "v" + i, LIMIT)).isInstanceOf(ClientReply.Written.class);
        }
        log.clear();
        c.start(lagging);
        c.awaitStable(LIMIT);
        assertThat(syncsTo(log, lagging)).containsExactly(new QuorumMessage.Diff(0));
        assertThat(log).filteredOn(d -> d.to() == lagging && d.kind() == MessageKind.PROPOSAL).hasSize(3);
        assertThat(c.peer(lagging).historySnapshot()).isEqualTo(c.peer(leader).historySnapshot());
        assertThat(c.committedLog(lagging)).isEqualTo(c.committedLog(leader)).hasSize(3);
    }

    @Test
    void aFollowerUpToDateGetsAnEmptyDiff() {
        SimCluster c = SimCluster.builder().servers(3).build();
        List<SimNetwork.Delivery> log = new ArrayList<>();
        c.network().observe(log::add);
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        c.put(leader, "k", "v", LIMIT);
        long f = otherThan(c, leader);
        c.run(Duration.ofMillis(50));
        log.clear();
        c.restart(f);
        c.awaitStable(LIMIT);
        long last = c.peer(leader).historySnapshot().get(0).zxid();
        assertThat(syncsTo(log, f)).containsExactly(new QuorumMessage.Diff(last));
        assertThat(log).filteredOn(d -> d.to() == f && d.kind() == MessageKind.PROPOSAL).isEmpty();
    }

    @Test
    void aProposalThatWasNeverCommittedIsTruncatedFromTheOldLeader() {
        SimCluster c = SimCluster.builder().servers(3).build();
        List<SimNetwork.Delivery> log = new ArrayList<>();
        c.network().observe(log::add);
        c.startAll();
        long old = c.awaitStable(LIMIT);
        assertThat(c.put(old, "k", "committed", LIMIT)).isInstanceOf(ClientReply.Written.class);
        // The old leader logs a proposal nobody else receives, so it never commits.
        List<Firewall.Rule> cut = List.of(
                c.firewall().drop(old, Firewall.ANY, MessageKind.PROPOSAL));
        ClientReply[] lost = c.submitPut(old, "k", "never-committed");
        c.run(Duration.ofMillis(50));
        long stray = c.peer(old).historySnapshot().get(1).zxid();
        assertThat(c.peer(old).historySnapshot()).hasSize(2);
        assertThat(lost[0]).as("not committed, so not answered").isNull();
        c.crash(old);
        c.firewall().removeAll(cut);
        long next = c.awaitStable(LIMIT);
        assertThat(c.put(next, "k", "new-epoch", LIMIT)).isInstanceOf(ClientReply.Written.class);

        log.clear();
        c.start(old);
        c.awaitStable(LIMIT);
        long common = c.peer(next).historySnapshot().get(0).zxid();
        assertThat(syncsTo(log, old)).containsExactly(new QuorumMessage.Trunc(common));
        assertThat(c.peer(old).historySnapshot()).isEqualTo(c.peer(next).historySnapshot())
                .extracting(Entry::zxid).doesNotContain(stray);
        assertThat(c.committedLog(old)).extracting(e -> ((Txn.Put) e.txn()).value())
                .containsExactly("committed", "new-epoch");
        assertThat(c.storage(old).durableHistory()).as("the truncation is durable")
                .isEqualTo(c.peer(old).historySnapshot());
    }

    @Test
    void aFollowerTooFarBehindGetsASnapshot() {
        SimCluster c = SimCluster.builder().servers(3).timing(Timing.DEFAULT.withMaxDiffEntries(2)).build();
        List<SimNetwork.Delivery> log = new ArrayList<>();
        c.network().observe(log::add);
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        long lagging = otherThan(c, leader);
        c.crash(lagging);
        for (int i = 0; i < 3; i++) {
            c.put(leader, "k", "v" + i, LIMIT);
        }
        log.clear();
        c.start(lagging);
        c.awaitStable(LIMIT);
        List<QuorumMessage> syncs = syncsTo(log, lagging);
        assertThat(syncs).hasSize(1).first().isInstanceOf(QuorumMessage.Snap.class);
        assertThat(((QuorumMessage.Snap) syncs.get(0)).history()).hasSize(3);
        assertThat(c.peer(lagging).historySnapshot()).isEqualTo(c.peer(leader).historySnapshot());
        assertThat(c.storage(lagging).durableHistory()).isEqualTo(c.peer(leader).historySnapshot());
        assertThat(c.peer(lagging).applied("k")).isEqualTo("v2");
    }

    @Test
    void aFollowerThatCannotTruncateAsksForASnapshot() {
        // Server 1 holds a proposal of epoch 1 the others never had, and lacks 1.1, which they have: a TRUNC to
        // 1.1 cannot be done, so it asks for a SNAP next time.
        SimCluster c = SimCluster.builder().servers(3).build();
        Entry a = new Entry(Zxid.of(1, 1), new Txn.Put("k", "a"), Origin.NONE);
        Entry stray = new Entry(Zxid.of(1, 2), new Txn.Put("k", "stray"), Origin.NONE);
        Entry b = new Entry(Zxid.of(2, 1), new Txn.Put("k", "b"), Origin.NONE);
        c.storage(1).seed(1, 1, List.of(stray));
        c.storage(2).seed(2, 2, List.of(a, b));
        c.storage(3).seed(2, 2, List.of(a, b));
        List<SimNetwork.Delivery> log = new ArrayList<>();
        c.network().observe(log::add);
        c.startAll();
        c.awaitStable(LIMIT);
        assertThat(syncsTo(log, 1)).extracting(QuorumMessage::kind)
                .containsExactly(MessageKind.TRUNC, MessageKind.SNAP);
        assertThat(c.peer(1).historySnapshot()).containsExactly(a, b);
    }

    @Test
    void zxidsCountWithinAnEpochAndRestartInTheNext() {
        SimCluster c = SimCluster.builder().servers(3).build();
        c.startAll();
        long l1 = c.awaitStable(LIMIT);
        c.put(l1, "k", "a", LIMIT);
        c.put(l1, "k", "b", LIMIT);
        long e1 = c.status(l1).currentEpoch();
        c.crash(l1);
        long l2 = c.awaitStable(LIMIT);
        c.put(l2, "k", "c", LIMIT);
        assertThat(c.committedLog(l2)).extracting(Entry::zxid)
                .containsExactly(Zxid.of(e1, 1), Zxid.of(e1, 2), Zxid.of(e1 + 1, 1));
    }
}
