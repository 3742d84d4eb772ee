package io.zkchaos.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses durations as people write them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, or ISO {@code PT10S}. */
public final class Durations implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SIMPLE = Pattern.compile("(\\d{1,12})(ms|s|m|h)");

    /** @throws IllegalArgumentException saying what is accepted */
    public static Duration parse(String text) {
        Matcher m = SIMPLE.matcher(text.trim());
        Duration d;
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        } else {
            try {
                d = Duration.parse(text.trim());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + text + "' is not a duration; use e.g. 500ms, 10s, 2m, 1h");
            }
        }
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
