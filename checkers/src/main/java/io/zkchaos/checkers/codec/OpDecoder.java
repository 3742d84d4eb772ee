package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns the field maps of one file (EDN op maps or JSON objects) into ops, checking each field, and remembers the
 * line of every op so that errors found later (pairing, in {@link History#of}) still name the line.
 *
 * <p>Not thread-safe: one decoder reads one file.
 */
final class OpDecoder {

    /** How field names and symbolic values are spelled in messages. */
    enum Syntax {
        EDN, JSON;

        String field(String name) {
            return this == EDN ? ":" + name : "\"" + name + "\"";
        }

        String symbol(String name) {
            return this == EDN ? ":" + name : "\"" + name + "\"";
        }
    }

    private final String source;
    private final Syntax syntax;
    private final Function<Object, String> show;
    private final List<Op> ops = new ArrayList<>();
    private long[] indices = new long[64];
    private int[] lines = new int[64];
    private long previousIndex = Long.MIN_VALUE;

    /**
     * @param source names the file in errors
     * @param show   renders a raw field value for an error message, in the file's own syntax
     */
    OpDecoder(String source, Syntax syntax, Function<Object, String> show) {
        this.source = source;
        this.syntax = syntax;
        this.show = show;
    }

    private MalformedHistoryException error(int line, String problem) {
        return new MalformedHistoryException(source + " line " + line + ": " + problem, -1);
    }

    /**
     * Decodes one op. {@code fields} maps field names to values already in plain form except for {@code type},
     * {@code f} and {@code process}, which may be {@link Keyword}s.
     *
     * @param line the line the op starts on
     */
    void add(Map<String, Object> fields, int line) {
        OpType type = type(fields, line);
        String f = name(fields, "f", line);
        int process = process(fields, line);
        long index = fields.containsKey("index") && fields.get("index") != null
                ? nonNegativeLong(fields.get("index"), "index", line) : ops.size();
        if (index <= previousIndex) {
            throw error(line, syntax.field("index") + " " + index + " is not greater than the previous op's index "
                    + previousIndex + " (at " + where(previousIndex) + ")");
        }
        long time = fields.get("time") == null ? -1 : nonNegativeLong(fields.get("time"), "time", line);
        Object rawKey = fields.get("key");
        String key = rawKey == null ? null : rawKey instanceof Keyword k ? k.name()
                : rawKey instanceof String s ? s : show.apply(rawKey);
        Object rawError = fields.get("error");
        String errorText = rawError == null ? null : rawError instanceof Keyword k ? k.name()
                : rawError instanceof String s ? s : show.apply(rawError);
        // EDN values still hold keywords, sets, ...; JSON values are plain already.
        Object value = syntax == Syntax.EDN ? Edn.plain(fields.get("value")) : fields.get("value");
        remember(index, line);
        ops.add(new Op(index, process, type, f, key, value, errorText, time));
    }

    /** Validates and pairs what was added; pairing errors name the lines of the ops involved. */
    History history() {
        return History.of(ops, this::where);
    }

    int size() {
        return ops.size();
    }

    /** {@code "source line N"} for an op index that was added. */
    String where(long index) {
        int found = Arrays.binarySearch(indices, 0, ops.size(), index);
        return found >= 0 ? source + " line " + lines[found] : source + " op " + index;
    }

    private void remember(long index, int line) {
        int n = ops.size();
        if (n == indices.length) {
            indices = Arrays.copyOf(indices, n * 2);
            lines = Arrays.copyOf(lines, n * 2);
        }
        indices[n] = index;
        lines[n] = line;
        previousIndex = index;
    }

    private OpType type(Map<String, Object> fields, int line) {
        String name = name(fields, "type", line);
        OpType type = OpType.fromWireName(name);
        if (type == null) {
            throw error(line, syntax.field("type") + " " + syntax.symbol(name) + " is not one of "
                    + syntax.symbol("invoke") + ", " + syntax.symbol("ok") + ", " + syntax.symbol("fail") + ", "
                    + syntax.symbol("info"));
        }
        return type;
    }

    /** A keyword or string field that must be there. */
    private String name(Map<String, Object> fields, String field, int line) {
        if (!fields.containsKey(field) || fields.get(field) == null) {
            throw error(line, "the op has no " + syntax.field(field));
        }
        Object v = fields.get(field);
        if (v instanceof Keyword k) {
            return k.name();
        }
        if (v instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw error(line, syntax.field(field) + " must be " + (syntax == Syntax.EDN ? "a keyword" : "a string")
                + ", not " + show.apply(v));
    }

    private int process(Map<String, Object> fields, int line) {
        if (!fields.containsKey("process")) {
            throw error(line, "the op has no " + syntax.field("process"));
        }
        Object v = fields.get("process");
        if (v instanceof Keyword k && k.name().equals("nemesis") || "nemesis".equals(v)) {
            return Op.NEMESIS;
        }
        if (v instanceof Long l && l >= 0 && l <= Integer.MAX_VALUE) {
            return (int) (long) l;
        }
        throw error(line, syntax.field("process") + " must be a number from 0 to " + Integer.MAX_VALUE + " or "
                + syntax.symbol("nemesis") + ", not " + show.apply(v));
    }

    private long nonNegativeLong(Object v, String field, int line) {
        if (v instanceof Long l && l >= 0) {
            return l;
        }
        String why = v instanceof BigInteger ? " (too large)" : "";
        throw error(line, syntax.field(field) + " must be a whole number of at least 0, not " + show.apply(v) + why);
    }
}
