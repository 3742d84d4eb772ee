package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.sim.SimCluster;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.Origin;
import io.zkchaos.fle.zab.Txn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code elect-without-zxid}: five servers whose histories end at 1.9, 1.9, 1.9, 1.8, 1.8; servers 1 and 2 are down.
 * Proposal 1.9 is on three of five servers, so it was committed. The correct election picks 3, the only running server
 * that has it; without comparing zxids, 5 (the largest SID) wins.
 */
class ElectWithoutZxidTest {

    static final long COMMITTED = Zxid.of(1, 9);

    static SimCluster fiveWithZxids99988(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(5).bugs(bugs).build();
        int[] counters = {9, 9, 9, 8, 8};
        for (int i = 0; i < 5; i++) {
            List<Entry> es = new ArrayList<>();
            for (int k = 1; k <= counters[i]; k++) {
                es.add(new Entry(Zxid.of(1, k), new Txn.Put("k" + k, "v" + k), Origin.NONE));
            }
            c.storage(i + 1).seed(1, 1, es);
        }
        c.start(3);
        c.start(4);
        c.start(5);
        return c;
    }

    @Test
    void theCorrectElectionPicksTheServerWithTheCommittedProposal() {
        SimCluster c = fiveWithZxids99988(Bugs.NONE);
        assertThat(c.awaitStable(Duration.ofSeconds(10))).isEqualTo(3);
        assertThat(c.committedLog(5)).extracting(Entry::zxid).contains(COMMITTED);
        assertThat(c.bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void withoutZxidsTheStaleServerWinsTheElection() {
        SimCluster c = fiveWithZxids99988(Bugs.of(Bug.ELECT_WITHOUT_ZXID));
        c.run(Duration.ofSeconds(1));
        assertThat(c.decisions()).filteredOn(d -> d.vote().electionEpoch() == 1).as("the first round").hasSize(3)
                .allSatisfy(d -> assertThat(d.vote().leader()).isEqualTo(5));
        assertThat(c.decisions()).filteredOn(d -> d.sid() == 5).first()
                .extracting(SimCluster.Decision::state).isEqualTo(ServerState.LEADING);
        assertThat(c.bugPaths()).as("comparisons that 3's zxid would have won")
                .hasEntrySatisfying(Bug.ELECT_WITHOUT_ZXID, n -> assertThat(n).isPositive());
    }

    @Test
    void zabsDiscoveryFenceHidesItFromClientsAtTheCostOfLiveness() {
        // Server 3's ACKEPOCH shows a more recent history than the prospective leader 5's: 5 steps back. The next
        // round elects 5 again, and so on: nothing is lost, but no leader is ever established while 3 is up.
        SimCluster c = fiveWithZxids99988(Bugs.of(Bug.ELECT_WITHOUT_ZXID));
        c.run(Duration.ofSeconds(30));
        assertThat(c.servings()).as("nobody ever served").isEmpty();
        assertThat(c.decisions().size()).as("round after round").isGreaterThan(10);
        assertThat(c.decisions()).allSatisfy(d -> assertThat(d.vote().leader()).isEqualTo(5));
        assertThat(c.storage(3).durableHistory()).extracting(Entry::zxid).contains(COMMITTED);
    }
}
