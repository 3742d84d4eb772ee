package io.zkchaos.checkers.history;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The values of a history's entries, each named by a {@code long} reference, so that a million entries do not keep
 * millions of small objects alive (which the garbage collector would copy again and again while they are read).
 *
 * <p>A reference is one of:
 * <ul>
 *   <li>{@code 0}: null;</li>
 *   <li>odd: an integer, {@code ref >> 1}, for integers of at most 62 bits plus sign (read back as {@link Long});</li>
 *   <li>{@code ...10} in binary: a string held as UTF-8 bytes in paged arenas (offset, length and whether it is
 *   all ASCII packed in: ASCII text becomes a {@code String} by a plain copy);</li>
 *   <li>{@code ...00}, non-zero: any other value, in an object table.</li>
 * </ul>
 * Strings and integers come back as new {@code String}/{@code Long} objects each time, equal to what was stored.
 * Not thread-safe while values are added; safe to read from several threads once the history is built.
 */
final class ValueStore {

    /** The reference of null. */
    static final long NIL = 0;
    /** The reference of the empty string (a string of length 0 at offset 0). */
    private static final long EMPTY_STRING = 2;

    private static final int PAGE_BITS = 20;
    private static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final int LENGTH_BITS = 21;
    private static final int OFFSET_SHIFT = LENGTH_BITS + 3;
    private static final long ASCII = 1L << (LENGTH_BITS + 2);
    private static final long LENGTH_MASK = (1L << LENGTH_BITS) - 1;
    private static final long SMALLEST_INLINE = -(1L << 62);
    private static final long LARGEST_INLINE = (1L << 62) - 1;

    private byte[][] pages = new byte[4][];
    private int page = -1;   // the page being filled
    private int top;         // bytes used in it
    private long arenaBytes;

    private Object[] objects = new Object[0];
    private int objectCount;

    /** A reference to the integer {@code v}. */
    long ofLong(long v) {
        if (v >= SMALLEST_INLINE && v <= LARGEST_INLINE) {
            return (v << 1) | 1;
        }
        return ofObject(v);
    }

    /**
     * A reference to the string whose (valid) UTF-8 encoding is {@code utf8[offset, offset + length)}; {@code ascii}
     * if every byte is below 0x80 (it is then read back without decoding).
     */
    long ofUtf8(byte[] utf8, int offset, int length, boolean ascii) {
        if (length == 0) {
            return EMPTY_STRING;
        }
        if (length > PAGE_SIZE) {
            return ofObject(new String(utf8, offset, length, StandardCharsets.UTF_8));
        }
        byte[] current = page < 0 ? null : pages[page];
        if (current == null || top + length > current.length) {
            if (current != null && page == 0 && current.length < PAGE_SIZE && top + length <= PAGE_SIZE) {
                // the first page starts small and doubles, so that a short history takes little room
                pages[0] = Arrays.copyOf(current, Math.min(PAGE_SIZE, Math.max(top + length, current.length * 2)));
            } else {
                page++;
                if (page == pages.length) {
                    pages = Arrays.copyOf(pages, pages.length * 2);
                }
                pages[page] = new byte[page == 0 ? Math.max(length, 4096) : PAGE_SIZE];
                top = 0;
            }
            current = pages[page];
        }
        System.arraycopy(utf8, offset, current, top, length);
        long at = ((long) page << PAGE_BITS) | top;
        top += length;
        arenaBytes += length;
        return (at << OFFSET_SHIFT) | (ascii ? ASCII : 0) | ((long) length << 2) | 2;
    }

    /** A reference to {@code value}, kept as the object itself (null gives {@link #NIL}). */
    long ofObject(Object value) {
        if (value == null) {
            return NIL;
        }
        if (objectCount == objects.length) {
            objects = Arrays.copyOf(objects, Math.max(16, objectCount * 2));
        }
        objects[objectCount++] = value;
        return (long) objectCount << 2;
    }

    /** The value {@code ref} stands for. */
    Object get(long ref) {
        if (ref == NIL) {
            return null;
        }
        if ((ref & 1) != 0) {
            return ref >> 1;
        }
        if ((ref & 3) == 2) {
            long at = ref >>> OFFSET_SHIFT;
            int length = (int) ((ref >>> 2) & LENGTH_MASK);
            if (length == 0) {
                return "";
            }
            return new String(pages[(int) (at >>> PAGE_BITS)], (int) (at & (PAGE_SIZE - 1)), length,
                    (ref & ASCII) != 0 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        }
        return objects[(int) (ref >>> 2) - 1];
    }

    /**
     * Whether {@code a} and {@code b} are arena strings with the same bytes (then {@code b} can stand for
     * {@code a}).
     */
    boolean sameString(long a, long b) {
        if ((a & 3) != 2 || (b & 3) != 2 || ((a ^ b) & ((LENGTH_MASK << 2) | ASCII)) != 0) {
            return false;
        }
        int length = (int) ((a >>> 2) & LENGTH_MASK);
        if (length == 0) {
            return true;
        }
        long x = a >>> OFFSET_SHIFT;
        long y = b >>> OFFSET_SHIFT;
        byte[] px = pages[(int) (x >>> PAGE_BITS)];
        byte[] py = pages[(int) (y >>> PAGE_BITS)];
        int ox = (int) (x & (PAGE_SIZE - 1));
        int oy = (int) (y & (PAGE_SIZE - 1));
        return Arrays.equals(px, ox, ox + length, py, oy, oy + length);
    }

    /** Takes back the bytes of {@code ref} if it was the last string stored (its reference is then invalid). */
    void dropIfLast(long ref) {
        if ((ref & 3) != 2 || ref == EMPTY_STRING) {
            return;
        }
        int length = (int) ((ref >>> 2) & LENGTH_MASK);
        long at = ref >>> OFFSET_SHIFT;
        if ((int) (at >>> PAGE_BITS) == page && (int) (at & (PAGE_SIZE - 1)) + length == top) {
            top -= length;
            arenaBytes -= length;
        }
    }

    /** Approximate heap bytes held: arena pages and the object table's slots (not the objects themselves). */
    long bytes() {
        long b = 16L + pages.length * 4L + objects.length * 4L;
        for (byte[] p : pages) {
            if (p != null) {
                b += 16 + p.length;
            }
        }
        return b;
    }

    /** UTF-8 bytes of strings stored in the arenas. */
    long arenaBytes() {
        return arenaBytes;
    }
}
