package io.zkchaos.checkers.model;

import java.util.Arrays;

/**
 * Copy-on-write edits of arrays, for the model states that keep a map as parallel sorted key and value arrays
 * (states must be immutable: the checker memoises on them). The copies keep the argument's runtime array type.
 */
public final class SortedArrays {

    private SortedArrays() {
    }

    /** A copy of {@code a} without the element at {@code i} ({@code 0 <= i < a.length}). */
    public static <T> T[] without(T[] a, int i) {
        T[] out = Arrays.copyOf(a, a.length - 1);
        System.arraycopy(a, i + 1, out, i, a.length - i - 1);
        return out;
    }

    /** A copy of {@code a} with {@code x} inserted at {@code at} ({@code 0 <= at <= a.length}). */
    public static <T> T[] inserted(T[] a, int at, T x) {
        T[] out = Arrays.copyOf(a, a.length + 1);
        System.arraycopy(a, at, out, at + 1, a.length - at);
        out[at] = x;
        return out;
    }
}
