package io.zkchaos.checkers.codec;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * How forgiving a reader is.
 *
 * @param tolerateTruncatedTail drop a JSON Lines file's last line when it has no newline and does not parse (what a
 *                              writer killed mid-line leaves) instead of failing
 * @param warnings              receives a message for everything dropped
 */
public record ReadOptions(boolean tolerateTruncatedTail, Consumer<String> warnings) {

    /** Every defect is an error. */
    public static final ReadOptions STRICT = new ReadOptions(false, message -> { });

    public ReadOptions {
        Objects.requireNonNull(warnings, "warnings");
    }

    /** Tolerates a cut-off last line, telling {@code warnings} about it. */
    public static ReadOptions tolerateTruncatedTail(Consumer<String> warnings) {
        return new ReadOptions(true, warnings);
    }
}
