package io.zkchaos.junit;

/**
 * A chaos test whose body forgets to run its clients, run by {@link ChaosTestFailureIT} through JUnit's test kit (its
 * name matches no test pattern). The ensemble starts, the run is checked, and its history holds no operation: an
 * empty history is trivially linearizable, so without the extension's own check this test would pass.
 */
class SilentBodyExample {

    @ChaosTest(time = "2s", recover = "1s", model = "cas-register", init = "0", seed = "6")
    void bodyRecordsNothing(ChaosContext chaos) {
        // the clients were never started
    }
}
