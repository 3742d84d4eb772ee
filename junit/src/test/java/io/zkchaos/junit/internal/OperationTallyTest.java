package io.zkchaos.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.InMemoryRecorder;
import org.junit.jupiter.api.Test;

class OperationTallyTest {

    private final GuardedRecorder recorder = new GuardedRecorder(new InMemoryRecorder());

    @Test
    void aBodyThatRecordedNothingTestedNothing() {
        assertThat(recorder.tally()).isEqualTo(OperationTally.NONE);
        assertThat(recorder.tally().shortfall("CounterIT.counts")).hasValue("CounterIT.counts recorded no "
                + "operation, so nothing was tested: run clients with chaos.runClients(...), or record with "
                + "chaos.recorder(), while chaos.running()");
    }

    @Test
    void operationsOfWhichNoneWasAcknowledgedTestedNothingEither() {
        recorder.invoke(0, "read", null).info("connection-loss");
        recorder.invoke(5, "cas", java.util.List.of(0L, 1L)).fail("bad-version");
        recorder.invoke(5, "read", null); // still in flight

        assertThat(recorder.tally()).isEqualTo(new OperationTally(3, 0, 1, 1, "bad-version"));
        assertThat(recorder.tally().shortfall("CounterIT.counts")).hasValue("CounterIT.counts recorded 3 "
                + "operation(s) and none was acknowledged (ok): 1 fail, 1 info, 1 never completed; the last error: "
                + "bad-version. Nothing was tested: do the clients reach the ensemble (chaos.connectString())?");
    }

    @Test
    void oneAcknowledgedOperationIsEvidence() {
        recorder.invoke(0, "read", null).info("connection-loss");
        recorder.invoke(5, "read", null).ok(0L);

        assertThat(recorder.tally()).isEqualTo(new OperationTally(2, 1, 0, 1, "connection-loss"));
        assertThat(recorder.tally().shortfall("CounterIT.counts")).isEmpty();
    }
}
