package io.zkchaos.examples.counter;

import io.zkchaos.junit.ChaosContext;
import io.zkchaos.junit.ChaosTest;
import io.zkchaos.junit.ZkChaos;

/**
 * The example to copy: a user's own ZooKeeper code ({@link ZkCounter}) under a nemesis, its history checked for
 * linearizability. A fresh 3-node ensemble of ZooKeeper 3.9.5 starts for the test; the leader is killed and
 * restarted on a cycle while five client processes read and increment the counter; then the history is checked as a
 * compare-and-set register starting at 0, and the HTML report is written under {@code target/zkchaos/}. The test
 * fails with the checker's explanation and the report's path if the counter ever did something a single copy of it
 * could not have done.
 */
@ZkChaos(nodes = 3, zookeeper = "3.9.5")
class CounterChaosIT {

    @ChaosTest(nemesis = "kill-leader", time = "20s", recover = "5s", checkers = "linearizable",
            model = "cas-register", init = "0", seed = "14")
    void counterStaysLinearizable(ChaosContext chaos) throws InterruptedException {
        chaos.runClients(process -> new CounterClient(chaos.connectString(), chaos.sessionTimeout()));
    }
}
