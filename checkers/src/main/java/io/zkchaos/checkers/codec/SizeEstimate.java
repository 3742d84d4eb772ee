package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.History;

/**
 * Sizes a history's rows from the input's size: room for a sample first, then, once the sample has been read, for the
 * number of entries the whole input will hold at the bytes per entry seen so far. So the rows of a big file are
 * allocated about once, at about the right size, instead of growing (and being copied) their way up.
 */
final class SizeEstimate {

    /** Bytes per entry of a history with short values and no times: the first guess errs on the small side. */
    private static final int FIRST_GUESS_BYTES = 128;
    private static final int SAMPLE = 1 << 16;

    private final History.Builder builder;
    private final long totalBytes;
    private int nextCheck = SAMPLE;

    SizeEstimate(History.Builder builder, long totalBytes) {
        this.builder = builder;
        this.totalBytes = totalBytes;
        if (totalBytes > 0) {
            // enough for the sample; a big input is sized once the sample has been read
            builder.expectEntries((int) Math.min(SAMPLE + 1024, totalBytes / FIRST_GUESS_BYTES));
        }
    }

    /** Called after each entry with the bytes read so far. */
    void update(long bytesRead) {
        if (builder.size() < nextCheck || totalBytes <= 0 || bytesRead <= 0) {
            return;
        }
        nextCheck = Integer.MAX_VALUE; // once: the sample is enough for histories of uniform entries
        double perEntry = (double) bytesRead / builder.size();
        long expected = (long) (totalBytes / perEntry * 1.02) + 1024;
        builder.expectEntries((int) Math.min(Integer.MAX_VALUE - 8, expected));
    }
}
