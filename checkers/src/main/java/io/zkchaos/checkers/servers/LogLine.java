package io.zkchaos.checkers.servers;

import java.util.List;
import java.util.Objects;

/**
 * One entry of a server's log: its first line, split into its fields, and the lines that belong to it (a stack
 * trace, a message that spans lines).
 *
 * @param node        the server ({@code n1} ...)
 * @param incarnation which start of the server wrote it: 1 for the first {@code ==== zkchaos: starting} marker, 2
 *                    for the second ...; 0 for lines before any marker
 * @param lineNumber  its first line's number in the file, from 1
 * @param wallMillis  the server's own wall clock when it was written, in milliseconds since the epoch (a line with
 *                    only a time of day is dated from the start marker before it); a clock fault moves it
 * @param level       {@code INFO}, {@code WARN}, {@code ERROR} ...
 * @param thread      the thread that wrote it
 * @param logger      the logger's short name ({@code QuorumCnxManager})
 * @param message     the message, as written on its first line
 * @param more        the lines after it that belong to it (a stack trace: {@code java.io.EOFException: null},
 *                    {@code \tat ...}, {@code Caused by: ...}), as written
 * @param text        its first line as written
 */
public record LogLine(String node, int incarnation, int lineNumber, long wallMillis, String level, String thread,
                      String logger, String message, List<String> more, String text) {

    public LogLine {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(message, "message");
        more = List.copyOf(more);
    }

    /** How many lines of the file it spans. */
    public int lineCount() {
        return 1 + more.size();
    }
}
