package io.zkchaos.examples.counter;

import io.zkchaos.junit.ChaosContext;
import io.zkchaos.junit.ChaosTest;
import io.zkchaos.junit.ZkChaos;

/**
 * {@link CounterChaosIT} in brief: the same counter under the same nemesis for 5 s instead of 20, so that it runs in
 * every {@code mvn verify} of this repository (a {@code *ChaosIT} runs only with {@code -Pchaos}). It is the passing
 * control of the JUnit extension: correct client code, a real ensemble, a leader killed, operations acknowledged, a
 * valid verdict and a green test; the failing cases are in the junit module's {@code ChaosTestFailureIT}.
 */
@ZkChaos(nodes = 3, zookeeper = "3.9.5")
class CounterQuickIT {

    @ChaosTest(nemesis = "kill-leader", time = "5s", recover = "3s", checkers = "linearizable",
            model = "cas-register", init = "0", seed = "14")
    void counterStaysLinearizable(ChaosContext chaos) throws InterruptedException {
        chaos.runClients(process -> new CounterClient(chaos.connectString(), chaos.sessionTimeout()));
    }
}
