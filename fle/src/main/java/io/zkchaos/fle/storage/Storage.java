package io.zkchaos.fle.storage;

import io.zkchaos.fle.zab.Entry;
import java.util.List;

/**
 * A server's durable state (SPEC §5.3): its history, {@code acceptedEpoch} and {@code currentEpoch}. Every method is
 * durable when it returns (the data survives a crash of the process and of the machine); a failure throws
 * {@link java.io.UncheckedIOException} and the node must stop, since it can no longer keep its promises.
 */
public interface Storage extends AutoCloseable {

    /** What was stored, as read back at start-up. */
    record Persisted(long acceptedEpoch, long currentEpoch, List<Entry> history) {
        public Persisted {
            history = List.copyOf(history);
        }

        public static final Persisted EMPTY = new Persisted(0, 0, List.of());
    }

    Persisted load();

    /** Appends entries after the last one (zxids increasing). */
    void append(List<Entry> entries);

    /** Drops every entry whose zxid is above {@code zxid}. */
    void truncateAfter(long zxid);

    /** Replaces the whole history. */
    void replace(List<Entry> entries);

    void acceptedEpoch(long epoch);

    void currentEpoch(long epoch);

    @Override
    void close();
}
