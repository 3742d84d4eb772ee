package io.zkchaos.checkers.linear;

import java.util.Arrays;

/**
 * The WGL memo: the configurations (linearized operations, model state) the search has visited.
 *
 * <p>A configuration is keyed by its <em>node</em> — the set of linearized determinate operations plus the state —
 * and within a node by the set of linearized indeterminate operations (a <em>variant</em>). A new configuration is
 * pruned if it was visited before, or if a <em>finished</em> variant of its node (one whose whole subtree was
 * searched without success) linearized a subset of its indeterminate operations: indeterminate operations are
 * optional, so every completion of the new configuration is also a completion of that one, which has none.
 * Only finished variants may prune this way (an unfinished one is an ancestor still being searched).
 *
 * <p>Storage is flat: bitsets live in paged {@code long} arenas (no object per bitset), states in an object array.
 * The caller supplies a Zobrist hash of the determinate set (XOR of a fixed random word per operation), kept
 * incrementally, so a probe costs O(1) hashing plus one bitset comparison on a hash hit. Not thread-safe: one
 * cache per partition search.
 */
final class ConfigCache {

    private static final int PAGE_LONGS = 1 << 20;

    private final int detWords;
    private final int infoWords;
    private final LongArena nodeBits;
    private final LongArena variantBits;

    private Object[] nodeState;
    private long[] nodeHash;
    private int[] nodeFirstVariant;
    private int nodes;

    private int[] variantNext;
    private long[] variantFinished;
    private int variants;

    private int[] table; // node index + 1; 0 = empty
    private long[] tableHash;

    ConfigCache(int determinate, int indeterminate) {
        this.detWords = Math.max(1, (determinate + 63) >>> 6);
        this.infoWords = (indeterminate + 63) >>> 6;
        // a search visits at least one configuration per operation: size for that, so small searches never rehash
        // (nor copy their first arena page)
        int expected = Math.min(1 << 20, Math.max(64, determinate + indeterminate));
        this.nodeBits = new LongArena(detWords, expected);
        this.variantBits = new LongArena(infoWords, expected);
        int capacity = Integer.highestOneBit(expected * 2 - 1) << 1;
        this.table = new int[capacity];
        this.tableHash = new long[capacity];
        this.nodeState = new Object[expected];
        this.nodeHash = new long[expected];
        this.nodeFirstVariant = new int[expected];
        this.variantNext = new int[expected];
        this.variantFinished = new long[(expected + 63) >>> 6];
    }

    /** Configurations stored. */
    int size() {
        return variants;
    }

    /** Approximate heap bytes per configuration, for the memory guard. */
    long bytesPerEntry() {
        return detWords * 8L + infoWords * 8L + 48;
    }

    /**
     * Records a visit to the configuration (det, info, state) unless it must be pruned.
     *
     * @param det     the linearized determinate operations
     * @param detHash the Zobrist hash of {@code det}
     * @param info    the linearized indeterminate operations (length {@code infoWords}; may be empty)
     * @return the configuration's id, to {@link #finish} when its subtree is exhausted; -1 if pruned
     */
    int visit(long[] det, long detHash, long[] info, Object state) {
        long h = mix(detHash + 0x9E3779B97F4A7C15L * state.hashCode());
        int mask = table.length - 1;
        int i = (int) h & mask;
        while (true) {
            int n = table[i] - 1;
            if (n < 0) {
                break;
            }
            if (tableHash[i] == h && nodeBits.equalsAt(n, det) && nodeState[n].equals(state)) {
                return addVariant(n, info);
            }
            i = (i + 1) & mask;
        }
        int n = nodes++;
        if (n == nodeState.length) {
            int size = n * 2;
            nodeState = Arrays.copyOf(nodeState, size);
            nodeHash = Arrays.copyOf(nodeHash, size);
            nodeFirstVariant = Arrays.copyOf(nodeFirstVariant, size);
        }
        nodeBits.store(n, det);
        nodeState[n] = state;
        nodeHash[n] = h;
        nodeFirstVariant[n] = -1;
        table[i] = n + 1;
        tableHash[i] = h;
        if (nodes * 2L > table.length) {
            grow();
        }
        return addVariant(n, info);
    }

    private int addVariant(int node, long[] info) {
        for (int v = nodeFirstVariant[node]; v >= 0; v = variantNext[v]) {
            if (infoWords == 0 || (isFinished(v) ? variantBits.subsetAt(v, info) : variantBits.equalsAt(v, info))) {
                return -1;
            }
        }
        int v = variants++;
        if (v == variantNext.length) {
            variantNext = Arrays.copyOf(variantNext, v * 2);
        }
        if ((v >>> 6) >= variantFinished.length) {
            variantFinished = Arrays.copyOf(variantFinished, variantFinished.length * 2);
        }
        variantBits.store(v, info);
        variantNext[v] = nodeFirstVariant[node];
        nodeFirstVariant[node] = v;
        return v;
    }

    /** Marks configuration {@code id} as searched without success. */
    void finish(int id) {
        variantFinished[id >>> 6] |= 1L << id;
    }

    private boolean isFinished(int v) {
        return (variantFinished[v >>> 6] & (1L << v)) != 0;
    }

    private void grow() {
        int size = table.length * 2;
        int[] t = new int[size];
        long[] th = new long[size];
        int mask = size - 1;
        for (int n = 0; n < nodes; n++) {
            long h = nodeHash[n];
            int i = (int) h & mask;
            while (t[i] != 0) {
                i = (i + 1) & mask;
            }
            t[i] = n + 1;
            th[i] = h;
        }
        table = t;
        tableHash = th;
    }

    /**
     * Fixed-width bitsets stored back to back in pages of longs. The first page starts at the expected number of
     * entries (one per operation) and doubles; later pages are full size, so a big cache never copies itself.
     */
    private static final class LongArena {
        private final int words;
        private final int perPage;
        private long[][] pages = new long[4][];

        private final int firstPageEntries;

        LongArena(int words, int expectedEntries) {
            this.words = words;
            this.perPage = Math.max(1, PAGE_LONGS / Math.max(1, words));
            this.firstPageEntries = Math.max(64, Math.min(perPage, expectedEntries));
        }

        void store(int index, long[] bits) {
            if (words == 0) {
                return;
            }
            int p = index / perPage;
            int off = (index % perPage) * words;
            if (p >= pages.length) {
                pages = Arrays.copyOf(pages, Math.max(p + 1, pages.length * 2));
            }
            long[] page = pages[p];
            if (page == null || page.length < off + words) {
                int size = p > 0 ? perPage * words
                        : Math.min(perPage * words, Math.max(firstPageEntries * words,
                                (page == null ? 0 : page.length) * 2));
                page = page == null ? new long[size] : Arrays.copyOf(page, size);
                pages[p] = page;
            }
            System.arraycopy(bits, 0, page, off, words);
        }

        boolean equalsAt(int index, long[] bits) {
            long[] page = pages[index / perPage];
            int off = (index % perPage) * words;
            for (int w = 0; w < words; w++) {
                if (page[off + w] != bits[w]) {
                    return false;
                }
            }
            return true;
        }

        /** Whether the stored set is a subset of {@code bits}. */
        boolean subsetAt(int index, long[] bits) {
            long[] page = pages[index / perPage];
            int off = (index % perPage) * words;
            for (int w = 0; w < words; w++) {
                if ((page[off + w] & ~bits[w]) != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Stafford's variant 13 of the SplitMix64 finaliser: a cheap, well-spread 64-bit mix. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The Zobrist word of operation {@code id}: fixed, so runs are reproducible. */
    static long zobrist(int id) {
        return mix(0x632BE59BD9B4E019L + id * 0x9E3779B97F4A7C15L);
    }
}
