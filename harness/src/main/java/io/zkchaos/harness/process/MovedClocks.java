package io.zkchaos.harness.process;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The clocks a nemesis has moved and by how much, keyed by whatever names a clock (a node, a client slot): a clock
 * set back to offset zero is no longer moved, so the heal's "which clocks are moved?" is the keys. Thread-safe.
 *
 * @param <K> what names a clock
 */
public final class MovedClocks<K> {

    private final Map<K, Duration> offsets = new ConcurrentHashMap<>();

    /** Records that each clock now runs at its offset (zero: on the machine's time again). */
    public void record(Map<K, Duration> applied) {
        applied.forEach((clock, offset) -> {
            if (offset.isZero()) {
                offsets.remove(clock);
            } else {
                offsets.put(clock, offset);
            }
        });
    }

    /** The moved clocks and their offsets, a copy. */
    public Map<K, Duration> offsets() {
        return Map.copyOf(offsets);
    }
}
