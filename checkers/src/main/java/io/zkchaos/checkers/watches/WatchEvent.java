package io.zkchaos.checkers.watches;

import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.watches.Updates.Change;
import io.zkchaos.checkers.watches.Updates.Update;
import java.util.Locale;
import java.util.Map;

/**
 * One watch event a session received ({@code f = "event"}): which of the session's watchers got it, its type, the
 * znode it names, and the zxid of the transaction that caused it when the server sent one (ZooKeeper 3.9 on), else
 * -1.
 *
 * @param op      the entry (its invoke index is where it was delivered)
 * @param watcher the watcher that received it
 * @param type    what happened
 * @param path    the znode the event names
 * @param zxid    the causing transaction's zxid as the server sent it, or -1
 */
record WatchEvent(Operation op, Watcher watcher, Type type, String path, long zxid) {

    /** The session's watchers: one object per kind, so that each event says which kind of watch it fired. */
    enum Watcher {
        /** One-time data watches, set by {@code getData} and {@code exists}. */
        DATA,
        /** One-time child watches, set by {@code getChildren}. */
        CHILD,
        /** Persistent watches ({@code addWatch}, mode PERSISTENT). */
        PERSISTENT,
        /** Persistent recursive watches ({@code addWatch}, mode PERSISTENT_RECURSIVE). */
        RECURSIVE;

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        boolean oneTime() {
            return this == DATA || this == CHILD;
        }
    }

    /** ZooKeeper's event types for znodes. */
    enum Type {
        CREATED, DELETED, DATA_CHANGED, CHILDREN_CHANGED;

        String word() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Type of(String word, Operation op) {
            for (Type t : values()) {
                if (t.word().equals(word)) {
                    return t;
                }
            }
            throw Values.malformed(op, "unknown event type '" + word + "' (created, deleted, data-changed, "
                    + "children-changed)");
        }

        /**
         * The event {@code u} fires on a watch of {@code path}: a change of the znode itself, or of one of its
         * children (children-changed); null when it fires none there.
         */
        static Type firedBy(Update u, String path) {
            if (u.path().equals(path)) {
                return switch (u.change()) {
                    case CREATE -> CREATED;
                    case DELETE -> DELETED;
                    case SET -> DATA_CHANGED;
                };
            }
            return u.parent().equals(path) && u.change() != Change.SET ? CHILDREN_CHANGED : null;
        }
    }

    static WatchEvent of(Operation op) {
        Map<?, ?> m = Values.map(op.input(), "an event", op);
        String w = Values.stringField(m, "watcher");
        Watcher watcher = null;
        for (Watcher x : Watcher.values()) {
            if (x.word().equals(w)) {
                watcher = x;
            }
        }
        if (watcher == null) {
            throw Values.malformed(op, "an event names its \"watcher\": data, child, persistent or recursive; got "
                    + w);
        }
        if (op.key() == null) {
            throw Values.malformed(op, "an event names its znode in the key");
        }
        return new WatchEvent(op, watcher, Type.of(Values.stringField(m, "type"), op), op.key(),
                Values.longField(m, "zxid", -1, "an event", op));
    }

    long index() {
        return op.invokeIndex();
    }

    /** {@code data-changed on /a/k1 to the data watcher of process 3 at index 120}. */
    String describe() {
        return type.word() + " on " + path + " to the " + watcher.word() + " watcher of process "
                + (op.process() - WatchesChecker.EVENT_STREAM_OFFSET) + " at index " + index()
                + (zxid >= 0 ? " (zxid " + Zxids.hex(zxid) + ")" : "");
    }
}
