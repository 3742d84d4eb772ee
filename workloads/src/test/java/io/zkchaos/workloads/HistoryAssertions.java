package io.zkchaos.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.HashMap;
import java.util.Map;

/** Checks every workload history must pass. */
public final class HistoryAssertions {

    private HistoryAssertions() {
    }

    /**
     * Well-formed (History.of accepts it), every invoke completed, and a process that saw info never does anything
     * again except record the end of its leadership (the election workloads' release).
     */
    public static History wellFormed(InMemoryHistory rec) {
        History h = rec.history();
        Map<Integer, Operation> infoOf = new HashMap<>();
        for (Operation op : h.operations()) {
            assertThat(op.completeIndex()).as("completed: %s", op).isGreaterThanOrEqualTo(0);
            Operation info = infoOf.get(op.process());
            if (info != null) {
                assertThat(op.f()).as("process %d acts after its info %s: %s", op.process(), info, op)
                        .isEqualTo("release");
            }
            if (op.isInfo()) {
                infoOf.put(op.process(), op);
            }
        }
        return h;
    }

    /** Adapter so tests can pass the recorder they used. */
    @FunctionalInterface
    public interface InMemoryHistory {
        History history();
    }
}
