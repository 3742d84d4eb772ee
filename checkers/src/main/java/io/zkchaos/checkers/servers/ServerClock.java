package io.zkchaos.checkers.servers;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Places a server's log lines on the history's clock. A line carries the server's own wall clock, which a clock fault
 * moves; the harness's events carry its own unmoved wall clock beside the history's time ({@link
 * ServerEvent#epochMillis()}), and its {@link ServerEvent.Kind#CLOCK} events say from when a server's clock was off
 * by how much. The history time of a line is {@code (its wall time - the server's offset in force then - the
 * history's start on the harness's wall clock)}.
 *
 * <h2>Which offset was in force</h2>
 * A line's wall time alone can be ambiguous (after a clock set back by a minute, the same time is written twice).
 * The lines of a log are in the order they were written, so this reads them in order and keeps the offset in force
 * while the line can still be under it: its time under it is not earlier than the line before it by more than
 * {@link #DISORDER_MILLIS}, nor later than the next move by more than {@link #APPLY_LAG_MILLIS}; else it takes the
 * next move's offset, if the line can be under that one (so a move smaller than those margins may be placed up to
 * that much off);
 * each start marker (the harness's clock) sets the place again. An offset lasts until the next {@code CLOCK} event of that server, across restarts.
 *
 * <p>Without events (a run directory from before {@code servers.jsonl}), {@link #fromFirstStart(Instant)} takes the
 * first start marker for the history's start and no server's clock as moved; the report says so.
 */
public final class ServerClock {

    /** How far back a line's time may be from the one before it (threads write in a slightly different order). */
    public static final long DISORDER_MILLIS = 1_000;
    /**
     * How far from its event's wall time a clock move may take effect in the server: the harness stamps a move when
     * it has seen the server's clock changed, which was seen up to 2 s after the server's first line under the new
     * offset (a strobe's flips; the offset file is read by libfaketime when the process next asks the time).
     */
    public static final long APPLY_LAG_MILLIS = 5_000;

    private final long startEpochNanos;
    private final Map<String, List<Move>> moves;
    private final String basis;

    private ServerClock(long startEpochNanos, Map<String, List<Move>> moves, String basis) {
        this.startEpochNanos = startEpochNanos;
        this.moves = moves;
        this.basis = basis;
    }

    /** A move of one server's clock: from {@code fromMillis} (the harness's wall clock) on, off by {@code offset}. */
    private record Move(long fromMillis, long offsetMillis) {
    }

    /**
     * The clock the events tie: the history's start is their first event's wall time less its history time.
     *
     * @throws IllegalArgumentException when there are no events
     */
    public static ServerClock fromEvents(List<ServerEvent> events) {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("no server events to tie the clocks with");
        }
        ServerEvent first = events.stream().min(Comparator.comparingLong(ServerEvent::timeNanos)).orElseThrow();
        long start = first.epochMillis() * 1_000_000L - first.timeNanos();
        Map<String, List<Move>> moves = new HashMap<>();
        events.stream().filter(e -> e.kind() == ServerEvent.Kind.CLOCK)
                .sorted(Comparator.comparingLong(ServerEvent::epochMillis))
                .forEach(e -> moves.computeIfAbsent(e.node(), n -> new ArrayList<>()).add(new Move(e.epochMillis(),
                        e.clockOffsetMillis() == null ? 0 : e.clockOffsetMillis())));
        long clockEvents = moves.values().stream().mapToLong(List::size).sum();
        return new ServerClock(start, moves, "the harness's server events (" + events.size() + ", "
                + clockEvents + " clock moves)");
    }

    /** A clock without events: the history starts at {@code firstStart}; no server's clock was moved. */
    public static ServerClock fromFirstStart(Instant firstStart) {
        Objects.requireNonNull(firstStart, "firstStart");
        return new ServerClock(firstStart.getEpochSecond() * 1_000_000_000L + firstStart.getNano(), Map.of(),
                "the first start marker taken as the history's start (no server events: clock moves not known)");
    }

    /** How the clocks were tied, for a person. */
    public String basis() {
        return basis;
    }

    /** An instant of the harness's wall clock on the history's clock (ns since its start). */
    public long historyNanos(Instant harnessTime) {
        return harnessTime.getEpochSecond() * 1_000_000_000L + harnessTime.getNano() - startEpochNanos;
    }

    /** Each entry of {@code log} on the history's clock (ns since its start), in the log's order. */
    public long[] historyNanos(ServerLog log) {
        List<Move> m = moves.getOrDefault(log.node(), List.of());
        long[] out = new long[log.entries().size()];
        int move = -1; // the move in force; -1: none yet (offset 0)
        long previous = Long.MIN_VALUE; // the harness time of the line before, in ms
        int incarnation = -1;
        for (int i = 0; i < out.length; i++) {
            LogLine e = log.entries().get(i);
            if (e.incarnation() != incarnation) {
                incarnation = e.incarnation();
                if (incarnation > 0 && incarnation <= log.starts().size()) {
                    long marker = log.starts().get(incarnation - 1).toEpochMilli();
                    move = -1;
                    while (move + 1 < m.size() && m.get(move + 1).fromMillis() <= marker) {
                        move++;
                    }
                    previous = marker;
                }
            }
            long wall = e.wallMillis();
            while (move + 1 < m.size()) {
                Move next = m.get(move + 1);
                long stay = wall - offset(m, move);
                long moved = wall - next.offsetMillis();
                // under the move in force, the line must not go back before the one before it, nor come later than
                // the next move took effect (its event is stamped when the harness saw it done: up to a lag after)
                boolean stayPlausible = (previous == Long.MIN_VALUE || stay >= previous - DISORDER_MILLIS)
                        && stay < next.fromMillis() + APPLY_LAG_MILLIS;
                boolean movedPlausible = moved >= next.fromMillis() - APPLY_LAG_MILLIS
                        && (previous == Long.MIN_VALUE || moved >= previous - DISORDER_MILLIS);
                if (stayPlausible || !movedPlausible) {
                    break;
                }
                move++;
            }
            long harness = wall - offset(m, move);
            previous = previous == Long.MIN_VALUE ? harness : Math.max(previous, harness);
            out[i] = harness * 1_000_000L - startEpochNanos;
        }
        return out;
    }

    private static long offset(List<Move> moves, int move) {
        return move < 0 ? 0 : moves.get(move).offsetMillis();
    }
}
