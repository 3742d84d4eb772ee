package io.zkchaos.checkers.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's console log ({@code nodes/<node>/server.log} of a run directory), read into entries.
 *
 * <h2>What it reads</h2>
 * <ul>
 *   <li>The harness's start marker before each start of the process: {@code ==== zkchaos: starting n2 at
 *       2026-12-06T06:11:00.743967762Z} (the harness's own clock, never moved by a clock fault).</li>
 *   <li>Entries {@code 06:11:01.365 INFO  [main] QuorumPeerConfig - msg} (logback: ZooKeeper 3.8+ and the project's
 *       fle nodes), {@code 06:11:01,365 INFO  [main] ...} (log4j 1.2: releases before 3.8) and
 *       {@code 2026-12-06T06:11:01.365Z INFO  [main] ...} (dated, with its zone offset).</li>
 *   <li>Every other line belongs to the entry before it (a stack trace, a message over several lines); lines before
 *       the first entry that are no marker are counted as {@link #unreadLines()}.</li>
 * </ul>
 *
 * <h2>Dates of lines with only a time</h2>
 * A time of day is dated from the start marker before it, then from the entry before it: of the day before, the same
 * day and the day after, the one nearest to the entry before is taken, so a log that runs over midnight (or a server
 * clock set back over midnight) keeps its order. Such a time is in the server's time zone, which the log does not
 * say: unless one is given, it is taken from each start marker and the first entry after it, as their difference
 * rounded to a quarter of an hour (so a clock moved by more than 7.5 minutes when the process started would be read
 * as another zone; the dated format has no such limit). Lines before any marker have no date: they are dated
 * 1970-01-01.
 *
 * @param node        the server
 * @param entries     its entries in file order
 * @param starts      the harness's start markers, in order (one per start of the process)
 * @param lineCount   how many lines the file has
 * @param unreadLines lines that are neither an entry, part of one, nor a marker
 */
public record ServerLog(String node, List<LogLine> entries, List<Instant> starts, int lineCount, int unreadLines) {

    /** The harness's marker before each start of a server process. */
    static final Pattern MARKER = Pattern.compile("^==== zkchaos: starting (\\S+) at (\\S+)\\s*$");
    /** An entry's first line, in any of the three formats. */
    static final Pattern HEADER = Pattern.compile("^(?:(\\d{4}-\\d{2}-\\d{2})T)?(\\d{2}):(\\d{2}):(\\d{2})[.,](\\d{3})"
            + "(Z|[+-]\\d{2}:?\\d{2})?\\s+(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\\s+\\[(.*?)]\\s+(\\S+)\\s+-\\s?(.*)$");
    private static final long QUARTER_HOUR_SECONDS = 900;

    public ServerLog {
        Objects.requireNonNull(node, "node");
        entries = List.copyOf(entries);
        starts = List.copyOf(starts);
    }

    /**
     * Reads {@code file} as {@link #parse(String, List, ZoneOffset)} does, with the time zone inferred.
     *
     * @throws UncheckedIOException naming the file when it cannot be read
     */
    public static ServerLog read(String node, Path file) {
        try {
            return parse(node, Files.readAllLines(file, StandardCharsets.UTF_8), null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + node + "'s log " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@link #parse(String, List, ZoneOffset)} with the time zone inferred from each start marker. */
    public static ServerLog parse(String node, List<String> lines) {
        return parse(node, lines, null);
    }

    /**
     * Reads a log's lines. Never fails on what it does not understand: such lines are part of the entry before them,
     * or counted as unread.
     *
     * @param zone the server's time zone for lines with only a time, or null to infer it from each start marker
     */
    public static ServerLog parse(String node, List<String> lines, ZoneOffset zone) {
        List<LogLine> entries = new ArrayList<>();
        List<Instant> starts = new ArrayList<>();
        int unread = 0;
        int incarnation = 0;
        Instant marker = null;
        ZoneOffset inferred = zone;
        LocalDateTime previous = null; // the last entry's local time, for dating the next
        Entry current = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher m = MARKER.matcher(line);
            if (m.matches() && parseInstant(m.group(2)) != null) {
                if (current != null) {
                    entries.add(current.done());
                    current = null;
                }
                incarnation++;
                marker = parseInstant(m.group(2));
                starts.add(marker);
                inferred = zone;
                previous = null;
                continue;
            }
            Matcher h = HEADER.matcher(line);
            if (h.matches()) {
                if (current != null) {
                    entries.add(current.done());
                }
                LocalTime time = LocalTime.of(Integer.parseInt(h.group(2)), Integer.parseInt(h.group(3)),
                        Integer.parseInt(h.group(4)), Integer.parseInt(h.group(5)) * 1_000_000);
                long wall;
                if (h.group(1) != null) {
                    ZoneOffset offset = h.group(6) == null ? ZoneOffset.UTC : ZoneOffset.of(h.group(6)
                            .replaceFirst("^([+-]\\d{2})(\\d{2})$", "$1:$2"));
                    wall = OffsetDateTime.of(LocalDate.parse(h.group(1)), time, offset).toInstant().toEpochMilli();
                } else {
                    if (inferred == null) {
                        inferred = marker == null ? ZoneOffset.UTC : inferZone(marker, time);
                    }
                    LocalDateTime reference = previous != null ? previous : marker != null
                            ? LocalDateTime.ofInstant(marker, inferred) : LocalDateTime.of(1970, 1, 1, 0, 0);
                    LocalDateTime dated = nearest(reference, time);
                    previous = dated;
                    wall = dated.toInstant(inferred).toEpochMilli();
                }
                current = new Entry(node, incarnation, i + 1, wall, h.group(7), h.group(8), h.group(9), h.group(10),
                        line);
            } else if (current != null) {
                current.more.add(line);
            } else {
                unread++;
            }
        }
        if (current != null) {
            entries.add(current.done());
        }
        return new ServerLog(node, entries, starts, lines.size(), unread);
    }

    /** Of {@code time} on the day before, the day of and the day after {@code reference}, the nearest to it. */
    static LocalDateTime nearest(LocalDateTime reference, LocalTime time) {
        LocalDateTime best = null;
        long bestGap = Long.MAX_VALUE;
        for (int day = -1; day <= 1; day++) {
            LocalDateTime candidate = LocalDateTime.of(reference.toLocalDate().plusDays(day), time);
            long gap = Math.abs(Duration.between(reference, candidate).toMillis());
            if (gap < bestGap) {
                best = candidate;
                bestGap = gap;
            }
        }
        return best;
    }

    /** The zone in which {@code time}, written just after {@code marker}, is nearest to it, by quarter hours. */
    static ZoneOffset inferZone(Instant marker, LocalTime time) {
        long markerSeconds = LocalTime.ofInstant(marker, ZoneOffset.UTC).toSecondOfDay();
        long diff = Math.floorMod(time.toSecondOfDay() - markerSeconds + 12 * 3600, 24 * 3600) - 12 * 3600;
        long quarters = Math.round(diff / (double) QUARTER_HOUR_SECONDS);
        long seconds = Math.max(-18 * 3600, Math.min(18 * 3600, quarters * QUARTER_HOUR_SECONDS));
        return ZoneOffset.ofTotalSeconds((int) seconds);
    }

    private static Instant parseInstant(String text) {
        try {
            return Instant.parse(text);
        } catch (java.time.DateTimeException e) {
            return null;
        }
    }

    /** How many lines the entries span. */
    public int entryLines() {
        return entries.stream().mapToInt(LogLine::lineCount).sum();
    }

    /** An entry being read: its first line, then the lines that belong to it. */
    private static final class Entry {
        private final String node;
        private final int incarnation;
        private final int lineNumber;
        private final long wall;
        private final String level;
        private final String thread;
        private final String logger;
        private final String message;
        private final String text;
        private final List<String> more = new ArrayList<>();

        Entry(String node, int incarnation, int lineNumber, long wall, String level, String thread, String logger,
              String message, String text) {
            this.node = node;
            this.incarnation = incarnation;
            this.lineNumber = lineNumber;
            this.wall = wall;
            this.level = level;
            this.thread = thread;
            this.logger = logger;
            this.message = message;
            this.text = text;
        }

        LogLine done() {
            return new LogLine(node, incarnation, lineNumber, wall, level, thread, logger, message, more, text);
        }
    }
}
