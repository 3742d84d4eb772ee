package io.zkchaos.checkers;

import static io.zkchaos.checkers.HistoryBuilder.map;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Pieces of sessions, sequential and multi histories written by hand (history-conventions.md), for tests. */
public final class ZnodeHistories {

    private ZnodeHistories() {
    }

    // ---- sessions ----

    /** {@code process} opens session {@code session} (timeout 4 s) and is told SyncConnected. */
    public static HistoryBuilder open(HistoryBuilder h, int process, String session, long ms) {
        return h.invoke(process, "open", null, ms).ok(process, map("session", session, "timeout", 4000L), ms + 1)
                .okOp(process, "event", state("SyncConnected"), state("SyncConnected"), ms + 1);
    }

    public static Map<String, Object> state(String s) {
        return map("state", s);
    }

    /** {@code process}'s client delivers {@code state}. */
    public static HistoryBuilder event(HistoryBuilder h, int process, String state, long ms) {
        return h.okOp(process, "event", state(state), state(state), ms);
    }

    /** {@code process} reads the ephemerals: these names, with these owners. */
    public static HistoryBuilder read(HistoryBuilder h, int process, long ms, Map<String, Object> owners) {
        return h.invoke(process, "read", null, ms).ok(process, map("children", List.copyOf(owners.keySet()),
                "owners", owners), ms + 1);
    }

    /**
     * p1 holds ephemeral e1-1 when the nemesis cuts every client link at 1 s (in force at 1.001 s) until
     * {@code healMs}; its client is told Disconnected, then Expired by its own clock (4/3 of the timeout); p2 opens a
     * session after the heal.
     */
    public static HistoryBuilder partitioned(long healMs) {
        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        h.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11)
                .nemesis("client-partition", map("fault", "client-partition", "nodes", List.of("n1", "n2", "n3")),
                        1000, 1001);
        event(h, 1, "Disconnected", 1200);
        event(h, 1, "Expired", 5400);
        h.heal("client-partition", map("fault", "heal", "nodes", List.of()), healMs, healMs + 1);
        return open(h, 2, "0x2", healMs + 100);
    }

    // ---- sequential ----

    /** A create's invoke value. */
    public static Map<String, Object> asked(long value, String mode) {
        return map("value", value, "mode", mode);
    }

    /** A create's ok value: the name ZooKeeper gives value {@code value} with number {@code seq}. */
    public static Map<String, Object> got(long value, String mode, long seq) {
        return map("value", value, "mode", mode, "name", child(value, seq), "seq", seq);
    }

    /** {@code v<value>-} and the ten-digit sequence number. */
    public static String child(long value, long seq) {
        return String.format("v%d-%010d", value, seq);
    }

    // ---- multi ----

    /** {@code [op key value]}. */
    public static List<Object> m(String op, String key, Object value) {
        return Arrays.asList(op, key, value);
    }

    /** A transaction's or a read's list of micro-ops. */
    public static List<Object> ops(List<?>... micros) {
        return new ArrayList<>(Arrays.asList(micros));
    }
}
