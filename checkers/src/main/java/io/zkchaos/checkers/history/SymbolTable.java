package io.zkchaos.checkers.history;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The repeated strings of a history (functions, keys, errors), each stored once and named by a dense {@code int}
 * id. Readers look a symbol up by its UTF-8 bytes, which costs no allocation once the symbol is known: a history of a
 * million operations on a thousand keys makes a thousand key strings, not a million.
 *
 * <p>Not thread-safe while symbols are added.
 */
final class SymbolTable {

    private String[] names = new String[16];
    private int count;
    private final Map<String, Integer> byName = new HashMap<>();

    // Lookup by bytes: open addressing over (hash, id + 1); the bytes of each symbol met as bytes, back to back.
    private int[] slots = new int[64];
    private int[] slotHashes = new int[64];
    private byte[] bytes = new byte[256];
    private int[] byteOffset = new int[16];
    private int[] byteLength = new int[16];
    private int used;
    private int byteTop;

    // Symbols of up to 7 bytes, by their bytes and length packed into a long.
    private int[] shortSlots = new int[64];
    private long[] shortWords = new long[64];
    private int shortUsed;

    /** The id of {@code name}, added if new. */
    int id(String name) {
        Integer known = byName.get(name);
        if (known != null) {
            return known;
        }
        int id = count++;
        if (id == names.length) {
            names = Arrays.copyOf(names, id * 2);
        }
        names[id] = name;
        byName.put(name, id);
        return id;
    }

    /** The id of the string whose (valid) UTF-8 encoding is {@code utf8[offset, offset + length)}, added if new. */
    int id(byte[] utf8, int offset, int length) {
        if (length <= 7) {
            // Most symbols (functions, types, short keys) fit in a long with their length: one probe, no loop.
            long word = length;
            for (int i = offset, end = offset + length; i < end; i++) {
                word = (word << 8) | (utf8[i] & 0xff);
            }
            int mask = shortSlots.length - 1;
            int i = (int) mix(word) & mask;
            while (shortSlots[i] != 0) {
                if (shortWords[i] == word) {
                    return shortSlots[i] - 1;
                }
                i = (i + 1) & mask;
            }
            int id = id(new String(utf8, offset, length, StandardCharsets.UTF_8));
            shortSlots[i] = id + 1;
            shortWords[i] = word;
            if (++shortUsed * 2 > shortSlots.length) {
                rehashShort();
            }
            return id;
        }
        int h = hash(utf8, offset, length);
        int mask = slots.length - 1;
        int i = h & mask;
        while (slots[i] != 0) {
            if (slotHashes[i] == h) {
                int id = slots[i] - 1;
                if (byteLength[id] == length && same(bytes, byteOffset[id], utf8, offset, length)) {
                    return id;
                }
            }
            i = (i + 1) & mask;
        }
        int id = id(new String(utf8, offset, length, StandardCharsets.UTF_8));
        if (id >= byteOffset.length) {
            int size = Math.max(id + 1, byteOffset.length * 2);
            byteOffset = Arrays.copyOf(byteOffset, size);
            byteLength = Arrays.copyOf(byteLength, size);
        }
        if (byteTop + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(byteTop + length, bytes.length * 2));
        }
        System.arraycopy(utf8, offset, bytes, byteTop, length);
        byteOffset[id] = byteTop;
        byteLength[id] = length;
        byteTop += length;
        // A symbol first added by name and met later as bytes gets its bytes recorded then; an id has one slot.
        slots[i] = id + 1;
        slotHashes[i] = h;
        if (++used * 2 > slots.length) {
            rehash();
        }
        return id;
    }

    private void rehashShort() {
        int size = shortSlots.length * 2;
        int[] s = new int[size];
        long[] w = new long[size];
        int mask = size - 1;
        for (int i = 0; i < shortSlots.length; i++) {
            if (shortSlots[i] != 0) {
                int j = (int) mix(shortWords[i]) & mask;
                while (s[j] != 0) {
                    j = (j + 1) & mask;
                }
                s[j] = shortSlots[i];
                w[j] = shortWords[i];
            }
        }
        shortSlots = s;
        shortWords = w;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        return z ^ (z >>> 29);
    }

    private void rehash() {
        int size = slots.length * 2;
        int[] s = new int[size];
        int[] sh = new int[size];
        int mask = size - 1;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != 0) {
                int j = slotHashes[i] & mask;
                while (s[j] != 0) {
                    j = (j + 1) & mask;
                }
                s[j] = slots[i];
                sh[j] = slotHashes[i];
            }
        }
        slots = s;
        slotHashes = sh;
    }

    /** Byte equality; a plain loop, which beats the vectorised compare for the short strings symbols are. */
    private static boolean same(byte[] a, int i, byte[] b, int j, int length) {
        for (int k = 0; k < length; k++) {
            if (a[i + k] != b[j + k]) {
                return false;
            }
        }
        return true;
    }

    private static int hash(byte[] b, int offset, int length) {
        int h = 0x9E3779B9 ^ length;
        for (int i = offset, end = offset + length; i < end; i++) {
            h = (h ^ b[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    /** The string of {@code id}. */
    String name(int id) {
        return names[id];
    }

    int size() {
        return count;
    }

    /** The names, by id (a copy). */
    String[] names() {
        return Arrays.copyOf(names, count);
    }
}
