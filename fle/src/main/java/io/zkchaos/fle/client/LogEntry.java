package io.zkchaos.fle.client;

import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.zab.Txn;
import java.util.List;

/** One entry of a node's committed log. */
public record LogEntry(long zxid, Txn txn) {

    /** As the {@code log-prefix} checker reads it: {@code [zxid, {"op": ..., "key": ..., ...}]}. */
    public List<Object> asData() {
        return List.of(zxid, txn.asData());
    }

    @Override
    public String toString() {
        return Zxid.show(zxid) + " " + txn.asData();
    }
}
