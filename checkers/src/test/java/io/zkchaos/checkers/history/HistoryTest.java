package io.zkchaos.checkers.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryTest {

    private static Op op(long i, int p, OpType t, String f, Object v) {
        return new Op(i, p, t, f, null, v, null, i * 10);
    }

    @Test
    void pairsInvokesWithCompletionsInInvokeOrder() {
        History h = History.of(List.of(
                op(0, 1, OpType.INVOKE, "write", 1L),
                op(1, 2, OpType.INVOKE, "read", null),
                op(2, 2, OpType.OK, "read", 0L),
                op(3, 1, OpType.OK, "write", 1L)));
        assertThat(h.operations()).hasSize(2);
        Operation w = h.operations().get(0);
        assertThat(w.f()).isEqualTo("write");
        assertThat(w.invokeIndex()).isZero();
        assertThat(w.completeIndex()).isEqualTo(3);
        assertThat(w.isOk()).isTrue();
        Operation r = h.operations().get(1);
        assertThat(r.output()).isEqualTo(0L);
        assertThat(r.id()).isEqualTo(1);
    }

    @Test
    void anInvokeWithoutCompletionIsIndeterminate() {
        History h = History.of(List.of(op(0, 1, OpType.INVOKE, "write", 1L)));
        assertThat(h.operations().get(0).isInfo()).isTrue();
        assertThat(h.operations().get(0).completeIndex()).isEqualTo(-1);
    }

    @Test
    void nemesisEntriesAreKeptButNotPaired() {
        History h = History.of(List.of(
                new Op(0, Op.NEMESIS, OpType.INFO, "start-partition", null, "halves", null, 0),
                op(1, 1, OpType.INVOKE, "read", null),
                new Op(2, Op.NEMESIS, OpType.INFO, "start-partition", null, List.of(List.of("n1")), null, 0),
                op(3, 1, OpType.FAIL, "read", null)));
        assertThat(h.nemesisOps()).hasSize(2);
        assertThat(h.operations()).singleElement().extracting(Operation::isFail).isEqualTo(true);
    }

    @Test
    void rejectsACompletionWithoutInvoke() {
        assertThatThrownBy(() -> History.of(List.of(op(0, 3, OpType.OK, "read", 1L)), i -> "line " + (i + 1)))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("line 1")
                .hasMessageContaining("no invoke");
    }

    @Test
    void rejectsTwoOutstandingInvokesInOneProcess() {
        assertThatThrownBy(() -> History.of(List.of(
                op(0, 1, OpType.INVOKE, "read", null),
                op(1, 1, OpType.INVOKE, "write", 2L))))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("still outstanding")
                .extracting(e -> ((MalformedHistoryException) e).opIndex()).isEqualTo(1L);
    }

    @Test
    void rejectsACompletionOfAnotherFunction() {
        assertThatThrownBy(() -> History.of(List.of(
                op(0, 1, OpType.INVOKE, "read", null),
                op(1, 1, OpType.OK, "write", 2L))))
                .hasMessageContaining("completes write but invoked read");
    }

    @Test
    void rejectsIndicesThatDoNotIncrease() {
        assertThatThrownBy(() -> History.of(List.of(
                op(5, 1, OpType.INVOKE, "read", null),
                op(5, 1, OpType.OK, "read", 2L))))
                .hasMessageContaining("not greater");
    }
}
