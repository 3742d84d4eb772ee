package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.election.Notification;
import io.zkchaos.fle.sim.Firewall;
import io.zkchaos.fle.sim.SimCluster;
import io.zkchaos.fle.zab.MessageKind;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@code mix-election-epochs}: votes of an old round counted in the current one. Server 2's notifications to 1 are
 * 2.5 s late. Round 1 elects 3, which dies before it is established; 1 and 2 start round 2. Then 2's round-1 votes
 * (for 2, then for 3) reach 1: the correct server ignores them; the buggy one takes them as current votes.
 */
class MixElectionEpochsTest {

    private static SimCluster run(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        c.firewall().delay(2, 1, MessageKind.NOTIFICATION, 2_500);
        c.firewall().drop(Firewall.ANY, 3, MessageKind.FOLLOWERINFO); // 3 is never established
        // Once server 1 has heard 2's stale round-1 vote for 2, its next notification to 2 is late as well.
        AtomicBoolean staleSeen = new AtomicBoolean();
        c.network().observe(d -> {
            if (d.from() == 2 && d.to() == 1 && d.kind() == MessageKind.NOTIFICATION && d.time() > 1_000
                    && ((Notification) d.message()).electionEpoch() == 1 && !staleSeen.getAndSet(true)) {
                c.firewall().delay(1, 2, MessageKind.NOTIFICATION, 500);
            }
        });
        c.startAll();
        c.run(Duration.ofMillis(1_000));
        assertThat(c.decisions()).extracting(d -> d.vote().leader()).containsOnly(3L).hasSize(3);
        c.crash(3);
        c.awaitStable(Duration.ofSeconds(60));
        assertThat(staleSeen).isTrue();
        return c;
    }

    @Test
    void theCorrectElectionIgnoresTheStaleVotesAndRoundTwoElectsTwo() {
        SimCluster c = run(Bugs.NONE);
        assertThat(c.decisions()).filteredOn(d -> d.vote().electionEpoch() == 2)
                .extracting(SimCluster.Decision::sid, d -> d.vote().leader())
                .containsExactlyInAnyOrder(tuple(1L, 2L), tuple(2L, 2L));
        assertThat(c.servingLeader()).contains(2L);
        assertThat(c.bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void withMixedRoundsServerOneFollowsTheDeadServerWhileTwoLeadsInTheSameRound() {
        SimCluster c = run(Bugs.of(Bug.MIX_ELECTION_EPOCHS));
        assertThat(c.decisions()).filteredOn(d -> d.vote().electionEpoch() == 2)
                .extracting(SimCluster.Decision::sid, d -> d.vote().leader())
                .containsExactlyInAnyOrder(tuple(1L, 3L), tuple(2L, 2L));
        // Masked by ZAB: server 1 cannot sync with a dead leader and 2 cannot get a quorum without 1; both elect
        // again, later, and settle on 2.
        assertThat(c.servingLeader()).contains(2L);
        assertThat(c.bugPaths()).as("the stale votes that changed a proposal or completed a quorum")
                .hasEntrySatisfying(Bug.MIX_ELECTION_EPOCHS, n -> assertThat(n).isPositive());
    }
}
