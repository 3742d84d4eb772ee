package io.zkchaos.checkers.readmodel;

import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plain-read half of ZooKeeper's read model: per session, reads never go backwards in time, never return a value
 * that was never written (or was written only in the future), and may be stale.
 *
 * <p>Since every write and cas writes a value unique per key, a read identifies the write it saw. "Backwards" and
 * "stale" need the order in which writes took effect; that order is derived, per key, from facts true in every
 * linearization of the writes, cas and sync-reads (which the other half checks): the initial value comes first; an
 * acknowledged write precedes every write invoked after its ack (real time); a cas {@code [e n]} follows the write of
 * {@code e}; a sync-read returning {@code v} follows every write acknowledged before it began and precedes every
 * write invoked after it completed, so the write of {@code v} is ordered likewise. A read is judged only against
 * this derived order, so it is never accused on a guess (sound, not complete: two writes the facts leave unordered
 * are never held against each other).
 */
final class SessionOrder {

    private SessionOrder() {
    }

    /** A write (or cas, or the initial value) of one key: a node of the derived order. */
    private static final class W {
        final Operation op; // null for the initial value
        final Object value;
        final long invokeIndex;
        final long ackIndex; // Long.MAX_VALUE when not acknowledged: then it precedes nothing by real time
        final List<W> after = new ArrayList<>();
        final List<Long> precedesInvokedAfter = new ArrayList<>();
        int pos;
        BitSet reach;
        W firstAckAfter;
        int coveredFrom;
        boolean firstAckAfterKnown;

        W(Operation op, Object value, long invokeIndex, long ackIndex) {
            this.op = op;
            this.value = value;
            this.invokeIndex = invokeIndex;
            this.ackIndex = ackIndex;
        }
    }

    /** The derived order of one key's writes. */
    private static final class Key {
        final String key;
        final List<W> writes = new ArrayList<>(); // sorted by invokeIndex once built
        final Map<Object, W> byValue = new HashMap<>();
        final Set<Object> failedValues = new HashSet<>();
        long[] invokes;

        Key(String key) {
            this.key = key;
        }

        void add(W w, Operation op) {
            W previous = byValue.putIfAbsent(w.value, w);
            if (previous != null) {
                throw Values.malformed(op, "value " + w.value + " is written twice on key " + key
                        + (previous.op == null ? " (it is the initial value)" : " (also by process "
                        + previous.op.process() + " at history index " + previous.op.invokeIndex() + ")")
                        + "; the read model needs every write of a key to write a unique value");
            }
            writes.add(w);
        }

        void seal() {
            writes.sort((a, b) -> Long.compare(a.invokeIndex, b.invokeIndex));
            invokes = new long[writes.size()];
            for (int i = 0; i < writes.size(); i++) {
                writes.get(i).pos = i;
                invokes[i] = writes.get(i).invokeIndex;
            }
        }

        /** Position of the first write invoked after history index {@code index}. */
        int firstInvokedAfter(long index) {
            int lo = 0;
            int hi = invokes.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (invokes[mid] > index) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }

        /** Of the writes after {@code w} (per the derived facts), the one acknowledged first, or null. */
        W firstAcknowledgedAfter(W w) {
            if (!w.firstAckAfterKnown) {
                BitSet r = reach(w);
                // everything from w.coveredFrom on is reached: take its precomputed minimum, then the few reached
                // writes below it
                W best = w.coveredFrom < writes.size() ? firstAckFrom[w.coveredFrom] : null;
                for (int i = r.nextSetBit(0); i >= 0 && i < w.coveredFrom; i = r.nextSetBit(i + 1)) {
                    W b = writes.get(i);
                    if (b.op != null && b.ackIndex != Long.MAX_VALUE && (best == null || b.ackIndex < best.ackIndex)) {
                        best = b;
                    }
                }
                if (best == w) { // w reaches itself: the facts are cyclic (not linearizable); scan, skipping w
                    best = null;
                    for (int i = r.nextSetBit(0); i >= 0; i = r.nextSetBit(i + 1)) {
                        W b = writes.get(i);
                        if (b != w && b.op != null && b.ackIndex != Long.MAX_VALUE
                                && (best == null || b.ackIndex < best.ackIndex)) {
                            best = b;
                        }
                    }
                }
                w.firstAckAfter = best;
                w.firstAckAfterKnown = true;
            }
            return w.firstAckAfter;
        }

        /** Whether {@code a} took effect before {@code b} in every linearization (per the derived facts). */
        boolean before(W a, W b) {
            return a != b && reach(a).get(b.pos);
        }

        private BitSet reach(W from) {
            if (from.reach != null) {
                return from.reach;
            }
            BitSet seen = new BitSet(writes.size());
            // Real-time successors form suffixes of the invoke order; positions from 'covered' on are all seen,
            // so each suffix costs only its not yet covered part and a search stays linear in the writes.
            int[] covered = {writes.size()};
            Deque<W> todo = new ArrayDeque<>();
            todo.push(from);
            while (!todo.isEmpty()) {
                W x = todo.pop();
                if (x.ackIndex != Long.MAX_VALUE) {
                    visitSuffix(firstInvokedAfter(x.ackIndex), seen, covered, todo);
                }
                for (long threshold : x.precedesInvokedAfter) {
                    visitSuffix(firstInvokedAfter(threshold), seen, covered, todo);
                }
                for (W y : x.after) {
                    if (!seen.get(y.pos)) {
                        seen.set(y.pos);
                        todo.push(y);
                    }
                }
            }
            from.reach = seen;
            from.coveredFrom = covered[0];
            return seen;
        }

        /**
         * Marks every write from position {@code start} on as reached. Only writes with order facts of their own
         * (cas successors, sync-read thresholds) need visiting: a plain write in the suffix was invoked after the
         * suffix began, so its own real-time successors are already inside it.
         */
        private void visitSuffix(int start, BitSet seen, int[] covered, Deque<W> todo) {
            if (start >= covered[0]) {
                return;
            }
            int from = Arrays.binarySearch(special, start);
            for (int i = from >= 0 ? from : -from - 1; i < special.length && special[i] < covered[0]; i++) {
                if (!seen.get(special[i])) {
                    todo.push(writes.get(special[i]));
                }
            }
            seen.set(start, covered[0]);
            covered[0] = start;
        }

        /** Positions of the writes with order facts beyond real time, sorted; set once the facts are all in. */
        int[] special = new int[0];

        /** {@code firstAckFrom[i]}: of the acknowledged writes at positions i and later, the one acked first. */
        W[] firstAckFrom = new W[0];

        void sealFacts() {
            special = writes.stream().filter(w -> !w.after.isEmpty() || !w.precedesInvokedAfter.isEmpty())
                    .mapToInt(w -> w.pos).sorted().toArray();
            firstAckFrom = new W[writes.size()];
            W best = null;
            for (int i = writes.size() - 1; i >= 0; i--) {
                W b = writes.get(i);
                if (b.op != null && b.ackIndex != Long.MAX_VALUE && (best == null || b.ackIndex < best.ackIndex)) {
                    best = b;
                }
                firstAckFrom[i] = best;
            }
        }
    }

    static SessionReport analyse(History history, Object init) {
        Object initValue = Values.normalise(init);
        Map<String, Key> keys = new HashMap<>();
        int plainReads = 0;
        int syncReads = 0;
        int writes = 0;
        for (Operation op : history.operations()) {
            if (!op.f().equals("write") && !op.f().equals("cas")) {
                if (op.f().equals("read") || op.f().equals("sync-read")) {
                    key(keys, op.key(), initValue);
                }
                continue;
            }
            Key k = key(keys, op.key(), initValue);
            Object value = written(op);
            if (op.isFail()) {
                k.failedValues.add(value);
                continue;
            }
            writes++;
            k.add(new W(op, value, op.invokeIndex(), op.isOk() ? op.completeIndex() : Long.MAX_VALUE), op);
        }
        keys.values().forEach(Key::seal);
        List<ReadViolation> violations = new ArrayList<>();
        // order facts from cas and sync-reads
        for (Operation op : history.operations()) {
            if (op.f().equals("cas") && !op.isFail()) {
                Key k = keys.get(op.key());
                W expected = k.byValue.get(Values.normalise(Values.list(op.input(), "the cas argument", op).get(0)));
                if (expected != null) {
                    expected.after.add(k.byValue.get(written(op)));
                }
            } else if (op.f().equals("sync-read") && op.isOk()) {
                syncReads++;
                Key k = keys.get(op.key());
                W read = k.byValue.get(Values.normalise(op.output()));
                if (read == null) {
                    continue; // a value never written: the linearizability half reports it
                }
                if (read.op == null) {
                    // The initial value comes first anyway. A sync-read of it after an acknowledged write is not
                    // linearizable, but a cas-register model (like Knossos's) lets a nil read match any state, so
                    // when init is null it is reported here; ordering facts drawn from it would be contradictory.
                    W acked = k.writes.stream().filter(w -> w.op != null && w.ackIndex < op.invokeIndex())
                            .findFirst().orElse(null);
                    if (acked != null && init == null) {
                        violations.add(new ReadViolation("stale-sync-read", k.key, op.process(), op.completeIndex(),
                                null, acked.value, acked.ackIndex, "process " + op.process() + " sync-read the "
                                + "initial value null from " + (k.key == null ? "the register" : "key " + k.key)
                                + " at index " + op.completeIndex() + ", though " + acked.value + " had been "
                                + "acknowledged at index " + acked.ackIndex));
                    }
                    continue;
                }
                for (W w : k.writes) {
                    if (w != read && w.ackIndex < op.invokeIndex()) {
                        w.after.add(read);
                    }
                }
                read.precedesInvokedAfter.add(op.completeIndex());
            }
        }
        keys.values().forEach(Key::sealFacts);
        // sessions, in program order
        Map<Integer, Map<String, List<Seen>>> seenBy = new HashMap<>();
        List<StaleRead> stale = new ArrayList<>();
        for (Operation op : history.operations()) {
            if (!op.isOk()) {
                continue;
            }
            Key k = keys.get(op.key());
            if (k == null) {
                continue;
            }
            List<Seen> seen = seenBy.computeIfAbsent(op.process(), p -> new HashMap<>())
                    .computeIfAbsent(op.key(), x -> new ArrayList<>());
            switch (op.f()) {
                case "read" -> {
                    plainReads++;
                    observe(k, seen, plainRead(op, k, seen, stale, violations), op.completeIndex());
                }
                case "sync-read" -> observe(k, seen, k.byValue.get(Values.normalise(op.output())), op.completeIndex());
                case "write" -> observe(k, seen, k.byValue.get(written(op)), op.completeIndex());
                case "cas" -> {
                    observe(k, seen, k.byValue.get(Values.normalise(((List<?>) op.input()).get(0))),
                            op.completeIndex());
                    observe(k, seen, k.byValue.get(written(op)), op.completeIndex());
                }
                default -> {
                }
            }
        }
        return new SessionReport(plainReads, syncReads, writes, stale, violations);
    }

    /** A write a session has observed (read, or written itself), and where. */
    private record Seen(W write, long index) {
    }

    /**
     * Adds {@code w} to a session's observed writes, keeping only the latest ones: a write known to come before
     * another observed write adds nothing to "never read older than what you have seen".
     */
    private static void observe(Key k, List<Seen> seen, W w, long index) {
        if (w == null) {
            return;
        }
        for (Seen s : seen) {
            if (s.write() == w || k.before(w, s.write())) {
                return;
            }
        }
        seen.removeIf(s -> k.before(s.write(), w));
        seen.add(new Seen(w, index));
    }

    private static W plainRead(Operation op, Key k, List<Seen> seen, List<StaleRead> stale,
                               List<ReadViolation> violations) {
        Object v = Values.normalise(op.output());
        String where = "process " + op.process() + " read " + v + " from "
                + (k.key == null ? "the register" : "key " + k.key) + " at index "
                + op.completeIndex();
        W w = k.byValue.get(v);
        if (w == null) {
            boolean failed = k.failedValues.contains(v);
            violations.add(new ReadViolation(failed ? "failed-write" : "never-written", k.key, op.process(),
                    op.completeIndex(), v, null, -1, where + (failed ? ", a value whose only write failed"
                    : ", a value never written")));
            return null;
        }
        if (w.invokeIndex > op.completeIndex()) {
            violations.add(new ReadViolation("future-read", k.key, op.process(), op.completeIndex(), v, null, -1,
                    where + ", but its write was invoked only at index " + w.invokeIndex));
            return w;
        }
        for (Seen s : seen) {
            if (k.before(w, s.write())) {
                violations.add(new ReadViolation("read-backwards", k.key, op.process(), op.completeIndex(), v,
                        s.write().value, s.index(), where + ", older than " + s.write().value
                        + " which the same session had already seen at index " + s.index()));
                return w;
            }
        }
        W newer = k.firstAcknowledgedAfter(w);
        if (newer != null && newer.ackIndex < op.invokeIndex()) {
            long staleness = op.invokeTime() >= 0 && newer.op.completeTime() >= 0
                    ? op.invokeTime() - newer.op.completeTime() : -1;
            stale.add(new StaleRead(k.key, op.process(), op.invokeIndex(), v, newer.value, newer.ackIndex, staleness,
                    "stale read, allowed by ZooKeeper's guarantees: " + where + ", though " + newer.value
                    + " had been acknowledged at index " + newer.ackIndex + ", " + Values.human(staleness)
                    + " before the read began"));
        }
        return w;
    }

    private static Key key(Map<String, Key> keys, String key, Object init) {
        return keys.computeIfAbsent(key, name -> {
            Key k = new Key(name);
            k.add(new W(null, init, Long.MIN_VALUE, Long.MIN_VALUE + 1), null);
            return k;
        });
    }

    /** The value a write or cas writes. */
    private static Object written(Operation op) {
        if (op.f().equals("write")) {
            return Values.normalise(op.input());
        }
        List<?> pair = Values.list(op.input(), "the cas argument [expected new]", op);
        if (pair.size() != 2) {
            throw Values.malformed(op, "the cas argument must be [expected new] but is " + pair);
        }
        return Values.normalise(pair.get(1));
    }
}
