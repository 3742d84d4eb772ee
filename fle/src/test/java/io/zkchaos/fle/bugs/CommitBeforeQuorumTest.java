package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.sim.Firewall;
import io.zkchaos.fle.sim.SimCluster;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.MessageKind;
import io.zkchaos.fle.zab.Txn;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code commit-before-quorum}: the leader's proposals reach no follower; then the leader dies and comes back. */
class CommitBeforeQuorumTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    @Test
    void correctlyAWriteNoFollowerHasIsNeverAcknowledged() {
        SimCluster c = SimCluster.builder().servers(3).build();
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        c.firewall().drop(leader, Firewall.ANY, MessageKind.PROPOSAL);
        assertThat(c.put(leader, "k", "v", Duration.ofSeconds(1))).as("no answer without a quorum").isNull();
        assertThat(c.committedLog(leader)).isEmpty();
        assertThat(c.bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void committingOnItsOwnAckTheLeaderAcknowledgesAWriteTheNextLeaderDoesNotHave() {
        SimCluster c = SimCluster.builder().servers(3).bugs(Bugs.of(Bug.COMMIT_BEFORE_QUORUM)).build();
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        assertThat(c.bugPaths()).as("switched on, nothing committed yet").containsExactly(
                entry(Bug.COMMIT_BEFORE_QUORUM, 0L));
        c.firewall().drop(leader, Firewall.ANY, MessageKind.PROPOSAL);
        ClientReply r = c.put(leader, "k", "v", LIMIT);
        assertThat(r).isInstanceOf(ClientReply.Written.class);
        List<Entry> before = c.committedLog(leader);
        assertThat(before).extracting(Entry::txn).containsExactly(new Txn.Put("k", "v"));

        c.crash(leader);
        c.firewall().heal();
        long next = c.awaitStable(LIMIT);
        c.start(leader);
        c.awaitStable(LIMIT);
        assertThat(c.servingLeader()).contains(next);
        for (long s : c.sids()) {
            assertThat(c.committedLog(s)).as("server %d: the acknowledged write is gone", s).isEmpty();
        }
        assertThat(c.bugPaths()).as("the one write, committed on the leader's own ACK")
                .containsExactly(entry(Bug.COMMIT_BEFORE_QUORUM, 1L));
    }
}
