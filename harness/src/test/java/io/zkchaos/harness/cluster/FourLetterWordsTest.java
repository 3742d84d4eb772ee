package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.zkchaos.harness.cluster.NodeStatus.Mode;
import org.junit.jupiter.api.Test;

/** {@code srvr} answers of both kinds of server, as they write them. */
class FourLetterWordsTest {

    @Test
    void zooKeepersEpochIsItsZxidsHighHalf() {
        NodeStatus s = FourLetterWords.parseSrvr("n1", """
                Zookeeper version: 3.9.5-abc, built on 2025-01-01 00:00 UTC
                Latency min/avg/max: 0/0.1/3
                Received: 12
                Sent: 11
                Connections: 1
                Outstanding: 0
                Zxid: 0x300000007
                Mode: leader
                Node count: 5
                """);
        assertThat(s.mode()).isEqualTo(Mode.LEADER);
        assertThat(s.zxid()).isEqualTo(0x300000007L);
        assertThat(s.epoch()).isEqualTo(3);
    }

    @Test
    void anFleNodeStatesItsEpochEvenBeforeItsFirstWriteInIt() {
        // A leader of epoch 2 whose last logged proposal is still of epoch 1: the zxid alone would say 1.
        NodeStatus s = FourLetterWords.parseSrvr("n3", """
                Zookeeper version: zk-chaos fle node 3
                Mode: leader
                Zxid: 0x100000004
                State: LEADING
                Serving: true
                Leader: 3
                Epoch: 2
                Accepted epoch: 2
                Committed: 0x100000004
                Election round: 2
                """);
        assertThat(s.mode()).isEqualTo(Mode.LEADER);
        assertThat(s.zxid()).isEqualTo(0x100000004L);
        assertThat(s.epoch()).isEqualTo(2);
        assertThat(s.bugPaths()).as("the correct build has no bug line").isEmpty();
    }

    @Test
    void anFleNodeWithBugFlagsSaysHowOftenTheirPathsRanServingOrNot() {
        String counts = "Bug code paths: ack-before-durable 412, no-finalize-wait 0\n";
        NodeStatus serving = FourLetterWords.parseSrvr("n1", """
                Zookeeper version: zk-chaos fle node 1
                Mode: follower
                Zxid: 0x200000009
                Epoch: 2
                """ + counts);
        assertThat(serving.mode()).isEqualTo(Mode.FOLLOWER);
        assertThat(serving.bugPaths()).containsOnly(entry("ack-before-durable", 412L),
                entry("no-finalize-wait", 0L));
        NodeStatus looking = FourLetterWords.parseSrvr("n1", """
                Zookeeper version: zk-chaos fle node 1
                This ZooKeeper instance is not currently serving requests
                Zxid: 0x200000009
                """ + counts);
        assertThat(looking.mode()).isEqualTo(Mode.NOT_SERVING);
        assertThat(looking.bugPaths()).containsEntry("ack-before-durable", 412L);
    }

    @Test
    void anFleNodeThatDoesNotServeSaysItAsZooKeeperDoes() {
        NodeStatus s = FourLetterWords.parseSrvr("n2", """
                Zookeeper version: zk-chaos fle node 2
                This ZooKeeper instance is not currently serving requests
                Zxid: 0x100000004
                State: LOOKING
                Serving: false
                Leader: -1
                Epoch: 1
                Accepted epoch: 1
                """);
        assertThat(s.mode()).isEqualTo(Mode.NOT_SERVING);
    }
}
