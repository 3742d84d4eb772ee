package io.zkchaos.checkers;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them on a command line: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, or ISO-8601
 * such as {@code PT1.5S}. One grammar for every option that takes a duration; callers word their own errors.
 */
public final class DurationText {

    private static final Pattern SIMPLE = Pattern.compile("(\\d{1,12})(ms|s|m|h)");

    private DurationText() {
    }

    /**
     * {@code d} the way {@link #parse} reads it back: whole seconds as {@code 10s} or {@code 60s}, else milliseconds
     * ({@code 1500ms}); ISO-8601 for what neither fits (negative, sub-millisecond).
     */
    public static String format(Duration d) {
        if (d.isNegative() || d.getNano() % 1_000_000 != 0) {
            return d.toString();
        }
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** The duration {@code text} denotes (any sign), or empty if it is not one. */
    public static Optional<Duration> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.trim();
        Matcher m = SIMPLE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return Optional.of(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
        }
        try {
            return Optional.of(Duration.parse(t));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
