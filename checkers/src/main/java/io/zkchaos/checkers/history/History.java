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
 * <p>The entries are stored column-wise (primitive arrays, repeated strings once, values packed; see
 * {@link Builder}), so a history of a million operations takes some 40 bytes per entry plus its values' text
 * instead of millions of objects. {@link #ops()}, {@link #operations()} and {@link #nemesisOps()} are views that
 * make each {@link Op} or {@link Operation} when it is asked for: equal to what was recorded, but a new object
 * each time. Safe to read from several threads.
 */
public final class History {

    private static final OpType[] TYPES = OpType.values();

    private final int size;
    private final long[] indices;   // null when every entry's index is its position
    private final int[] processes;
    private final byte[] types;     // OpType ordinals
    private final int[] functions;  // symbol ids
    private final int[] keys;       // symbol ids, -1 for none
    private final long[] values;    // ValueStore references
    private final int[] errors;     // symbol ids, -1 for none
    private final long[] times;     // null when no entry has a time
    private final String[] symbols;
    private final ValueStore store;

    private final int operationCount;
    private final int[] invokes;      // operation id -> entry of its invoke
    private final int[] completions;  // operation id -> entry of its completion, -1 if it never completed
    private final int[] nemesis;      // entries of the nemesis, in order
    private final int nemesisCount;

    private final List<Op> opsView = new OpsView();
    private final List<Operation> operationsView = new OperationsView();
    private final List<Op> nemesisView = new NemesisView();

    private History(Builder b) {
        this.size = b.size;
        this.indices = b.indices == null ? null : trim(b.indices, size);
        this.processes = trim(b.processes, size);
        this.types = b.types.length - size > b.types.length / 4 ? Arrays.copyOf(b.types, size) : b.types;
        this.functions = trim(b.functions, size);
        this.keys = trim(b.keys, size);
        this.values = trim(b.values, size);
        this.errors = trim(b.errors, size);
        this.times = b.times == null ? null : trim(b.times, size);
        this.symbols = b.symbols.names();
        this.store = b.store;
        this.operationCount = b.operationCount;
        this.invokes = trim(b.invokes, operationCount);
        this.completions = trim(b.completions, operationCount);
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
        return new Op(index(position), processes[position], TYPES[types[position]], symbols[functions[position]],
                symbol(keys[position]), store.get(values[position]), symbol(errors[position]), time(position));
    }

    /** Operation {@code id} as an {@link Operation} (a new object, equal each time). */
    public Operation operation(int id) {
        int invoke = invokes[id];
        int completion = completions[id];
        String f = symbols[functions[invoke]];
        Object input = store.get(values[invoke]);
        if (completion < 0) {
            return new Operation(id, processes[invoke], f, symbol(keys[invoke]), input, null,
                    Operation.Outcome.INFO, "never completed", index(invoke), -1, time(invoke), -1);
        }
        Operation.Outcome outcome = switch (TYPES[types[completion]]) {
            case OK -> Operation.Outcome.OK;
            case FAIL -> Operation.Outcome.FAIL;
            case INFO -> Operation.Outcome.INFO;
            case INVOKE -> throw new IllegalStateException("not a completion");
        };
        int key = keys[invoke] >= 0 ? keys[invoke] : keys[completion];
        return new Operation(id, processes[invoke], f, symbol(key), input,
                outcome == Operation.Outcome.INFO ? null : store.get(values[completion]), outcome,
                symbol(errors[completion]), index(invoke), index(completion), time(invoke), time(completion));
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
            int invoke = invokes[id];
            int completion = completions[id];
            int key = keys[invoke] >= 0 ? keys[invoke] : completion >= 0 ? keys[completion] : -1;
            int slot = key + 1;
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
        b += bytes(indices) + bytes(processes) + (16L + types.length) + bytes(functions) + bytes(keys)
                + bytes(values) + bytes(errors) + bytes(times) + bytes(invokes) + bytes(completions)
                + bytes(nemesis);
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
        private long[] indices;
        private int[] processes = new int[0];
        private byte[] types = new byte[0];
        private int[] functions = new int[0];
        private int[] keys = new int[0];
        private long[] values = new long[0];
        private int[] errors = new int[0];
        private long[] times;
        private long previousIndex = Long.MIN_VALUE;

        private final SymbolTable symbols = new SymbolTable();
        private final ValueStore store = new ValueStore();

        private int operationCount;
        private int[] invokes = new int[0];
        private int[] completions = new int[0];
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

        /** A value reference to the string whose valid UTF-8 encoding is {@code utf8[offset, offset + length)}. */
        public long utf8String(byte[] utf8, int offset, int length) {
            return store.ofUtf8(utf8, offset, length);
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
            pair(position, index, process, type, f, line);
            if (position == capacity) {
                grow(Math.max(16, capacity + (capacity >> 1)));
            }
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
            processes[position] = process;
            types[position] = (byte) type.ordinal();
            functions[position] = f;
            keys[position] = key;
            values[position] = value;
            errors[position] = error;
            size++;
        }

        private void pair(int position, long index, int process, OpType type, int f, int line) {
            if (process == Op.NEMESIS) {
                if (nemesisCount == nemesis.length) {
                    nemesis = Arrays.copyOf(nemesis, Math.max(16, nemesisCount * 2));
                }
                nemesis[nemesisCount++] = position;
                return;
            }
            if (type == OpType.INVOKE) {
                int pending = outstanding.get(process);
                if (pending >= 0) {
                    throw new MalformedHistoryException(where(index, line) + ": process " + process + " invokes "
                            + symbols.name(f) + " while its " + symbols.name(functions[invokes[pending]])
                            + " invoked at " + whereInvoke(pending) + " is still outstanding", index);
                }
                int id = operationCount++;
                if (id == invokes.length) {
                    int n = Math.max(16, id + (id >> 1));
                    invokes = Arrays.copyOf(invokes, n);
                    completions = Arrays.copyOf(completions, n);
                    if (invokeLines != null) {
                        invokeLines = Arrays.copyOf(invokeLines, n);
                    }
                }
                invokes[id] = position;
                completions[id] = -1;
                if (invokeLines != null) {
                    invokeLines[id] = line;
                }
                outstanding.put(process, id);
                return;
            }
            int id = outstanding.get(process);
            if (id < 0) {
                throw new MalformedHistoryException(where(index, line) + ": " + type.wireName() + " of "
                        + symbols.name(f) + " by process " + process + " has no invoke before it", index);
            }
            int invoked = functions[invokes[id]];
            if (invoked != f) {
                throw new MalformedHistoryException(where(index, line) + ": process " + process + " completes "
                        + symbols.name(f) + " but invoked " + symbols.name(invoked) + " at " + whereInvoke(id), index);
            }
            outstanding.remove(process);
            completions[id] = position;
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
            processes = Arrays.copyOf(processes, n);
            types = Arrays.copyOf(types, n);
            functions = Arrays.copyOf(functions, n);
            keys = Arrays.copyOf(keys, n);
            values = Arrays.copyOf(values, n);
            errors = Arrays.copyOf(errors, n);
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
