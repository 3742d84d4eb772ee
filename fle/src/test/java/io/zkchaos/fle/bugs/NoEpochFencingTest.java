package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.sim.SimCluster;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.Origin;
import io.zkchaos.fle.zab.Txn;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code no-epoch-fencing}: discovery without its two fences. */
class NoEpochFencingTest {

    /**
     * Server 1 accepted epoch 5 from a prospective leader that never got established; 2 and 3 are at epoch 1. 2 and 3
     * elect 3, which proposes epoch 2; then 1 starts and joins 3.
     */
    private static SimCluster lateJoinerWithAHigherAcceptedEpoch(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        List<Entry> h = List.of(new Entry(Zxid.of(1, 1), new Txn.Put("k", "a"), Origin.NONE));
        c.storage(1).seed(5, 1, h);
        c.storage(2).seed(1, 1, h);
        c.storage(3).seed(1, 1, h);
        c.start(2);
        c.start(3);
        assertThat(c.awaitStable(Duration.ofSeconds(10))).isEqualTo(3);
        assertThat(c.status(3).currentEpoch()).isEqualTo(2);
        c.start(1);
        return c;
    }

    @Test
    void aFollowerRefusesANewEpochBelowItsAcceptedEpoch() {
        SimCluster c = lateJoinerWithAHigherAcceptedEpoch(Bugs.NONE);
        c.run(Duration.ofSeconds(10));
        assertThat(c.status(1).serving()).isFalse();
        assertThat(c.storage(1).acceptedEpoch()).isEqualTo(5);
        assertThat(c.servings()).noneMatch(s -> s.sid() == 1);
        assertThat(c.bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void withoutFencingAFollowerTakesAnEpochBelowOneItAlreadyAccepted() {
        SimCluster c = lateJoinerWithAHigherAcceptedEpoch(Bugs.of(Bug.NO_EPOCH_FENCING));
        c.awaitStable(Duration.ofSeconds(10));
        assertThat(c.storage(1).acceptedEpoch()).as("its acceptedEpoch went back from 5").isEqualTo(2);
        assertThat(c.status(1).currentEpoch()).isEqualTo(2);
        assertThat(c.bugPaths()).as("server 1 took LEADERINFO 2 below its acceptedEpoch 5, once")
                .containsExactly(entry(Bug.NO_EPOCH_FENCING, 1L));
    }

    @Test
    void withoutFencingAStaleLeaderTruncatesACommittedProposal() {
        // With elect-without-zxid alone, the fence hides the election's mistake (ElectWithoutZxidTest); without the
        // fence the stale leader 5 goes on and truncates 1.9 — committed on 1, 2 and 3 — from server 3.
        SimCluster c = ElectWithoutZxidTest.fiveWithZxids99988(
                Bugs.of(Bug.ELECT_WITHOUT_ZXID, Bug.NO_EPOCH_FENCING));
        assertThat(c.awaitStable(Duration.ofSeconds(10))).isEqualTo(5);
        for (long s : List.of(3L, 4L, 5L)) {
            assertThat(c.committedLog(s)).as("server %d's committed log", s).extracting(Entry::zxid)
                    .doesNotContain(ElectWithoutZxidTest.COMMITTED).last().isEqualTo(Zxid.of(1, 8));
        }
        assertThat(c.storage(3).durableHistory()).extracting(Entry::zxid)
                .doesNotContain(ElectWithoutZxidTest.COMMITTED);
        assertThat(c.bugPaths()).as("leader 5 went on past 3's ACKEPOCH")
                .hasEntrySatisfying(Bug.NO_EPOCH_FENCING, n -> assertThat(n).isPositive())
                .hasEntrySatisfying(Bug.ELECT_WITHOUT_ZXID, n -> assertThat(n).isPositive());
    }

    @Test
    void withTheFenceTheSameElectionMistakeLosesNothing() {
        SimCluster c = ElectWithoutZxidTest.fiveWithZxids99988(Bugs.of(Bug.ELECT_WITHOUT_ZXID));
        c.run(Duration.ofSeconds(10));
        assertThat(c.storage(3).durableHistory()).extracting(Entry::zxid)
                .contains(ElectWithoutZxidTest.COMMITTED);
        assertThat(c.bugPaths()).containsOnlyKeys(Bug.ELECT_WITHOUT_ZXID);
    }
}
