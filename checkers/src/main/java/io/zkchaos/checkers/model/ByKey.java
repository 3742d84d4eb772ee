package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Partitioning by {@link Operation#key()}: operations on different keys touch independent objects. */
final class ByKey {

    private ByKey() {
    }

    /**
     * One partition per distinct key (operations without a key form one partition of their own), in order of each
     * key's first operation; each partition keeps the operations' order.
     */
    static List<List<Operation>> partition(List<Operation> operations) {
        Map<String, List<Operation>> byKey = new HashMap<>();
        List<List<Operation>> out = new ArrayList<>();
        List<Operation> unkeyed = null;
        for (Operation op : operations) {
            String key = op.key();
            List<Operation> part;
            if (key == null) {
                if (unkeyed == null) {
                    unkeyed = new ArrayList<>();
                    out.add(unkeyed);
                }
                part = unkeyed;
            } else {
                part = byKey.get(key);
                if (part == null) {
                    part = new ArrayList<>();
                    byKey.put(key, part);
                    out.add(part);
                }
            }
            part.add(op);
        }
        return out;
    }
}
