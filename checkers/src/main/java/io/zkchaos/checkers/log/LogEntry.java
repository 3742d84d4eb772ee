package io.zkchaos.checkers.log;

import java.util.Locale;

/**
 * One committed transaction of a node's log.
 *
 * @param zxid  its zxid (epoch in the high 32 bits, counter in the low 32)
 * @param value what it wrote
 */
public record LogEntry(long zxid, Object value) {

    /** {@code 0x100000003=v} (epoch 1, counter 3). */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "0x%x=%s", zxid, value);
    }
}
