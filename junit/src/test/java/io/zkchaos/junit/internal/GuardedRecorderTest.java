package io.zkchaos.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.junit.PendingOperation;
import java.util.List;
import org.junit.jupiter.api.Test;

class GuardedRecorderTest {

    private final InMemoryRecorder history = new InMemoryRecorder();
    private final GuardedRecorder recorder = new GuardedRecorder(history);

    @Test
    void recordsInvokeAndCompletionWithJepsensTypes() {
        recorder.invoke(0, "read", null).ok(3L);
        recorder.invoke(0, "cas", List.of(3L, 4L)).fail("bad-version");
        recorder.invoke(1, "write", "r1", 5L).info("connection-loss");

        List<Op> ops = history.history().ops();
        assertThat(ops).extracting(Op::type).containsExactly(OpType.INVOKE, OpType.OK, OpType.INVOKE, OpType.FAIL,
                OpType.INVOKE, OpType.INFO);
        assertThat(ops.get(1).value()).isEqualTo(3L);
        assertThat(ops.get(3).error()).isEqualTo("bad-version");
        assertThat(ops.get(4).key()).isEqualTo("r1");
        assertThat(ops.get(5).process()).isEqualTo(1);
    }

    @Test
    void aProcessRetiredByAnInfoNeverInvokesAgain() {
        recorder.invoke(2, "write", 1L).info("session-expired");
        assertThat(recorder.retired(2)).isTrue();
        assertThatThrownBy(() -> recorder.invoke(2, "read", null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("process 2 was retired by an info");
        recorder.invoke(7, "read", null).ok(1L); // its replacement goes on
    }

    @Test
    void oneOperationInFlightPerProcessEachCompletedOnce() {
        PendingOperation read = recorder.invoke(0, "read", null);
        assertThat(recorder.inFlight(0)).isSameAs(read);
        assertThatThrownBy(() -> recorder.invoke(0, "write", 1L))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already has an operation in flight");
        read.ok(1L);
        assertThat(recorder.inFlight(0)).isNull();
        assertThatThrownBy(() -> read.fail("no")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("completed already");
        assertThat(history.history().ops()).hasSize(2);
    }
}
