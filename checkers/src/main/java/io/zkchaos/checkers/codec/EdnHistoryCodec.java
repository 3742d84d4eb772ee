package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * <p>Reading streams the bytes ({@link EdnParser}) straight into a {@link History.Builder}: an op map's fields are read
 * one by one, keywords, strings and integers going to the {@link OpDecoder} without an object per field; anything
 * else (a map read some other way, e.g. behind a tag) goes through the general EDN reader.
 *
 * <p>Writes one op map per line, Jepsen-style, with keywords for {@code :type}, {@code :f} and the nemesis.
 */
public final class EdnHistoryCodec {

    private EdnHistoryCodec() {
    }

    /**
     * Reads a whole EDN history from text (tests and tools; files go through {@link HistoryFiles#read}).
     *
     * @param source names the text in errors (usually the file path)
     * @throws MalformedHistoryException naming the line (and column) and the problem
     */
    public static History read(String text, String source) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return read(new EdnParser(utf8, source), source, utf8.length);
    }

    /**
     * Streams a whole EDN history from UTF-8 bytes.
     *
     * @param source          names the input in errors (usually the file path)
     * @param expectedBytes   the input's size if known, else 0 (a hint, to size the history's columns)
     * @throws MalformedHistoryException naming the line (and column) and the problem
     * @throws java.io.UncheckedIOException when {@code in} cannot be read
     */
    public static History read(InputStream in, String source, long expectedBytes) {
        return read(new EdnParser(in, source), source, expectedBytes);
    }

    private static History read(EdnParser parser, String source, long expectedBytes) {
        parser.skipByteOrderMark();
        OpDecoder decoder = new OpDecoder(source, OpDecoder.Syntax.EDN, Edn::print);
        SizeEstimate estimate = new SizeEstimate(decoder.builder(), expectedBytes);
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
                estimate.update(parser.offset());
            }
            if (parser.peek() >= 0) {
                throw parser.error("unexpected text after the closing '" + close + "' of the history");
            }
        } else {
            while (parser.peek() >= 0) {
                readOp(parser, decoder);
                estimate.update(parser.offset());
            }
        }
        return decoder.history();
    }

    private static void readOp(EdnParser parser, OpDecoder decoder) {
        int line = parser.line();
        int column = parser.column();
        if (parser.peek() == '{') {
            readOpMap(parser, decoder, line, column);
            return;
        }
        Object form = parser.read();
        if (!(form instanceof Map<?, ?> map)) {
            throw parser.errorAt(line, column, "expected an op map {:process .. :type .. :f ..}, found "
                    + describe(form));
        }
        // A map that came some other way (e.g. a tagged literal #jepsen.history.Op{...}): field by field.
        decoder.begin();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getKey() instanceof Keyword k) {
                byte[] name = k.name().getBytes(StandardCharsets.UTF_8);
                int field = OpDecoder.field(name, 0, name.length);
                if (field != OpDecoder.UNKNOWN) {
                    decodeRaw(decoder, field, e.getValue());
                }
            }
        }
        decoder.finish(line);
    }

    /**
     * The fast path: an op map read field by field, keywords, strings and integers going to the decoder without an
     * object per field. Its errors are those {@link EdnParser#read()} would give for the map, in the same order:
     * syntax first, then a key without a value, then a duplicate key.
     */
    private static void readOpMap(EdnParser parser, OpDecoder decoder, int line, int column) {
        History.Builder builder = decoder.builder();
        parser.consume();
        parser.enter(line, column);
        decoder.begin();
        int forms = 0;
        int seen = 0;
        List<Object> otherKeys = null;
        Object duplicate = null;
        while (true) {
            if (parser.peekInside('}', "map", line, column) == '}') {
                parser.consume();
                break;
            }
            int kind = parser.readScalar();
            forms++;
            int field = OpDecoder.UNKNOWN;
            if (kind == EdnParser.KEYWORD) {
                field = OpDecoder.field(parser.tokenBytes(), parser.tokenOffset(), parser.tokenLength());
            }
            if (field != OpDecoder.UNKNOWN) {
                if ((seen & (1 << field)) != 0 && duplicate == null) {
                    duplicate = parser.tokenAsRaw(kind);
                }
                seen |= 1 << field;
            } else {
                Object key = parser.tokenAsRaw(kind);
                if (otherKeys == null) {
                    otherKeys = new ArrayList<>(4);
                }
                if (duplicate == null && otherKeys.contains(key)) {
                    duplicate = key;
                }
                otherKeys.add(key);
            }
            if (parser.peekInside('}', "map", line, column) == '}') {
                parser.consume();
                break;
            }
            forms++;
            if (field == OpDecoder.UNKNOWN) {
                parser.read(); // an unknown key's value is read (it must be valid) and dropped
            } else {
                fieldValue(parser, decoder, builder, field);
            }
        }
        parser.exit();
        if (forms % 2 != 0) {
            throw parser.errorAt(line, column, "the map has a key with no value (" + forms + " forms)");
        }
        if (duplicate != null) {
            throw parser.errorAt(line, column, "the map has the key " + Edn.print(duplicate) + " twice");
        }
        decoder.finish(line);
    }

    private static void fieldValue(EdnParser parser, OpDecoder decoder, History.Builder builder, int field) {
        int kind = parser.readScalar();
        boolean value = field == OpDecoder.VALUE;
        switch (kind) {
            case EdnParser.NIL -> {
                if (value) {
                    decoder.value(0);
                } else {
                    decoder.nil(field);
                }
            }
            case EdnParser.KEYWORD, EdnParser.STRING -> {
                String text = parser.tokenText();
                if (value) {
                    // plain data has no keywords: a keyword value becomes its name
                    decoder.value(text != null ? builder.object(text)
                            : builder.utf8String(parser.tokenBytes(), parser.tokenOffset(), parser.tokenLength(),
                                    parser.tokenAscii()));
                } else {
                    int symbol = text != null ? builder.symbol(text)
                            : builder.symbol(parser.tokenBytes(), parser.tokenOffset(), parser.tokenLength());
                    if (kind == EdnParser.KEYWORD) {
                        decoder.keyword(field, symbol);
                    } else {
                        decoder.string(field, symbol);
                    }
                }
            }
            case EdnParser.INTEGER_VALUE -> {
                if (value) {
                    decoder.value(builder.integer(parser.tokenLong()));
                } else {
                    decoder.integer(field, parser.tokenLong());
                }
            }
            default -> decodeRaw(decoder, field, parser.tokenRaw());
        }
    }

    /** A field given as a raw EDN value. */
    private static void decodeRaw(OpDecoder decoder, int field, Object raw) {
        History.Builder builder = decoder.builder();
        if (field == OpDecoder.VALUE) {
            decoder.value(builder.object(Edn.plain(raw)));
        } else if (raw == null) {
            decoder.nil(field);
        } else if (raw instanceof Keyword k) {
            decoder.keyword(field, builder.symbol(k.name()));
        } else if (raw instanceof String s) {
            decoder.string(field, builder.symbol(s));
        } else if (raw instanceof Long l) {
            decoder.integer(field, l);
        } else {
            decoder.other(field, raw);
        }
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
        return encode(op, true);
    }

    /**
     * The op as one EDN map, without a line break; without {@code :index} if {@code withIndex} is false (Knossos's and
     * Porcupine's layout: a reader then takes the position as the index).
     */
    public static String encode(Op op, boolean withIndex) {
        StringBuilder sb = new StringBuilder(96);
        sb.append('{');
        if (withIndex) {
            sb.append(":index ").append(op.index()).append(", ");
        }
        sb.append(":process ");
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
        write(out, ops, true);
    }

    /** Writes {@code ops} one map per line, with or without {@code :index}; see {@link #encode(Op, boolean)}. */
    public static void write(Writer out, Iterable<Op> ops, boolean withIndex) {
        try {
            for (Op op : ops) {
                out.write(encode(op, withIndex));
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
