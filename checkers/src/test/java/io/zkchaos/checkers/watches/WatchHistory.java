package io.zkchaos.checkers.watches;

import static io.zkchaos.checkers.HistoryBuilder.map;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes watch histories by hand (docs/history-conventions.md, "Watches"): writers' changes with their zxids,
 * sessions' reads, syncs and watches, and the events their clients dispatched, in that order. One millisecond per
 * entry.
 */
public final class WatchHistory {

    public static final String T = "/w/tree";
    public static final String K1 = T + "/k1";
    public static final String K2 = T + "/k2";

    private final List<Op> ops = new ArrayList<>();
    private final Map<Integer, Op> open = new HashMap<>();
    private final Builder h = new Builder();

    /** Entries one millisecond apart, each completion after its process's invoke. */
    private final class Builder {
        Builder invoke(int process, String f, String key, Object value) {
            Op op = new Op(ops.size(), process, OpType.INVOKE, f, key, value, null, ops.size() * 1_000_000L);
            ops.add(op);
            open.put(process, op);
            return this;
        }

        Builder complete(int process, OpType type, Object value, String error) {
            Op inv = open.remove(process);
            ops.add(new Op(ops.size(), process, type, inv.f(), inv.key(), value, error, ops.size() * 1_000_000L));
            return this;
        }

        Builder ok(int process, Object value) {
            return complete(process, OpType.OK, value, null);
        }

        Builder info(int process) {
            return complete(process, OpType.INFO, null, "connection-loss");
        }
    }

    /** A change acknowledged with {@code zxid}. */
    public WatchHistory change(int writer, String f, String path, String id, long zxid) {
        h.invoke(writer, f, path, map("id", id)).ok(writer, map("zxid", zxid));
        return this;
    }

    public WatchHistory create(String path, String id, long zxid) {
        return change(0, "create", path, id, zxid);
    }

    public WatchHistory set(String path, String id, long zxid) {
        return change(0, "set", path, id, zxid);
    }

    public WatchHistory delete(String path, String id, long zxid) {
        return change(0, "delete", path, id, zxid);
    }

    /** A change whose outcome is unknown. */
    public WatchHistory changeInfo(int writer, String f, String path, String id) {
        h.invoke(writer, f, path, map("id", id)).info(writer);
        return this;
    }

    public WatchHistory resolve(int writer, List<String> pending, String landed, Long zxid) {
        h.invoke(writer, "resolve", "/w/clocks/w0", map("pending", pending))
                .ok(writer, map("landed", landed, "zxid", zxid));
        return this;
    }

    /** A stat of a present znode. */
    public static Map<String, Object> stat(long czxid, long mzxid, long pzxid, long version) {
        return map("exists", true, "czxid", czxid, "mzxid", mzxid, "pzxid", pzxid, "version", version);
    }

    public static Map<String, Object> absent() {
        return map("exists", false);
    }

    public WatchHistory read(int session, String f, String path, boolean watch, Map<String, Object> result) {
        h.invoke(session, f, path, map("watch", watch)).ok(session, result);
        return this;
    }

    public WatchHistory getData(int session, String path, Map<String, Object> result) {
        return read(session, "get-data", path, true, result);
    }

    public WatchHistory exists(int session, String path, Map<String, Object> result) {
        return read(session, "exists", path, true, result);
    }

    public WatchHistory getChildren(int session, String path, Map<String, Object> result) {
        return read(session, "get-children", path, true, result);
    }

    public WatchHistory sync(int session) {
        h.invoke(session, "sync", T, null).ok(session, null);
        return this;
    }

    /** A sync invoked now, completed by {@link #done}. */
    public WatchHistory syncInvoked(int session) {
        h.invoke(session, "sync", T, null);
        return this;
    }

    public WatchHistory done(int session) {
        h.ok(session, null);
        return this;
    }

    public WatchHistory addWatch(int session, String path, String mode) {
        h.invoke(session, "add-watch", path, map("mode", mode)).ok(session, null);
        return this;
    }

    public WatchHistory addWatchUnimplemented(int session, String path) {
        h.invoke(session, "add-watch", path, map("mode", "persistent-recursive"));
        h.complete(session, OpType.FAIL, null, "unimplemented");
        return this;
    }

    /** An event delivered to {@code session}'s {@code watcher}; zxid -1 as a server before 3.9 sends it. */
    public WatchHistory event(int session, String watcher, String type, String path, long zxid) {
        int p = session + WatchesChecker.EVENT_STREAM_OFFSET;
        Map<String, Object> e = map("watcher", watcher, "type", type, "zxid", zxid, "knew", null);
        h.invoke(p, "event", path, e).ok(p, e);
        return this;
    }

    public WatchHistory sessionState(int session, String state) {
        int p = session + WatchesChecker.EVENT_STREAM_OFFSET;
        Map<String, Object> e = map("state", state);
        h.invoke(p, "session", null, e).ok(p, e);
        return this;
    }

    public History build() {
        return History.of(ops);
    }
}
