package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jepsen's EDN history format.
 *
 * <p>Reads both layouts Jepsen tools write: one vector or list of op maps (Knossos's {@code data/}), or a sequence of
 * op maps, usually one per line (Jepsen's {@code history.edn}, Porcupine's test data). An op map:
 * <pre>{:process 4, :type :invoke, :f :write, :value 2}
 * {:process :nemesis, :type :info, :f :start, :value "Cut off ..."}
 * {:type :fail, :process 101, :f :write, :value 3, :error [:temporarily-unavailable nil], :time 99291886853, :index 3}</pre>
 * {@code :process} a number or {@code :nemesis}; {@code :type} one of {@code :invoke :ok :fail :info}; {@code :f} a
 * keyword (its name becomes the op's function); optional {@code :key}, {@code :value}, {@code :error} (any value:
 * a keyword or string gives its text, anything else its EDN form), {@code :time} (ns), {@code :index} (else the
 * position). Other keys are ignored. Values become plain data ({@link Edn}).
 *
 * <p>Writes one op map per line, Jepsen-style, with keywords for {@code :type}, {@code :f} and the nemesis.
 */
public final class EdnHistoryCodec {

    private EdnHistoryCodec() {
    }

    /**
     * Reads a whole EDN history.
     *
     * @param source names the text in errors (usually the file path)
     * @throws MalformedHistoryException naming the line (and column) and the problem
     */
    public static History read(String text, String source) {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1); // a byte-order mark, as some Windows editors write
        }
        EdnParser parser = new EdnParser(text, source);
        OpDecoder decoder = new OpDecoder(source, OpDecoder.Syntax.EDN, Edn::print);
        int first = parser.peek();
        if (first < 0) {
            return decoder.history(); // an empty file is an empty history
        }
        if (first == '[' || first == '(') {
            char close = first == '[' ? ']' : ')';
            int openLine = parser.line();
            int openColumn = parser.column();
            parser.consume();
            while (true) {
                int c = parser.peek();
                if (c == close) {
                    parser.consume();
                    break;
                }
                if (c < 0) {
                    throw parser.error("unexpected end of file: the " + (close == ']' ? "vector" : "list")
                            + " of ops opened at line " + openLine + " column " + openColumn
                            + " is never closed with '" + close + "' (file truncated or brackets unbalanced)");
                }
                readOp(parser, decoder);
            }
            if (parser.peek() >= 0) {
                throw parser.error("unexpected text after the closing '" + close + "' of the history");
            }
        } else {
            while (parser.peek() >= 0) {
                readOp(parser, decoder);
            }
        }
        return decoder.history();
    }

    private static void readOp(EdnParser parser, OpDecoder decoder) {
        int line = parser.line();
        int column = parser.column();
        Object form = parser.read();
        if (!(form instanceof Map<?, ?> map)) {
            throw parser.errorAt(line, column, "expected an op map {:process .. :type .. :f ..}, found "
                    + describe(form));
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getKey() instanceof Keyword k) {
                fields.put(k.name(), e.getValue());
            }
        }
        decoder.add(fields, line);
    }

    private static String describe(Object form) {
        String kind = form == null ? "nil" : form instanceof List ? "a vector or list"
                : form instanceof Keyword ? "a keyword" : form instanceof String ? "a string"
                : form instanceof Number ? "a number" : "a " + form.getClass().getSimpleName().toLowerCase();
        String text = Edn.print(form);
        return kind + (text.length() > 60 ? " " + text.substring(0, 60) + "..." : " " + text);
    }

    /** The op as one Jepsen-style EDN map, without a line break. */
    public static String encode(Op op) {
        StringBuilder sb = new StringBuilder(96);
        sb.append("{:index ").append(op.index());
        sb.append(", :process ");
        if (op.isNemesis()) {
            sb.append(":nemesis");
        } else {
            sb.append(op.process());
        }
        sb.append(", :type :").append(op.type().wireName());
        sb.append(", :f ");
        if (Edn.isKeywordName(op.f())) {
            sb.append(':').append(op.f());
        } else {
            Edn.print(op.f(), sb);
        }
        if (op.key() != null) {
            sb.append(", :key ");
            Edn.print(op.key(), sb);
        }
        sb.append(", :value ");
        Edn.print(op.value(), sb);
        if (op.error() != null) {
            sb.append(", :error ");
            Edn.print(op.error(), sb);
        }
        if (op.time() >= 0) {
            sb.append(", :time ").append(op.time());
        }
        return sb.append('}').toString();
    }

    /** Writes {@code ops} one map per line. */
    public static void write(Writer out, Iterable<Op> ops) {
        try {
            for (Op op : ops) {
                out.write(encode(op));
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
