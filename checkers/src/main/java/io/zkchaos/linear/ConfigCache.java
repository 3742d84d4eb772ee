package io.zkchaos.linear;

/**
 * The WGL memo: the set of configurations (linearized-operations bitset, model state) already explored.
 *
 * <p>An open-addressing hash table over entries kept in flat arrays: each entry's bitset lives in a paged
 * {@code long} arena (no object per bitset), its state in an object array. The caller supplies a Zobrist hash of
 * the bitset (XOR of a random word per linearized operation), maintained incrementally, so a probe costs
 * O(1) hashing plus one bitset comparison on a hash hit. Not thread-safe: one cache per partition search.
 */
final class ConfigCache {

    private static final int PAGE_LONGS = 1 << 16;

    private final int words;
    private final int entriesPerPage;
    private long[][] pages = new long[4][];
    private Object[] states = new Object[64];
    private long[] entryHash = new long[64];
    private int size;

    private int[] table = new int[128]; // entry index + 1; 0 = empty
    private long[] tableHash = new long[128];

    ConfigCache(int bits) {
        this.words = Math.max(1, (bits + 63) >>> 6);
        this.entriesPerPage = Math.max(1, PAGE_LONGS / words);
    }

    int size() {
        return size;
    }

    /** Approximate heap bytes per entry, for the memory guard. */
    long bytesPerEntry() {
        return words * 8L + 8 + 4 + 24;
    }

    /**
     * Adds the configuration ({@code bits} with bit {@code flip} set, {@code state}) unless present.
     *
     * @param bits     the current linearized set, with bit {@code flip} still clear
     * @param bitsHash the Zobrist hash of the set with {@code flip} set
     * @return true if it was added (not explored before)
     */
    boolean addIfAbsent(long[] bits, int flip, long bitsHash, Object state) {
        long h = mix(bitsHash + 0x9E3779B97F4A7C15L * state.hashCode());
        int mask = table.length - 1;
        int i = (int) h & mask;
        int flipWord = flip >>> 6;
        long flipMask = 1L << flip;
        while (true) {
            int e = table[i];
            if (e == 0) {
                break;
            }
            if (tableHash[i] == h && sameBits(e - 1, bits, flipWord, flipMask) && states[e - 1].equals(state)) {
                return false;
            }
            i = (i + 1) & mask;
        }
        int e = size++;
        store(e, bits, flipWord, flipMask, state, h);
        table[i] = e + 1;
        tableHash[i] = h;
        if (size * 2L > table.length) {
            grow();
        }
        return true;
    }

    private boolean sameBits(int e, long[] bits, int flipWord, long flipMask) {
        long[] page = pages[e / entriesPerPage];
        int off = (e % entriesPerPage) * words;
        for (int w = 0; w < words; w++) {
            long b = w == flipWord ? bits[w] | flipMask : bits[w];
            if (page[off + w] != b) {
                return false;
            }
        }
        return true;
    }

    private void store(int e, long[] bits, int flipWord, long flipMask, Object state, long h) {
        int p = e / entriesPerPage;
        if (p >= pages.length) {
            long[][] np = new long[pages.length * 2][];
            System.arraycopy(pages, 0, np, 0, pages.length);
            pages = np;
        }
        if (pages[p] == null) {
            pages[p] = new long[entriesPerPage * words];
        }
        int off = (e % entriesPerPage) * words;
        System.arraycopy(bits, 0, pages[p], off, words);
        pages[p][off + flipWord] |= flipMask;
        if (e >= states.length) {
            int n = states.length * 2;
            states = java.util.Arrays.copyOf(states, n);
            entryHash = java.util.Arrays.copyOf(entryHash, n);
        }
        states[e] = state;
        entryHash[e] = h;
    }

    private void grow() {
        int n = table.length * 2;
        int[] t = new int[n];
        long[] th = new long[n];
        int mask = n - 1;
        for (int e = 0; e < size; e++) {
            long h = entryHash[e];
            int i = (int) h & mask;
            while (t[i] != 0) {
                i = (i + 1) & mask;
            }
            t[i] = e + 1;
            th[i] = h;
        }
        table = t;
        tableHash = th;
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
