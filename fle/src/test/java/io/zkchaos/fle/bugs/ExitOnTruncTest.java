package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.sim.SimCluster;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.Txn;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code exit-on-trunc}: the leader is cut off from its followers while a client writes to it; it logs the write,
 * which no follower has, and steps down; the others elect a new leader; at the heal the old leader rejoins and is told
 * to TRUNC that proposal. The correct server cuts its log back and serves; the buggy one ends its process, and does
 * so again at every restart (its log still holds the proposal): a crash loop.
 */
class ExitOnTruncTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    private record Outcome(SimCluster cluster, long oldLeader) {
    }

    private static Outcome isolateTheLeaderWhileItTakesAWriteThenHeal(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        assertThat(c.put(leader, "k", "committed", LIMIT)).isInstanceOf(ClientReply.Written.class);
        List<Long> others = c.sids().stream().filter(s -> s != leader).toList();
        c.firewall().isolate(leader, others);
        ClientReply[] lost = c.submitPut(leader, "k", "never-committed");
        assertThat(c.runUntil(() -> others.stream().allMatch(s -> c.status(s).serving()
                && c.status(s).leader() != leader), LIMIT)).as("the majority has a new leader").isTrue();
        assertThat(c.runUntil(() -> c.status(leader).state() == ServerState.LOOKING, LIMIT)).isTrue();
        assertThat(lost[0]).as("never acknowledged").isNotInstanceOf(ClientReply.Written.class);
        assertThat(c.peer(leader).historySnapshot()).as("but logged by the isolated leader").hasSize(2);
        c.firewall().heal();
        return new Outcome(c, leader);
    }

    @Test
    void correctlyTheOldLeaderTruncatesAndServes() {
        Outcome o = isolateTheLeaderWhileItTakesAWriteThenHeal(Bugs.NONE);
        SimCluster c = o.cluster();
        c.awaitStable(LIMIT);
        assertThat(c.running(o.oldLeader())).isTrue();
        assertThat(c.committedLog(o.oldLeader())).extracting(Entry::txn)
                .containsExactly(new Txn.Put("k", "committed"));
        assertThat(c.exits()).isEmpty();
        assertThat(c.bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void theBuggyOldLeaderEndsItsProcessWhenToldToTruncateAndAgainAfterARestart() {
        Outcome o = isolateTheLeaderWhileItTakesAWriteThenHeal(Bugs.of(Bug.EXIT_ON_TRUNC));
        SimCluster c = o.cluster();
        assertThat(c.runUntil(() -> !c.running(o.oldLeader()), LIMIT)).as("it ended its process").isTrue();
        assertThat(c.exits()).singleElement().satisfies(e -> {
            assertThat(e.sid()).isEqualTo(o.oldLeader());
            assertThat(e.code()).isEqualTo(5);
            assertThat(e.reason()).contains("cannot truncate my log to 1.1");
        });
        assertThat(c.storage(o.oldLeader()).durableHistory()).as("its log still holds the proposal").hasSize(2);
        c.awaitStable(LIMIT); // the two others serve on

        c.start(o.oldLeader());
        assertThat(c.runUntil(() -> !c.running(o.oldLeader()), LIMIT)).as("and again after a restart").isTrue();
        assertThat(c.exits()).hasSize(2).allSatisfy(e -> assertThat(e.sid()).isEqualTo(o.oldLeader()));
        assertThat(c.bugPaths()).as("one TRUNC per incarnation").containsExactly(entry(Bug.EXIT_ON_TRUNC, 2L));
    }
}
