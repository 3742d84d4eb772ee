package io.zkchaos.checkers.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Byte-level helpers the readers share: UTF-8 validation, character columns, a fast newline search. */
final class Utf8 {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    private Utf8() {
    }

    /**
     * The length of the valid UTF-8 sequence that starts with the non-ASCII byte at {@code b[i]}, or -1 if it is not
     * one (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or cut off before {@code end}):
     * exactly what Java's strict decoder rejects.
     */
    static int sequenceLength(byte[] b, int i, int end) {
        int c = b[i] & 0xff;
        if (c < 0xC2 || c > 0xF4) {
            return -1;
        }
        if (c < 0xE0) {
            return i + 1 < end && isContinuation(b[i + 1]) ? 2 : -1;
        }
        if (i + 1 >= end) {
            return -1;
        }
        int c1 = b[i + 1] & 0xff;
        if (c < 0xF0) {
            boolean ok = c == 0xE0 ? c1 >= 0xA0 && c1 <= 0xBF : c == 0xED ? c1 >= 0x80 && c1 <= 0x9F
                    : c1 >= 0x80 && c1 <= 0xBF;
            return ok && i + 2 < end && isContinuation(b[i + 2]) ? 3 : -1;
        }
        boolean ok = c == 0xF0 ? c1 >= 0x90 && c1 <= 0xBF : c == 0xF4 ? c1 >= 0x80 && c1 <= 0x8F
                : c1 >= 0x80 && c1 <= 0xBF;
        return ok && i + 3 < end && isContinuation(b[i + 2]) && isContinuation(b[i + 3]) ? 4 : -1;
    }

    private static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /**
     * How many Java characters (UTF-16 units, as a {@code String} would count them) {@code b[from, to)} decodes to:
     * what a column number counts.
     */
    static int chars(byte[] b, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            int c = b[i] & 0xff;
            if ((c & 0xC0) != 0x80) {
                n += c >= 0xF0 ? 2 : 1;
            }
        }
        return n;
    }

    /** The index of the first {@code '\n'} in {@code b[from, to)}, or -1; eight bytes at a time. */
    static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long w = (long) LONGS.get(b, i) ^ NEWLINES;
            long zero = (w - ONES) & ~w & HIGHS;
            if (zero != 0) {
                // the lowest flagged byte is a real match (false positives only occur above a match)
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Appends the UTF-8 encoding of code point {@code cp} to {@code out} at {@code at}; returns the new end. */
    static int encode(int cp, byte[] out, int at) {
        if (cp < 0x80) {
            out[at++] = (byte) cp;
        } else if (cp < 0x800) {
            out[at++] = (byte) (0xC0 | (cp >>> 6));
            out[at++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[at++] = (byte) (0xE0 | (cp >>> 12));
            out[at++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            out[at++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            out[at++] = (byte) (0xF0 | (cp >>> 18));
            out[at++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
            out[at++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            out[at++] = (byte) (0x80 | (cp & 0x3F));
        }
        return at;
    }
}
