package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.sim.SimCluster;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.MessageKind;
import io.zkchaos.fle.zab.Txn;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code ack-before-durable}: the leader and one follower ACK a write (the third server never gets it); the client
 * hears it is done; both are killed at that instant and restarted from what their storage holds.
 */
class AckBeforeDurableTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    private record Outcome(ClientReply reply, SimCluster cluster, long leader, long follower) {
    }

    private static Outcome writeThenKillTheQuorumThatAcked(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        long follower = c.sids().stream().filter(s -> s != leader).findFirst().orElseThrow();
        long third = c.sids().stream().filter(s -> s != leader && s != follower).findFirst().orElseThrow();
        c.firewall().drop(leader, third, MessageKind.PROPOSAL);
        c.firewall().drop(leader, third, MessageKind.COMMIT);
        ClientReply reply = c.put(leader, "k", "acked", LIMIT);
        c.crash(leader);
        c.crash(follower);
        c.firewall().heal();
        c.start(leader);
        c.start(follower);
        c.awaitStable(LIMIT);
        return new Outcome(reply, c, leader, follower);
    }

    @Test
    void correctlyAnAcknowledgedWriteSurvivesTheCrash() {
        Outcome o = writeThenKillTheQuorumThatAcked(Bugs.NONE);
        assertThat(o.reply()).isInstanceOf(ClientReply.Written.class);
        for (long s : o.cluster().sids()) {
            assertThat(o.cluster().committedLog(s)).extracting(Entry::txn).containsExactly(new Txn.Put("k", "acked"));
        }
        assertThat(o.cluster().bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void ackingBeforeTheWriteLosesAnAcknowledgedWrite() {
        Outcome o = writeThenKillTheQuorumThatAcked(Bugs.of(Bug.ACK_BEFORE_DURABLE));
        assertThat(o.reply()).as("the client was told it is done").isInstanceOf(ClientReply.Written.class);
        assertThat(o.cluster().storage(o.leader()).durableHistory()).as("never reached the leader's log").isEmpty();
        for (long s : o.cluster().sids()) {
            assertThat(o.cluster().committedLog(s)).as("server %d", s).isEmpty();
        }
        assertThat(o.cluster().bugPaths()).as("the leader's own ACK and the follower's, both before the write")
                .containsExactly(entry(Bug.ACK_BEFORE_DURABLE, 2L));
    }

    @Test
    void theHeldWriteReachesTheLogAfterTheDelayWhenNothingCrashes() {
        SimCluster c = SimCluster.builder().servers(3).bugs(Bugs.of(Bug.ACK_BEFORE_DURABLE)).build();
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        assertThat(c.bugPaths()).as("switched on, but nothing was ACKed yet").containsExactly(
                entry(Bug.ACK_BEFORE_DURABLE, 0L));
        c.put(leader, "k", "v", LIMIT);
        assertThat(c.storage(leader).durableHistory()).isEmpty();
        assertThat(c.peer(leader).undurable()).isEqualTo(1);
        c.run(Duration.ofMillis(1_001));
        assertThat(c.storage(leader).durableHistory()).hasSize(1);
    }
}
