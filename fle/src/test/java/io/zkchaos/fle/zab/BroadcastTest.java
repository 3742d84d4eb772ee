package io.zkchaos.fle.zab;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.peer.ClientRequest;
import io.zkchaos.fle.sim.SimCluster;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BroadcastTest {

    @Test
    void writesThroughAFollowerAreCommittedEverywhereInOneOrder() {
        SimCluster c = SimCluster.builder().servers(3).build();
        c.startAll();
        long leader = c.awaitStable(Duration.ofSeconds(10));
        long follower = c.sids().stream().filter(s -> s != leader).findFirst().orElseThrow();
        ClientReply r = c.put(follower, "k", "v1", Duration.ofSeconds(5));
        assertThat(r).isInstanceOf(ClientReply.Written.class);
        assertThat(c.call(follower, new ClientRequest.Get("k"), Duration.ofSeconds(1)))
                .isEqualTo(new ClientReply.Value("v1"));
        c.put(leader, "k", "v2", Duration.ofSeconds(5));
        c.run(Duration.ofMillis(100));
        for (long s : c.sids()) {
            assertThat(c.committedLog(s)).extracting(Entry::txn)
                    .containsExactly(new Txn.Put("k", "v1"), new Txn.Put("k", "v2"));
        }
    }
}
