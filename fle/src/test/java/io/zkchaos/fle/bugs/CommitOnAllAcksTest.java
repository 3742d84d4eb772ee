package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.sim.Firewall;
import io.zkchaos.fle.sim.SimCluster;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code commit-on-all-acks}: one follower stalls — everything it sends is held for 5 s, as a paused process's would
 * be, while its connection stays open and it still hears its leader. The correct leader commits with the other
 * follower; the buggy one waits for the stalled follower's ACK, so the write is acknowledged only once the stall ends.
 */
class CommitOnAllAcksTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final long STALL_MS = 5_000;

    private record Outcome(SimCluster cluster, long leader, ClientReply[] reply) {
    }

    private static Outcome writeWhileAFollowerStalls(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        c.startAll();
        long leader = c.awaitStable(LIMIT);
        long stalled = c.sids().stream().filter(s -> s != leader).findFirst().orElseThrow();
        c.firewall().delay(stalled, Firewall.ANY, null, STALL_MS);
        ClientReply[] reply = c.submitPut(leader, "k", "v");
        c.runUntil(() -> reply[0] != null, Duration.ofSeconds(2));
        return new Outcome(c, leader, reply);
    }

    @Test
    void correctlyAQuorumCommitsWhileOneFollowerStalls() {
        Outcome o = writeWhileAFollowerStalls(Bugs.NONE);
        assertThat(o.reply()[0]).isInstanceOf(ClientReply.Written.class);
        assertThat(o.cluster().bugPaths()).as("no flag, no count").isEmpty();
    }

    @Test
    void waitingForEveryFollowerStallsTheWriteUntilTheStalledOneAcks() {
        Outcome o = writeWhileAFollowerStalls(Bugs.of(Bug.COMMIT_ON_ALL_ACKS));
        SimCluster c = o.cluster();
        assertThat(o.reply()[0]).as("no answer in 2 s while a majority is up and connected").isNull();
        assertThat(c.bugPaths()).as("one proposal held past its quorum")
                .containsExactly(entry(Bug.COMMIT_ON_ALL_ACKS, 1L));
        assertThat(c.runUntil(() -> o.reply()[0] != null, LIMIT)).as("answered once the stalled ACK arrives").isTrue();
        assertThat(o.reply()[0]).isInstanceOf(ClientReply.Written.class);
        assertThat(c.clock().now()).isGreaterThanOrEqualTo(STALL_MS);
    }
}
