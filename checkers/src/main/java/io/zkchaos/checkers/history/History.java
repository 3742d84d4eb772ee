package io.zkchaos.checkers.history;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.function.LongFunction;

/**
 * A validated, immutable history: every completion follows an invoke of the same process and function, and a
 * process has at most one operation outstanding. Nemesis entries are kept in order but not paired.
 *
 * <p>The entries are stored compactly: one row of four {@code long}s per entry (process, type, function, key,
 * error, the other half of its operation, and its value packed into a reference; repeated strings are stored once as
 * symbols, string values as UTF-8 in paged arenas), plus the index and time only when they are not the entry's
 * position and absent. A history of a million operations thus takes about 85 bytes per operation plus its values'
 * text, instead of millions of objects; see {@link #heapBytes()}. The row layout keeps each entry on one or two
 * cache lines: a checker that reads the operations of one key at a time, spread over the whole history, pays about
 * three memory accesses per operation. {@link #ops()}, {@link #operations()} and {@link #nemesisOps()} are views that
 * make each {@link Op} or {@link Operation} when it is asked for: equal to what was recorded, but a new object
 * each time. Safe to read from several threads.
 */
public final class History {

    private static final OpType[] TYPES = OpType.values();

    // A row of ROW longs per entry: [process (low 32) | type ordinal (high 32)], [f symbol | key symbol + 1],
    // [error symbol + 1 | partner entry + 1 (an invoke's completion, a completion's invoke)], [value reference].
    static final int ROW = 4;

    private final int size;
    private final long[] rows;
    private final long[] indices;   // null when every entry's index is its position
    private final long[] times;     // null when no entry has a time
    private final String[] symbols;
    private final ValueStore store;

    private final int operationCount;
    private final int[] invokes;      // operation id -> entry of its invoke
    private final int[] nemesis;      // entries of the nemesis, in order
    private final int nemesisCount;

    private final List<Op> opsView = new OpsView();
    private final List<Operation> operationsView = new OperationsView();
    private final List<Op> nemesisView = new NemesisView();

    private History(Builder b) {
        this.size = b.size;
        this.rows = trim(b.rows, size * ROW);
        this.indices = b.indices == null ? null : trim(b.indices, size);
        this.times = b.times == null ? null : trim(b.times, size);
        this.symbols = b.symbols.names();
        this.store = b.store;
        this.operationCount = b.operationCount;
        this.invokes = trim(b.invokes, operationCount);
        this.nemesisCount = b.nemesisCount;
        this.nemesis = trim(b.nemesis, nemesisCount);
    }

    /** Arrays more than a quarter empty are cut to size; the others are kept as they are (a copy costs time). */
    private static int[] trim(int[] a, int n) {
        return a.length - n > a.length / 4 ? Arrays.copyOf(a, n) : a;
    }

    private static long[] trim(long[] a, int n) {
        return a.length - n > a.length / 4 ? Arrays.copyOf(a, n) : a;
    }

    /** Validates and pairs {@code ops}; errors name the op index. */
    public static History of(List<Op> ops) {
        return of(ops, index -> "op " + index);
    }

    /**
     * Validates and pairs {@code ops}.
     *
     * @param where describes the source position of an op index (e.g. {@code "history.edn line 12"}), for errors
     * @throws MalformedHistoryException naming the position and the reason
     */
    public static History of(List<Op> ops, LongFunction<String> where) {
        Builder b = new Builder(where);
        b.expectEntries(ops.size());
        for (Op op : ops) {
            b.add(op.index(), op.process(), op.type(), b.symbol(op.f()), op.key() == null ? -1 : b.symbol(op.key()),
                    b.object(op.value()), op.error() == null ? -1 : b.symbol(op.error()), op.time(), -1);
        }
        return b.build();
    }

    /**
     * Processes from here up are the harness's own, never a client's: its final reads, its recovery probe and the like
     * ({@code docs/history-conventions.md}). A checker of the clients' operations leaves them out.
     */
    public static final int HARNESS_PROCESS_BASE = 1_000_000;

    /**
     * This history without the harness's own entries ({@link #HARNESS_PROCESS_BASE} up); this very history when it has
     * none, which is the common case and costs one pass over the rows.
     */
    public History withoutHarness() {
        boolean any = false;
        for (int i = 0; i < size && !any; i++) {
            any = (int) rows[i * ROW] >= HARNESS_PROCESS_BASE;
        }
        if (!any) {
            return this;
        }
        List<Op> kept = new java.util.ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            if ((int) rows[i * ROW] < HARNESS_PROCESS_BASE) {
                kept.add(op(i));
            }
        }
        return of(kept);
    }

    /** Every entry, in history order, nemesis included. */
    public List<Op> ops() {
        return opsView;
    }

    /** Client operations, paired, in invoke order; {@link Operation#id()} is the position in this list. */
    public List<Operation> operations() {
        return operationsView;
    }

    /** The nemesis's entries, in order. */
    public List<Op> nemesisOps() {
        return nemesisView;
    }

    /** The number of entries (invocations, completions and nemesis entries). */
    public int size() {
        return size;
    }

    /** The number of client operations (paired invocations), {@code operations().size()}. */
    public int operationCount() {
        return operationCount;
    }

    /** Entry {@code position} as an {@link Op} (a new object, equal to what was recorded). */
    public Op op(int position) {
        int r = position * ROW;
        long head = rows[r];
        long names = rows[r + 1];
        return new Op(index(position), (int) head, TYPES[(int) (head >>> 32)], symbols[(int) names],
                symbol((int) (names >>> 32) - 1), store.get(rows[r + 3]), symbol((int) rows[r + 2] - 1),
                time(position));
    }

    /** Operation {@code id} as an {@link Operation} (a new object, equal each time). */
    public Operation operation(int id) {
        int invoke = invokes[id];
        int i = invoke * ROW;
        int completion = (int) (rows[i + 2] >>> 32) - 1;
        int c = completion * ROW;
        return completion < 0
                ? operation(id, invoke, rows[i], rows[i + 1], rows[i + 2], rows[i + 3], 0, 0, 0, 0)
                : operation(id, invoke, rows[i], rows[i + 1], rows[i + 2], rows[i + 3], rows[c], rows[c + 1],
                        rows[c + 2], rows[c + 3]);
    }

    /** The operation of an invoke row and its completion's row (ignored if it never completed). */
    private Operation operation(int id, int invoke, long head, long names, long link, long inputRef, long cHead,
                                long cNames, long cLink, long outputRef) {
        int process = (int) head;
        String f = symbols[(int) names];
        int key = (int) (names >>> 32) - 1;
        int completion = (int) (link >>> 32) - 1;
        Object input = store.get(inputRef);
        if (completion < 0) {
            return new Operation(id, process, f, symbol(key), input, null,
                    Operation.Outcome.INFO, "never completed", index(invoke), -1, time(invoke), -1);
        }
        Operation.Outcome outcome = switch (TYPES[(int) (cHead >>> 32)]) {
            case OK -> Operation.Outcome.OK;
            case FAIL -> Operation.Outcome.FAIL;
            case INFO -> Operation.Outcome.INFO;
            case INVOKE -> throw new IllegalStateException("not a completion");
        };
        if (key < 0) {
            key = (int) (cNames >>> 32) - 1;
        }
        // a completion that echoes its invoke's value shares its reference (and then its string)
        Object output = outcome == Operation.Outcome.INFO ? null : outputRef == inputRef ? input
                : store.get(outputRef);
        return new Operation(id, process, f, symbol(key), input, output, outcome, symbol((int) cLink - 1),
                index(invoke), index(completion), time(invoke), time(completion));
    }

    /**
     * Operations {@code ids} (each as {@link #operation(int)} makes it), made in bulk: the rows of all of them are
     * read first, in loops with nothing else to do, so that the memory accesses overlap instead of waiting one after
     * the other. For the operations of one key, which are spread over the whole history, that is several times
     * faster than making them one by one.
     */
    public List<Operation> operations(int[] ids) {
        int n = ids.length;
        int[] invoke = new int[n];
        for (int k = 0; k < n; k++) {
            invoke[k] = invokes[ids[k]];
        }
        long[] inv = new long[n * ROW];
        for (int k = 0; k < n; k++) {
            System.arraycopy(rows, invoke[k] * ROW, inv, k * ROW, ROW);
        }
        long[] comp = new long[n * ROW];
        for (int k = 0; k < n; k++) {
            int completion = (int) (inv[k * ROW + 2] >>> 32) - 1;
            if (completion >= 0) {
                System.arraycopy(rows, completion * ROW, comp, k * ROW, ROW);
            }
        }
        Operation[] out = new Operation[n];
        for (int k = 0; k < n; k++) {
            int r = k * ROW;
            out[k] = operation(ids[k], invoke[k], inv[r], inv[r + 1], inv[r + 2], inv[r + 3], comp[r], comp[r + 1],
                    comp[r + 2], comp[r + 3]);
        }
        return Arrays.asList(out);
    }

    /**
     * The operations' ids grouped by key, as a model that partitions by {@link Operation#key()} groups them: one
     * group per distinct key (the operations without a key form one group of their own), in the order of each
     * key's first operation, each group in invoke order. Cheap: no operation is made.
     */
    public int[][] operationIdsByKey() {
        int keyCount = symbols.length;
        int[] groupOf = new int[keyCount + 1]; // key id + 1 (0: no key) -> group + 1
        int[] counts = new int[keyCount + 1];
        int groups = 0;
        int[] keyOfOp = new int[operationCount];
        for (int id = 0; id < operationCount; id++) {
            int i = invokes[id] * ROW;
            int slot = (int) (rows[i + 1] >>> 32); // key + 1
            if (slot == 0) {
                int completion = (int) (rows[i + 2] >>> 32) - 1;
                if (completion >= 0) {
                    slot = (int) (rows[completion * ROW + 1] >>> 32);
                }
            }
            keyOfOp[id] = slot;
            if (groupOf[slot] == 0) {
                groupOf[slot] = ++groups;
            }
            counts[groupOf[slot] - 1]++;
        }
        int[][] out = new int[groups][];
        for (int g = 0; g < groups; g++) {
            out[g] = new int[counts[g]];
        }
        int[] fill = new int[groups];
        for (int id = 0; id < operationCount; id++) {
            int g = groupOf[keyOfOp[id]] - 1;
            out[g][fill[g]++] = id;
        }
        return out;
    }

    /**
     * Approximate heap bytes this history takes (its columns and value text; not shared objects such as values
     * handed to {@link #of} that the caller also holds).
     */
    public long heapBytes() {
        long b = 64L * 20;
        b += bytes(rows) + bytes(indices) + bytes(times) + bytes(invokes) + bytes(nemesis);
        for (String s : symbols) {
            b += 56 + s.length();
        }
        return b + store.bytes();
    }

    private static long bytes(int[] a) {
        return a == null ? 0 : 16L + 4L * a.length;
    }

    private static long bytes(long[] a) {
        return a == null ? 0 : 16L + 8L * a.length;
    }

    private long index(int position) {
        return indices == null ? position : indices[position];
    }

    private long time(int position) {
        return times == null ? -1 : times[position];
    }

    private String symbol(int id) {
        return id < 0 ? null : symbols[id];
    }

    private final class OpsView extends AbstractList<Op> implements RandomAccess {
        @Override
        public Op get(int i) {
            return op(checkIndex(i, size));
        }

        @Override
        public int size() {
            return size;
        }
    }

    private final class OperationsView extends AbstractList<Operation> implements RandomAccess {
        @Override
        public Operation get(int i) {
            return operation(checkIndex(i, operationCount));
        }

        @Override
        public int size() {
            return operationCount;
        }
    }

    private final class NemesisView extends AbstractList<Op> implements RandomAccess {
        @Override
        public Op get(int i) {
            return op(nemesis[checkIndex(i, nemesisCount)]);
        }

        @Override
        public int size() {
            return nemesisCount;
        }
    }

    private static int checkIndex(int i, int n) {
        if (i < 0 || i >= n) {
            throw new IndexOutOfBoundsException("index " + i + " out of bounds for length " + n);
        }
        return i;
    }

    /**
     * Builds a {@link History} entry by entry, validating and pairing as it goes, so that a reader can stream a file
     * straight into the compact columns without making an object per entry. Repeated strings (functions, keys,
     * errors) are passed as symbol ids from {@link #symbol}; values as references from {@link #utf8String},
     * {@link #integer} or {@link #object}.
     *
     * <p>Errors ({@link MalformedHistoryException}) name an entry by {@code source line N} when the builder was made
     * for a source, else by the {@code where} function of its op index. Not thread-safe; one builder, one history.
     */
    public static final class Builder {

        private final String source;
        private final LongFunction<String> where;

        private int size;
        private int capacity;
        private long[] rows = new long[0];
        private long[] indices;
        private long[] times;
        private long previousIndex = Long.MIN_VALUE;

        private final SymbolTable symbols = new SymbolTable();
        private final ValueStore store = new ValueStore();

        private int operationCount;
        private int[] invokes = new int[0];
        private int[] invokeLines;           // for errors about an operation's invoke (source builders only)
        private int nemesisCount;
        private int[] nemesis = new int[0];
        private final Outstanding outstanding = new Outstanding();
        private boolean built;

        /** A builder whose errors name entries as {@code source line N}, N the line passed to {@link #add}. */
        public Builder(String source) {
            this.source = source;
            this.where = null;
            this.invokeLines = new int[0];
        }

        /** A builder whose errors name entries by {@code where.apply(op index)}. */
        public Builder(LongFunction<String> where) {
            this.source = null;
            this.where = where;
        }

        /** Room for {@code entries} entries (a hint: the builder grows as needed). */
        public void expectEntries(int entries) {
            if (entries > capacity) {
                grow(entries);
            }
        }

        /** The id of the symbol {@code name}. */
        public int symbol(String name) {
            return symbols.id(name);
        }

        /** The id of the symbol whose valid UTF-8 encoding is {@code utf8[offset, offset + length)}. */
        public int symbol(byte[] utf8, int offset, int length) {
            return symbols.id(utf8, offset, length);
        }

        /** The text of symbol {@code id}. */
        public String symbolName(int id) {
            return symbols.name(id);
        }

        /**
         * A value reference to the string whose valid UTF-8 encoding is {@code utf8[offset, offset + length)};
         * {@code ascii} if the caller knows every byte is below 0x80 (false is always correct, only slower to read).
         */
        public long utf8String(byte[] utf8, int offset, int length, boolean ascii) {
            return store.ofUtf8(utf8, offset, length, ascii);
        }

        /** A value reference to the integer {@code v} (read back as a {@link Long}). */
        public long integer(long v) {
            return store.ofLong(v);
        }

        /** A value reference to {@code value} itself (any plain data; null is nil). */
        public long object(Object value) {
            return store.ofObject(value);
        }

        /** The entries added so far. */
        public int size() {
            return size;
        }

        /**
         * Adds an entry, pairing a completion with its process's outstanding invoke.
         *
         * @param f     symbol id of the function
         * @param key   symbol id of the key, or -1
         * @param value a value reference from this builder
         * @param error symbol id of the error, or -1
         * @param time  ns since the start of the run, or -1
         * @param line  the entry's line in the source (for errors; ignored by builders without a source)
         * @throws MalformedHistoryException if the index does not increase, or the entry breaks the pairing rules
         */
        public void add(long index, int process, OpType type, int f, int key, long value, int error, long time,
                        int line) {
            if (built) {
                throw new IllegalStateException("the history was built already");
            }
            if (index <= previousIndex) {
                throw new MalformedHistoryException(where(index, line) + ": index " + index
                        + " is not greater than the previous index " + previousIndex, index);
            }
            int position = size;
            if (position == capacity) {
                grow(Math.max(16, capacity + (capacity >> 1)));
            }
            int partner = pair(position, index, process, type, f, line);
            previousIndex = index;
            if (indices != null) {
                indices[position] = index;
            } else if (index != position) {
                indices = new long[capacity];
                for (int i = 0; i < position; i++) {
                    indices[i] = i;
                }
                indices[position] = index;
            }
            if (times != null) {
                times[position] = time;
            } else if (time != -1) {
                times = new long[capacity];
                Arrays.fill(times, 0, position, -1L);
                times[position] = time;
            }
            if (partner >= 0 && type != OpType.INVOKE) {
                int p = partner * ROW;
                long invokeValue = rows[p + 3];
                if (value != invokeValue && store.sameString(invokeValue, value)) {
                    store.dropIfLast(value); // a completion that echoes its invoke's value: stored once
                    value = invokeValue;
                }
                rows[p + 2] = (rows[p + 2] & 0xFFFFFFFFL) | ((long) (position + 1) << 32);
            }
            int r = position * ROW;
            rows[r] = (process & 0xFFFFFFFFL) | ((long) type.ordinal() << 32);
            rows[r + 1] = (f & 0xFFFFFFFFL) | ((long) (key + 1) << 32);
            rows[r + 2] = ((error + 1) & 0xFFFFFFFFL) | ((long) (partner + 1) << 32);
            rows[r + 3] = value;
            size++;
        }

        /** Pairs the entry; returns its invoke's position if it is a completion, else -1. */
        private int pair(int position, long index, int process, OpType type, int f, int line) {
            if (process == Op.NEMESIS) {
                if (nemesisCount == nemesis.length) {
                    nemesis = Arrays.copyOf(nemesis, Math.max(16, nemesisCount * 2));
                }
                nemesis[nemesisCount++] = position;
                return -1;
            }
            if (type == OpType.INVOKE) {
                int pending = outstanding.get(process);
                if (pending >= 0) {
                    throw new MalformedHistoryException(where(index, line) + ": process " + process + " invokes "
                            + symbols.name(f) + " while its " + symbols.name(functionOf(invokes[pending]))
                            + " invoked at " + whereInvoke(pending) + " is still outstanding", index);
                }
                int id = operationCount++;
                if (id == invokes.length) {
                    int n = Math.max(16, id + (id >> 1));
                    invokes = Arrays.copyOf(invokes, n);
                    if (invokeLines != null) {
                        invokeLines = Arrays.copyOf(invokeLines, n);
                    }
                }
                invokes[id] = position;
                if (invokeLines != null) {
                    invokeLines[id] = line;
                }
                outstanding.put(process, id);
                return -1;
            }
            int id = outstanding.get(process);
            if (id < 0) {
                throw new MalformedHistoryException(where(index, line) + ": " + type.wireName() + " of "
                        + symbols.name(f) + " by process " + process + " has no invoke before it", index);
            }
            int invoked = functionOf(invokes[id]);
            if (invoked != f) {
                throw new MalformedHistoryException(where(index, line) + ": process " + process + " completes "
                        + symbols.name(f) + " but invoked " + symbols.name(invoked) + " at " + whereInvoke(id), index);
            }
            outstanding.remove(process);
            return invokes[id];
        }

        private int functionOf(int position) {
            return (int) rows[position * ROW + 1];
        }

        private String where(long index, int line) {
            return source != null ? source + " line " + line : where.apply(index);
        }

        private String whereInvoke(int operation) {
            int entry = invokes[operation];
            long index = indices == null ? entry : indices[entry];
            return source != null ? source + " line " + invokeLines[operation] : where.apply(index);
        }

        private void grow(int n) {
            if (indices != null) {
                indices = Arrays.copyOf(indices, n);
            }
            if (times != null) {
                times = Arrays.copyOf(times, n);
            }
            rows = Arrays.copyOf(rows, n * ROW);
            capacity = n;
        }

        /** The history; invokes still outstanding become indeterminate operations that never completed. */
        public History build() {
            built = true;
            return new History(this);
        }
    }

    /** Process number -> its outstanding operation: an array for the usual small numbers, a map beyond. */
    private static final class Outstanding {
        private static final int DIRECT = 1 << 22;
        private int[] direct = new int[64]; // operation id + 1; 0 for none
        private final Map<Integer, Integer> large = new HashMap<>();

        int get(int process) {
            if (process >= 0 && process < DIRECT) {
                return process < direct.length ? direct[process] - 1 : -1;
            }
            Integer id = large.get(process);
            return id == null ? -1 : id;
        }

        void put(int process, int id) {
            if (process >= 0 && process < DIRECT) {
                if (process >= direct.length) {
                    direct = Arrays.copyOf(direct, Math.max(process + 1, direct.length * 2));
                }
                direct[process] = id + 1;
            } else {
                large.put(process, id);
            }
        }

        void remove(int process) {
            if (process >= 0 && process < DIRECT) {
                direct[process] = 0;
            } else {
                large.remove(process);
            }
        }
    }
}
