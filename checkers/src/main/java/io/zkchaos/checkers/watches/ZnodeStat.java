package io.zkchaos.checkers.watches;

import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.Operation;
import java.util.Map;

/**
 * What a watcher's read returned about one znode: absent, or present with the zxids and versions of its stat.
 *
 * @param exists  whether the znode existed
 * @param czxid   the zxid that created it (-1 when absent)
 * @param mzxid   the zxid that last changed its data (-1 when absent)
 * @param pzxid   the zxid that last changed its children (-1 when absent)
 * @param version its data version (-1 when absent)
 */
record ZnodeStat(boolean exists, long czxid, long mzxid, long pzxid, long version) {

    static final ZnodeStat ABSENT = new ZnodeStat(false, -1, -1, -1, -1);

    /** The ok value of a {@code get-data}, {@code exists} or {@code get-children}; throws naming the op if malformed. */
    static ZnodeStat of(Operation op) {
        Map<?, ?> m = Values.map(op.output(), "the read's result", op);
        Object exists = m.get("exists");
        if (!(exists instanceof Boolean b)) {
            throw Values.malformed(op, "the read's result needs \"exists\": true or false, got " + m);
        }
        if (!b) {
            return ABSENT;
        }
        String what = "the read's stat";
        return new ZnodeStat(true, Values.longField(m, "czxid", what, op), Values.longField(m, "mzxid", what, op),
                Values.longField(m, "pzxid", what, op), Values.longField(m, "version", what, op));
    }

    /** The largest zxid this stat shows: the server that answered had applied every transaction up to it. */
    long maxZxid() {
        return Math.max(czxid, Math.max(mzxid, pzxid));
    }

    /** For people: {@code absent}, or {@code version 3, mzxid 0x100000012}. */
    String describe() {
        return exists ? "version " + version + ", mzxid " + Zxids.hex(mzxid) : "absent";
    }
}
