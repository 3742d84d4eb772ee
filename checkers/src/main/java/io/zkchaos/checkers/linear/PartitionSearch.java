package io.zkchaos.checkers.linear;

import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.model.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Wing–Gong/Lowe search over one partition, as Porcupine runs it: the determinate operations as a doubly
 * linked list of call and return entries in real-time (history) order; a call is linearized by "lifting" it and its
 * return out of the list, undone on backtracking; a cache of visited configurations prunes repeats.
 *
 * <p>Indeterminate operations have their return at +infinity: they may be linearized anywhere after their invoke,
 * or never, and the search succeeds once the list of determinate operations is empty. They live in a list of their
 * own and are tried <em>lazily</em>: in each configuration only after every determinate call before the first
 * pending return failed. So the search first assumes they did not happen and places one just in time when nothing
 * else fits, and the cache's dominance rule (see {@link ConfigCache}) stops it re-exploring a configuration that
 * differs from a finished one only by extra indeterminate operations.
 *
 * <p>Everything the loop touches is an {@code int} or {@code long} array; the only objects are the model's states.
 */
final class PartitionSearch {

    /** The most distinct states kept for an explanation. */
    static final int MAX_STATES = 32;
    private static final int POLL_EVERY = 1 << 10;

    /** What the search found. {@code blocked} etc. are null/empty when linearizable. */
    record Result(boolean linearizable, long configurations, Operation blocked, List<Operation> prefix,
                  List<Object> states, boolean statesTruncated, List<Operation> concurrent) {
    }

    private final Model<Object> model;
    private final SearchControl control;
    private final Operation[] det;     // determinate operations, in invoke order
    private final Operation[] info;    // indeterminate operations, in invoke order
    private final long[] infoInvoke;   // their invoke indices
    private final int[] opOf;          // entry -> determinate operation
    private final int[] match;         // call entry -> its return entry; -1 for a return entry
    private final int[] callOf;        // determinate operation -> its call entry

    PartitionSearch(Model<Object> model, List<Operation> operations, SearchControl control) {
        this.model = model;
        this.control = control;
        Operation[] sorted = operations.toArray(new Operation[0]);
        if (!inInvokeOrder(sorted)) {
            Arrays.sort(sorted, (a, b) -> Long.compare(a.invokeIndex(), b.invokeIndex()));
        }
        List<Operation> d = new ArrayList<>(sorted.length);
        List<Operation> x = new ArrayList<>();
        for (Operation op : sorted) {
            if (op.isInfo() || op.completeIndex() < 0) {
                x.add(op);
            } else {
                if (op.completeIndex() > Integer.MAX_VALUE || op.completeIndex() <= op.invokeIndex()) {
                    throw new IllegalArgumentException("operation " + op + " completes at index "
                            + op.completeIndex() + ", not after its invoke");
                }
                d.add(op);
            }
        }
        this.det = d.toArray(new Operation[0]);
        this.info = x.toArray(new Operation[0]);
        this.infoInvoke = new long[info.length];
        for (int i = 0; i < info.length; i++) {
            infoInvoke[i] = info[i].invokeIndex();
        }
        int n = det.length;
        long[] returns = new long[n];
        for (int i = 0; i < n; i++) {
            returns[i] = (det[i].completeIndex() << 32) | i;
        }
        Arrays.sort(returns);
        this.opOf = new int[2 * n];
        this.match = new int[2 * n];
        this.callOf = new int[n];
        // Merge calls (in invoke order) with returns (in completion order).
        int c = 0;
        int r = 0;
        for (int k = 0; k < 2 * n; k++) {
            if (c < n && (r >= n || det[c].invokeIndex() < (returns[r] >>> 32))) {
                opOf[k] = c;
                callOf[c] = k;
                c++;
            } else {
                int i = (int) returns[r++];
                opOf[k] = i;
                match[k] = -1;
                match[callOf[i]] = k;
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

    /**
     * Runs the search.
     *
     * @throws SearchControl.Stop when a budget ran out or the check was cancelled
     */
    Result run() {
        final int n = det.length;
        final int k = info.length;
        final int entries = 2 * n;
        final int head = entries;
        final int[] next = new int[entries + 1];
        final int[] prev = new int[entries + 1];
        for (int i = 0; i < entries; i++) {
            next[i] = i + 1 < entries ? i + 1 : -1;
            prev[i] = i == 0 ? head : i - 1;
        }
        next[head] = entries > 0 ? 0 : -1;
        final int ihead = k;
        final int[] inext = new int[k + 1];
        final int[] iprev = new int[k + 1];
        for (int i = 0; i < k; i++) {
            inext[i] = i + 1 < k ? i + 1 : -1;
            iprev[i] = i == 0 ? ihead : i - 1;
        }
        inext[ihead] = k > 0 ? 0 : -1;

        final int[] opOf = this.opOf;
        final int[] match = this.match;
        final Operation[] det = this.det;
        final Operation[] info = this.info;
        final long[] infoInvoke = this.infoInvoke;
        final Model<Object> model = this.model;

        final long[] detBits = new long[Math.max(1, (n + 63) >>> 6)];
        final long[] infoBits = new long[(k + 63) >>> 6];
        long detHash = 0;
        final int depthMax = n + k;
        final int[] stackEntry = new int[depthMax];      // determinate call entry, or -(info index + 1)
        final Object[] stackState = new Object[depthMax];
        final int[] stackId = new int[depthMax];          // the pushed configuration's cache id
        final int[] stackReturn = new int[depthMax];      // first pending return when an info op was pushed
        int depth = 0;

        // For the explanation: the furthest return the search got stuck at, and what it knew there.
        int maxProgress = -1;
        int[] snapshot = new int[16];
        int snapshotLength = 0;
        int lowWater = 0;
        boolean mustSnapshot = false;
        Set<Object> stuckStates = new LinkedHashSet<>();
        boolean statesTruncated = false;

        ConfigCache cache = new ConfigCache(n, k);
        long bytesEach = cache.bytesPerEntry();
        int reported = 0;
        int untilPoll = POLL_EVERY;
        Object state = model.init();
        int entry = next[head];
        boolean infoPhase = false;
        int firstReturn = -1;
        int ientry = -1;
        try {
            while (next[head] >= 0) {
                if (--untilPoll == 0) {
                    untilPoll = POLL_EVERY;
                    int size = cache.size();
                    control.poll(size - reported, bytesEach);
                    reported = size;
                }
                if (!infoPhase) {
                    if (entry < 0) {
                        throw new IllegalStateException("search ran off the end of the history");
                    }
                    int ret = match[entry];
                    if (ret >= 0) {
                        int id = opOf[entry];
                        Object nextState = model.step(state, det[id]);
                        if (nextState != null) {
                            long bit = 1L << id;
                            detBits[id >>> 6] |= bit;
                            long h = detHash ^ ConfigCache.zobrist(id);
                            int cid = cache.visit(detBits, h, infoBits, nextState);
                            if (cid >= 0) {
                                stackEntry[depth] = entry;
                                stackState[depth] = state;
                                stackId[depth] = cid;
                                depth++;
                                state = nextState;
                                detHash = h;
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
                            detBits[id >>> 6] &= ~bit;
                        }
                        entry = next[entry];
                        continue;
                    }
                    // The first pending return: now try the indeterminate operations invoked before it.
                    firstReturn = entry;
                    infoPhase = true;
                    ientry = inext[ihead];
                }
                long limit = det[opOf[firstReturn]].completeIndex();
                if (ientry >= 0 && infoInvoke[ientry] < limit) {
                    Object nextState = model.step(state, info[ientry]);
                    if (nextState != null && depth > 0 && stackEntry[depth - 1] < 0 && stackEntry[depth - 1] > -(ientry + 1)) {
                        // This configuration was reached from its parent by an earlier indeterminate operation, and
                        // the parent will try this one itself once that subtree is done. If this one leaves the
                        // same state with or without the earlier one, the parent's configuration dominates ours.
                        Object viaParent = model.step(stackState[depth - 1], info[ientry]);
                        if (nextState.equals(viaParent)) {
                            nextState = null;
                        }
                    }
                    if (nextState != null) {
                        long bit = 1L << ientry;
                        infoBits[ientry >>> 6] |= bit;
                        int cid = cache.visit(detBits, detHash, infoBits, nextState);
                        if (cid >= 0) {
                            stackEntry[depth] = -(ientry + 1);
                            stackState[depth] = state;
                            stackId[depth] = cid;
                            stackReturn[depth] = firstReturn;
                            depth++;
                            state = nextState;
                            inext[iprev[ientry]] = inext[ientry];
                            if (inext[ientry] >= 0) {
                                iprev[inext[ientry]] = iprev[ientry];
                            }
                            infoPhase = false;
                            entry = next[head];
                            continue;
                        }
                        infoBits[ientry >>> 6] &= ~bit;
                    }
                    ientry = inext[ientry];
                    continue;
                }

                // Stuck: the operation that returns at firstReturn cannot be linearized in this configuration.
                if (firstReturn >= maxProgress) {
                    if (firstReturn > maxProgress) {
                        maxProgress = firstReturn;
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
                cache.finish(stackId[depth]);
                int code = stackEntry[depth];
                state = stackState[depth];
                stackState[depth] = null;
                if (code >= 0) {
                    int id = opOf[code];
                    detBits[id >>> 6] &= ~(1L << id);
                    detHash ^= ConfigCache.zobrist(id);
                    // unlift: put the return, then the call, back where they were
                    int r = match[code];
                    if (next[r] >= 0) {
                        prev[next[r]] = r;
                    }
                    next[prev[r]] = r;
                    if (next[code] >= 0) {
                        prev[next[code]] = code;
                    }
                    next[prev[code]] = code;
                    infoPhase = false;
                    entry = next[code];
                } else {
                    int i = -code - 1;
                    infoBits[i >>> 6] &= ~(1L << i);
                    if (inext[i] >= 0) {
                        iprev[inext[i]] = i;
                    }
                    inext[iprev[i]] = i;
                    infoPhase = true;
                    firstReturn = stackReturn[depth];
                    ientry = inext[i];
                }
            }
            return new Result(true, cache.size(), null, List.of(), List.of(), false, List.of());
        } finally {
            control.release(reported, cache.size(), bytesEach);
        }
    }

    private Operation opAt(int code) {
        return code >= 0 ? det[opOf[code]] : info[-code - 1];
    }

    private Result failure(int progress, int[] snapshot, int length, Set<Object> states, boolean truncated,
                           long configurations) {
        Operation blocked = det[opOf[progress]];
        Set<Operation> inPrefix = new java.util.HashSet<>();
        List<Operation> prefix = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            Operation op = opAt(snapshot[i]);
            inPrefix.add(op);
            prefix.add(op);
        }
        List<Operation> concurrent = new ArrayList<>();
        for (int i = 0; i < det.length; i++) {
            if (det[i] != blocked && callOf[i] < progress && !inPrefix.contains(det[i])) {
                concurrent.add(det[i]);
            }
        }
        for (Operation op : info) {
            if (op.invokeIndex() < blocked.completeIndex() && !inPrefix.contains(op)) {
                concurrent.add(op);
            }
        }
        concurrent.sort((a, b) -> Long.compare(a.invokeIndex(), b.invokeIndex()));
        return new Result(false, configurations, blocked, prefix, new ArrayList<>(states), truncated, concurrent);
    }
}
