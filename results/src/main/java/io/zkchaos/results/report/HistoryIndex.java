package io.zkchaos.results.report;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.HashMap;
import java.util.Map;

/** Finds the client operation an entry number belongs to (its invoke or its completion). */
final class HistoryIndex {

    private final Map<Long, Operation> byEntry;

    HistoryIndex(History history) {
        byEntry = new HashMap<>(history.operations().size() * 3);
        for (Operation op : history.operations()) {
            byEntry.put(op.invokeIndex(), op);
            if (op.completeIndex() >= 0) {
                byEntry.put(op.completeIndex(), op);
            }
        }
    }

    /** The operation with this invoke or completion entry, or null. */
    Operation at(long entry) {
        return byEntry.get(entry);
    }

    /** The time of an entry's operation side (invoke or completion), -1 when unknown. */
    long timeOf(long entry) {
        Operation op = at(entry);
        if (op == null) {
            return -1;
        }
        return entry == op.invokeIndex() ? op.invokeTime() : op.completeTime();
    }
}
