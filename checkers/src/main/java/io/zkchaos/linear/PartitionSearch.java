package io.zkchaos.linear;

import io.zkchaos.history.Operation;
import io.zkchaos.model.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Wing–Gong/Lowe search over one partition, as Porcupine runs it: the history as a doubly linked list of call
 * and return entries in real-time (history) order; a call is linearized by "lifting" it and its return out of the
 * list, undone on backtracking; a cache of (linearized set, state) prunes configurations already explored.
 *
 * <p>Indeterminate operations get their return at +infinity: they may be linearized anywhere after their invoke,
 * or never, and the search succeeds once every determinate operation is linearized.
 *
 * <p>Everything the loop touches is an {@code int} array indexed by entry or operation; the only objects are the
 * model's states.
 */
final class PartitionSearch {

    /** The most distinct states kept for an explanation. */
    static final int MAX_STATES = 32;
    private static final int POLL_EVERY = 1 << 12;

    /** What the search found. {@code blocked} etc. are null when linearizable. */
    record Result(boolean linearizable, long configurations, Operation blocked, List<Operation> prefix,
                  List<Object> states, boolean statesTruncated, List<Operation> concurrent) {
    }

    private final Model<Object> model;
    private final SearchControl control;
    private final Operation[] ops;
    private final boolean[] info;
    private final int determinate;
    private final int[] opOf;      // entry -> operation
    private final int[] match;     // call entry -> its return entry; -1 for a return entry
    private final int[] callOf;    // operation -> its call entry

    PartitionSearch(Model<Object> model, List<Operation> operations, SearchControl control) {
        this.model = model;
        this.control = control;
        int n = operations.size();
        Operation[] sorted = operations.toArray(new Operation[0]);
        if (!inInvokeOrder(sorted)) {
            sorted = sorted.clone();
            Arrays.sort(sorted, (a, b) -> Long.compare(a.invokeIndex(), b.invokeIndex()));
        }
        this.ops = sorted;
        this.info = new boolean[n];
        long[] returns = new long[n];
        int nr = 0;
        for (int i = 0; i < n; i++) {
            Operation op = ops[i];
            info[i] = op.isInfo() || op.completeIndex() < 0;
            if (!info[i]) {
                if (op.completeIndex() > Integer.MAX_VALUE || op.completeIndex() <= op.invokeIndex()) {
                    throw new IllegalArgumentException("operation " + op + " completes at index "
                            + op.completeIndex() + ", not after its invoke");
                }
                returns[nr++] = (op.completeIndex() << 32) | i;
            }
        }
        this.determinate = nr;
        Arrays.sort(returns, 0, nr);
        int e = 2 * n;
        this.opOf = new int[e];
        this.match = new int[e];
        this.callOf = new int[n];
        // Merge calls (in invoke order) with returns (in completion order); indeterminate returns go last.
        int c = 0;
        int r = 0;
        int k = 0;
        while (c < n || r < nr) {
            boolean takeCall = c < n && (r >= nr || ops[c].invokeIndex() < (returns[r] >>> 32));
            if (takeCall) {
                opOf[k] = c;
                callOf[c] = k;
                c++;
            } else {
                int i = (int) returns[r++];
                opOf[k] = i;
                match[k] = -1;
                match[callOf[i]] = k;
            }
            k++;
        }
        for (int i = 0; i < n; i++) {
            if (info[i]) {
                opOf[k] = i;
                match[k] = -1;
                match[callOf[i]] = k;
                k++;
            }
        }
    }

    private static boolean inInvokeOrder(Operation[] ops) {
        for (int i = 1; i < ops.length; i++) {
            if (ops[i].invokeIndex() <= ops[i - 1].invokeIndex()) {
                return false;
            }
        }
        return true;
    }

    int size() {
        return ops.length;
    }

    /**
     * Runs the search.
     *
     * @throws SearchControl.Stop when a budget ran out or the check was cancelled
     */
    Result run() {
        final int n = ops.length;
        final int entries = 2 * n;
        final int head = entries;
        final int[] next = new int[entries + 1];
        final int[] prev = new int[entries + 1];
        for (int i = 0; i < entries; i++) {
            next[i] = i + 1 < entries ? i + 1 : -1;
            prev[i] = i == 0 ? head : i - 1;
        }
        next[head] = entries > 0 ? 0 : -1;
        prev[head] = -1;

        final int[] opOf = this.opOf;
        final int[] match = this.match;
        final Operation[] ops = this.ops;
        final boolean[] info = this.info;
        final Model<Object> model = this.model;

        final long[] bits = new long[Math.max(1, (n + 63) >>> 6)];
        long bitsHash = 0;
        final int[] stackEntry = new int[n];
        final Object[] stackState = new Object[n];
        int depth = 0;
        int linearized = 0;

        // The explanation: the furthest return entry the search got stuck at, and what it knew there.
        int maxProgress = -1;
        int[] snapshot = new int[16];
        int snapshotLength = 0;
        int lowWater = 0;
        boolean mustSnapshot = false;
        Set<Object> stuckStates = new LinkedHashSet<>();
        boolean statesTruncated = false;

        ConfigCache cache = new ConfigCache(n);
        long bytesEach = cache.bytesPerEntry();
        int reported = 0;
        int untilPoll = POLL_EVERY;
        Object state = model.init();
        int entry = next[head];
        try {
            while (linearized < determinate) {
                if (--untilPoll == 0) {
                    untilPoll = POLL_EVERY;
                    int size = cache.size();
                    control.poll(size - reported, bytesEach);
                    reported = size;
                }
                if (entry < 0) {
                    throw new IllegalStateException("search ran off the end of the history");
                }
                int ret = match[entry];
                if (ret >= 0) {
                    int id = opOf[entry];
                    Object nextState = model.step(state, ops[id]);
                    if (nextState != null) {
                        long h = bitsHash ^ ConfigCache.zobrist(id);
                        if (cache.addIfAbsent(bits, id, h, nextState)) {
                            stackEntry[depth] = entry;
                            stackState[depth] = state;
                            depth++;
                            state = nextState;
                            bits[id >>> 6] |= 1L << id;
                            bitsHash = h;
                            if (!info[id]) {
                                linearized++;
                            }
                            // lift the call and its return out of the list
                            next[prev[entry]] = next[entry];
                            if (next[entry] >= 0) {
                                prev[next[entry]] = prev[entry];
                            }
                            next[prev[ret]] = next[ret];
                            if (next[ret] >= 0) {
                                prev[next[ret]] = prev[ret];
                            }
                            entry = next[head];
                            continue;
                        }
                    }
                    entry = next[entry];
                } else {
                    // A return: the operation it ends had to be linearized by now and could not be.
                    if (entry >= maxProgress) {
                        if (entry > maxProgress) {
                            maxProgress = entry;
                            stuckStates.clear();
                            statesTruncated = false;
                            mustSnapshot = true;
                        }
                        if (stuckStates.size() < MAX_STATES) {
                            stuckStates.add(state);
                        } else if (!stuckStates.contains(state)) {
                            statesTruncated = true;
                        }
                        if (mustSnapshot || depth > snapshotLength) {
                            mustSnapshot = false;
                            // copy only what changed since the last snapshot: amortised O(pushes)
                            if (snapshot.length < depth) {
                                snapshot = Arrays.copyOf(snapshot, Math.max(depth, snapshot.length * 2));
                            }
                            int from = Math.min(lowWater, Math.min(snapshotLength, depth));
                            System.arraycopy(stackEntry, from, snapshot, from, depth - from);
                            snapshotLength = depth;
                            lowWater = depth;
                        }
                    }
                    if (depth == 0) {
                        return failure(maxProgress, snapshot, snapshotLength, stuckStates, statesTruncated,
                                cache.size());
                    }
                    depth--;
                    if (depth < lowWater) {
                        lowWater = depth;
                    }
                    entry = stackEntry[depth];
                    state = stackState[depth];
                    stackState[depth] = null;
                    int id = opOf[entry];
                    bits[id >>> 6] &= ~(1L << id);
                    bitsHash ^= ConfigCache.zobrist(id);
                    if (!info[id]) {
                        linearized--;
                    }
                    // unlift: put the return, then the call, back where they were
                    int r = match[entry];
                    if (next[r] >= 0) {
                        prev[next[r]] = r;
                    }
                    next[prev[r]] = r;
                    if (next[entry] >= 0) {
                        prev[next[entry]] = entry;
                    }
                    next[prev[entry]] = entry;
                    entry = next[entry];
                }
            }
            return new Result(true, cache.size(), null, List.of(), List.of(), false, List.of());
        } finally {
            control.release(reported, bytesEach);
        }
    }

    private Result failure(int progress, int[] snapshot, int length, Set<Object> states, boolean truncated,
                           long configurations) {
        int blocked = opOf[progress];
        boolean[] inPrefix = new boolean[ops.length];
        List<Operation> prefix = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            int id = opOf[snapshot[i]];
            inPrefix[id] = true;
            prefix.add(ops[id]);
        }
        List<Operation> concurrent = new ArrayList<>();
        for (int i = 0; i < ops.length; i++) {
            if (i != blocked && !inPrefix[i] && callOf[i] < progress) {
                concurrent.add(ops[i]);
            }
        }
        return new Result(false, configurations, ops[blocked], prefix, new ArrayList<>(states), truncated,
                concurrent);
    }
}
