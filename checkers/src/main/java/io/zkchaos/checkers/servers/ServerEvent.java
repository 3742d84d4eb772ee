package io.zkchaos.checkers.servers;

import java.util.List;
import java.util.Objects;

/**
 * What happened to a server process, as the harness saw it, on the history's clock: the servers' own account of a run
 * starts here ({@code servers.jsonl}, a line each). A process that ended without the nemesis or the harness ending it
 * is an {@link Kind#EXITED} with {@code by} null.
 *
 * <p>Every event also carries the harness's own wall clock ({@code epochMillis}, never moved by a clock fault), so
 * that any event ties the history's clock to the wall clock; {@link Kind#CLOCK} events say when the nemesis moved a
 * server's clock and to what offset, so that a server's log lines (stamped with its own, moved clock) can be placed
 * on the history's clock.
 *
 * @param node      the server ({@code n1} ...)
 * @param kind      started, exited, or its clock moved
 * @param timeNanos when the harness saw it, in nanoseconds since the history's start
 * @param epochMillis the harness's wall clock then, in milliseconds since the epoch
 * @param by        who made it happen: {@code "nemesis"} (a fault, with {@code fault} its name), {@code "harness"}
 *                  (start, final heal, close), or null when the process ended by itself
 * @param fault     the fault that acted, when {@code by} is the nemesis; else null
 * @param exitCode  the exit status when it exited (128 + a signal's number when a signal ended it), else null
 * @param signal    the signal's name when a signal ended it ({@code KILL}, {@code SEGV}, ...), else null
 * @param lastLines the last lines of its log when it exited by itself (at most a few dozen), else empty
 * @param nemesis   what the nemesis was doing then ("isolate-leader on n3 since 4.2 s"), or null when nothing
 * @param clockOffsetMillis for {@link Kind#CLOCK}: the server's clock offset from then on (0 when reset); else null
 */
public record ServerEvent(String node, Kind kind, long timeNanos, long epochMillis, String by, String fault,
                          Integer exitCode, String signal, List<String> lastLines, String nemesis,
                          Long clockOffsetMillis) {

    /** Who made an event happen. */
    public static final String BY_NEMESIS = "nemesis";
    public static final String BY_HARNESS = "harness";

    /** A process started, or ended; or the nemesis moved its clock. */
    public enum Kind {
        STARTED, EXITED, CLOCK
    }

    public ServerEvent {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(kind, "kind");
        lastLines = lastLines == null ? List.of() : List.copyOf(lastLines);
    }

    /** Whether the process ended without the nemesis or the harness ending it. */
    public boolean endedByItself() {
        return kind == Kind.EXITED && by == null;
    }
}
