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
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code throw-on-early-commit}: a follower restarts and syncs with the established leader while a client writes; the
 * write's COMMIT reaches it after NEWLEADER and before UPTODATE (its ACK of NEWLEADER is on its way, held 200 ms
 * here so that the order is certain). The correct follower applies it; the buggy one throws, goes back to LOOKING and
 * rejoins.
 */
class ThrowOnEarlyCommitTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    private record Outcome(SimCluster cluster, long follower, int lookingsBefore) {
    }

    private static Outcome commitDuringTheSyncOfARestartedFollower(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        long follower = c.sids().stream().filter(s -> s != leader).findFirst().orElseThrow();
        c.crash(follower);
        int lookingsBefore = c.lookings().size();
        var slowAck = c.firewall().delay(follower, leader, MessageKind.ACKNEWLEADER, 200);
        boolean[] newLeaderArrived = {false};
        c.network().observe(d -> {
            if (d.to() == follower && d.kind() == MessageKind.NEWLEADER) {
                newLeaderArrived[0] = true;
            }
        });
        c.start(follower);
        assertThat(c.runUntil(() -> newLeaderArrived[0], LIMIT)).as("the restarted follower got NEWLEADER").isTrue();
        assertThat(c.put(leader, "k", "v", LIMIT)).as("the leader and the other follower are a quorum")
                .isInstanceOf(ClientReply.Written.class);
        c.run(Duration.ofMillis(300));
        c.firewall().remove(slowAck);
        c.awaitStable(LIMIT);
        return new Outcome(c, follower, lookingsBefore);
    }

    @Test
    void correctlyTheFollowerAppliesACommitThatComesBeforeUpToDate() {
        Outcome o = commitDuringTheSyncOfARestartedFollower(Bugs.NONE);
        SimCluster c = o.cluster();
        assertThat(c.lookings().subList(o.lookingsBefore(), c.lookings().size())).as("nobody left its role")
                .isEmpty();
        assertThat(c.committedLog(o.follower())).extracting(Entry::txn).containsExactly(new Txn.Put("k", "v"));
        assertThat(c.bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void theBuggyFollowerThrowsGoesBackToLookingAndRejoins() {
        Outcome o = commitDuringTheSyncOfARestartedFollower(Bugs.of(Bug.THROW_ON_EARLY_COMMIT));
        SimCluster c = o.cluster();
        List<SimCluster.Looking> after = c.lookings().subList(o.lookingsBefore(), c.lookings().size());
        assertThat(after).as("the follower left its leader on the exception").singleElement().satisfies(l -> {
            assertThat(l.sid()).isEqualTo(o.follower());
            assertThat(l.reason()).contains("exception when following the leader",
                    "IllegalStateException: COMMIT of", "before UPTODATE");
        });
        assertThat(c.servings()).as("and served again after it").anySatisfy(s -> {
            assertThat(s.sid()).isEqualTo(o.follower());
            assertThat(s.time()).isGreaterThan(after.get(0).time());
        });
        assertThat(c.committedLog(o.follower())).extracting(Entry::txn).containsExactly(new Txn.Put("k", "v"));
        assertThat(c.bugPaths()).as("the one early COMMIT").containsExactly(entry(Bug.THROW_ON_EARLY_COMMIT, 1L));
    }
}
