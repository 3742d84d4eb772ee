package io.zkchaos.fle.zab;

import io.zkchaos.fle.Zxid;
import java.util.Objects;

/** One proposal of the history: its zxid, the command, and who asked for it. */
public record Entry(long zxid, Txn txn, Origin origin) {

    public Entry {
        Objects.requireNonNull(txn, "txn");
        Objects.requireNonNull(origin, "origin");
        if (zxid <= 0) {
            throw new IllegalArgumentException("an entry's zxid must be positive: " + zxid);
        }
    }

    @Override
    public String toString() {
        return Zxid.show(zxid) + " " + txn;
    }
}
