package io.zkchaos.harness.cli;

import io.zkchaos.checkers.DurationText;
import java.time.Duration;
import picocli.CommandLine;

/** Parses durations as people write them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, or ISO {@code PT10S}. */
public final class Durations implements CommandLine.ITypeConverter<Duration> {

    /** @throws IllegalArgumentException saying what is accepted */
    public static Duration parse(String text) {
        Duration d = DurationText.parse(text).orElseThrow(() -> new IllegalArgumentException("'" + text
                + "' is not a duration; use e.g. 500ms, 10s, 2m, 1h"));
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("'" + text + "' is not a positive duration");
        }
        return d;
    }

    @Override
    public Duration convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
