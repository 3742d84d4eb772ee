package io.zkchaos.harness.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A data tree the harness creates before the main phase ({@code --preload COUNTxBYTES}): {@code count} persistent
 * znodes of {@code bytes} bytes each under {@link #PATH}, so that the servers' snapshots are far larger than socket
 * and proxy buffers (a SNAP sync then streams megabytes). The znodes are the harness's setup, not operations under
 * test: nothing of them is recorded in the history, and no workload touches them; the final-state reads see them like
 * any other znode, so every server must still hold them all after the run.
 *
 * @param count how many znodes, 1 to {@value #MAX_COUNT}
 * @param bytes the data of each, 0 to {@value #MAX_BYTES} bytes (below ZooKeeper's default {@code jute.maxbuffer} of
 *              1 MiB, which bounds a request)
 */
public record Preload(int count, int bytes) {

    /** The parent of the preloaded znodes (a workload's znodes are under {@code /zkchaos}). */
    public static final String PATH = "/zkchaos-preload";
    public static final int MAX_COUNT = 1_000_000;
    public static final int MAX_BYTES = 1_000_000;
    /**
     * The most data in all: every server holds the whole tree in its heap (128 MB by default) and a leader streams it
     * to a syncing follower while it serves.
     */
    public static final long MAX_TOTAL_BYTES = 32L << 20;

    public Preload {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("preload: COUNT must be 1.." + MAX_COUNT + ", got " + count);
        }
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("preload: BYTES must be 0.." + MAX_BYTES + " (a znode's data, below "
                    + "ZooKeeper's 1 MiB jute.maxbuffer), got " + bytes);
        }
        if ((long) count * bytes > MAX_TOTAL_BYTES) {
            throw new IllegalArgumentException("preload: " + count + " x " + bytes + " bytes is "
                    + ((long) count * bytes >> 20) + " MiB; at most " + (MAX_TOTAL_BYTES >> 20) + " MiB in all (every "
                    + "server holds the tree in a 128 MB heap)");
        }
    }

    /**
     * {@code COUNTxBYTES}, e.g. {@code 2000x4096}.
     *
     * @throws IllegalArgumentException naming the option and what is wrong
     */
    @JsonCreator
    public static Preload parse(String text) {
        String[] parts = text == null ? new String[0] : text.trim().toLowerCase(Locale.ROOT).split("x", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("preload must be COUNTxBYTES (e.g. 2000x4096), got '" + text + "'");
        }
        try {
            return new Preload(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("preload must be COUNTxBYTES with whole numbers (e.g. 2000x4096), got '"
                    + text + "'");
        }
    }

    /** As {@link #parse} takes it, and as a configuration saves it: {@code 2000x4096}. */
    @JsonValue
    @Override
    public String toString() {
        return count + "x" + bytes;
    }

    /** For people: {@code 2000 znodes of 4096 bytes (7.8 MiB)}. */
    public String describe() {
        return String.format(Locale.ROOT, "%d znodes of %d bytes (%.1f MiB)", count, bytes,
                (double) count * bytes / (1 << 20));
    }
}
