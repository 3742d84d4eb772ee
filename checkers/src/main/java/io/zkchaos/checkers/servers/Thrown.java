package io.zkchaos.checkers.servers;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One exception of a logged cause chain, as its stack trace wrote it.
 *
 * @param className its class ({@code java.net.SocketException}, {@code a.b.Outer$Inner})
 * @param message   its message as written ({@code null} when it had none: {@code java.io.EOFException: null} keeps
 *                  the word), or empty
 * @param frames    its frames, innermost first, each {@code class.method} with the line number and module left out
 *                  (the frames a cause shares with the exception that wraps it, {@code ... 3 more}, are not repeated)
 */
public record Thrown(String className, String message, List<String> frames) {

    private static final String NAME = "[a-zA-Z_$][\\w$]*(?:\\.[a-zA-Z_$][\\w$]*)+";
    /** {@code java.io.EOFException: null}, {@code Caused by: a.b.C}, as the first line of a throwable. */
    private static final Pattern HEAD = Pattern.compile("^(Caused by: )?(" + NAME + ")(?:: ?(.*))?$");
    /** {@code \tat java.base/java.io.DataInputStream.readInt(DataInputStream.java:386)}. */
    private static final Pattern FRAME = Pattern.compile("^\\s+at (?:[\\w.$-]+(?:@[^/]*)?/)?(" + NAME
            + ")\\(.*\\)\\s*$");
    private static final Pattern ELIDED = Pattern.compile("^\\s+\\.\\.\\. \\d+ (?:more|common frames omitted)\\s*$");
    /** A suppressed exception or a cause of one, indented: not part of the chain. */
    private static final Pattern NESTED = Pattern.compile("^\\s+(?:Suppressed|Caused by): .*$");
    /** A fully qualified exception named inside a message: {@code cannot connect: java.net.ConnectException: x}. */
    private static final Pattern INLINE = Pattern.compile("(?<![\\w$.])((?:[a-z_][\\w$]*\\.)+[A-Z][\\w$]*"
            + "(?:Exception|Error))(?:: ?([^\\n]*))?");

    public Thrown {
        Objects.requireNonNull(className, "className");
        message = message == null ? "" : message;
        frames = List.copyOf(frames);
    }

    /** The class's name without its package ({@code SocketException}, {@code Outer$Inner}). */
    public String simpleName() {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /**
     * The cause chain an entry logged, outermost first: from its stack trace when it has one, else from an exception
     * named in its message ({@code ... java.net.ConnectException: Connection refused}, without frames); empty when it
     * names none. A first following line that names a class but is followed by no frame and does not end in
     * {@code Exception}, {@code Error} or {@code Throwable} is not taken for an exception.
     */
    public static List<Thrown> chainOf(LogLine entry) {
        List<Thrown> chain = new ArrayList<>();
        String className = null;
        StringBuilder message = null;
        List<String> frames = new ArrayList<>();
        boolean nested = false; // inside a suppressed exception's trace
        for (String line : entry.more()) {
            Matcher head = HEAD.matcher(line);
            Matcher frame = FRAME.matcher(line);
            if (head.matches() && (head.group(1) != null || chain.isEmpty() && className == null)) {
                if (className != null) {
                    chain.add(new Thrown(className, message.toString(), frames));
                }
                className = head.group(2);
                message = new StringBuilder(head.group(3) == null ? "" : head.group(3));
                frames = new ArrayList<>();
                nested = false;
            } else if (className == null) {
                break; // the entry goes on with text that is no trace
            } else if (NESTED.matcher(line).matches()) {
                nested = true;
            } else if (frame.matches()) {
                if (!nested) {
                    frames.add(frame.group(1));
                }
            } else if (!ELIDED.matcher(line).matches() && frames.isEmpty() && !nested) {
                message.append('\n').append(line); // a message over several lines
            }
        }
        if (className != null) {
            chain.add(new Thrown(className, message.toString(), frames));
        }
        if (chain.size() == 1 && chain.get(0).frames().isEmpty() && !looksThrown(chain.get(0).className())) {
            chain.clear(); // a dotted word on the next line, not an exception
        }
        if (chain.isEmpty()) {
            Matcher inline = INLINE.matcher(entry.message());
            if (inline.find()) {
                chain.add(new Thrown(inline.group(1), inline.group(2), List.of()));
            }
        }
        return List.copyOf(chain);
    }

    private static boolean looksThrown(String className) {
        return className.endsWith("Exception") || className.endsWith("Error") || className.endsWith("Throwable");
    }
}
