package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Receives the fields of one op at a time from a reader (EDN op maps or JSON objects), checks them, and adds the op
 * to a {@link History.Builder}, which pairs it and stores it column-wise. Nothing is made per field: repeated strings
 * arrive as symbol ids, the value as a reference, numbers as {@code long}s; only a field of a surprising type arrives
 * as an object, to be shown in the error message.
 *
 * <p>A reader calls {@link #begin}, one setter per field it met (a later one replaces an earlier one), then
 * {@link #finish} with the op's line. Not thread-safe: one decoder reads one file.
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

    // The fields, by number; VALUE is kept apart (it is a value reference, not checked).
    static final int TYPE = 0;
    static final int F = 1;
    static final int PROCESS = 2;
    static final int INDEX = 3;
    static final int TIME = 4;
    static final int KEY = 5;
    static final int ERROR = 6;
    static final int VALUE = 7;
    static final int UNKNOWN = -1;
    private static final int FIELDS = 7;

    // What a field held.
    private static final byte ABSENT = 0;
    private static final byte NIL = 1;
    private static final byte KEYWORD = 2;
    private static final byte STRING = 3;
    private static final byte INTEGER = 4;
    private static final byte OTHER = 5;

    private final String source;
    private final Syntax syntax;
    private final Function<Object, String> show;
    private final History.Builder builder;

    private final byte[] kinds = new byte[FIELDS];
    private final long[] integers = new long[FIELDS];
    private final int[] symbols = new int[FIELDS];
    private final Object[] others = new Object[FIELDS];
    private long value;
    private boolean othersSet;

    private long previousIndex = Long.MIN_VALUE;
    private int previousLine;
    private OpType[] typeOfSymbol = new OpType[16];

    /**
     * @param source names the file in errors
     * @param show   renders a raw field value for an error message, in the file's own syntax
     */
    OpDecoder(String source, Syntax syntax, Function<Object, String> show) {
        this.source = source;
        this.syntax = syntax;
        this.show = show;
        this.builder = new History.Builder(source);
    }

    /** The builder the ops go to: readers make symbols and value references with it. */
    History.Builder builder() {
        return builder;
    }

    /** The field number of a field name's UTF-8 bytes: {@link #TYPE} ... {@link #VALUE}, or {@link #UNKNOWN}. */
    static int field(byte[] b, int offset, int length) {
        if (length > 7) {
            return UNKNOWN;
        }
        long word = length; // the length and bytes packed into a long, compared with the packed field names
        for (int i = 0; i < length; i++) {
            word = (word << 8) | (b[offset + i] & 0xff);
        }
        if (word == F_NAME) {
            return F;
        } else if (word == TYPE_NAME) {
            return TYPE;
        } else if (word == VALUE_NAME) {
            return VALUE;
        } else if (word == PROCESS_NAME) {
            return PROCESS;
        } else if (word == INDEX_NAME) {
            return INDEX;
        } else if (word == TIME_NAME) {
            return TIME;
        } else if (word == KEY_NAME) {
            return KEY;
        } else if (word == ERROR_NAME) {
            return ERROR;
        }
        return UNKNOWN;
    }

    private static final long F_NAME = packed("f");
    private static final long TYPE_NAME = packed("type");
    private static final long VALUE_NAME = packed("value");
    private static final long PROCESS_NAME = packed("process");
    private static final long INDEX_NAME = packed("index");
    private static final long TIME_NAME = packed("time");
    private static final long KEY_NAME = packed("key");
    private static final long ERROR_NAME = packed("error");

    private static long packed(String ascii) {
        long word = ascii.length();
        for (int i = 0; i < ascii.length(); i++) {
            word = (word << 8) | ascii.charAt(i);
        }
        return word;
    }

    /** Starts a new op: every field absent, the value nil. */
    void begin() {
        for (int i = 0; i < FIELDS; i++) {
            kinds[i] = ABSENT;
        }
        if (othersSet) {
            Arrays.fill(others, null);
            othersSet = false;
        }
        value = 0;
    }

    void nil(int field) {
        kinds[field] = NIL;
    }

    /** An EDN keyword, by the symbol id of its name. */
    void keyword(int field, int symbol) {
        kinds[field] = KEYWORD;
        symbols[field] = symbol;
    }

    /** A string, by its symbol id. */
    void string(int field, int symbol) {
        kinds[field] = STRING;
        symbols[field] = symbol;
    }

    void integer(int field, long v) {
        kinds[field] = INTEGER;
        integers[field] = v;
    }

    /** Anything else, as the reader's raw value (shown in errors in the file's syntax). */
    void other(int field, Object raw) {
        kinds[field] = OTHER;
        others[field] = raw;
        othersSet = true;
    }

    /** The op's value, as a reference from {@link #builder()}. */
    void value(long ref) {
        value = ref;
    }

    private MalformedHistoryException error(int line, String problem) {
        return new MalformedHistoryException(source + " line " + line + ": " + problem, -1);
    }

    /**
     * Checks the fields set since {@link #begin} and adds the op.
     *
     * @param line the line the op starts on
     * @throws MalformedHistoryException naming the line and the field that is wrong, or a pairing rule broken
     */
    void finish(int line) {
        OpType type = type(line);
        int f = name(F, "f", line);
        int process = process(line);
        long index = kinds[INDEX] == ABSENT || kinds[INDEX] == NIL ? builder.size()
                : nonNegativeLong(INDEX, "index", line);
        if (index <= previousIndex) {
            throw error(line, syntax.field("index") + " " + index + " is not greater than the previous op's index "
                    + previousIndex + " (at " + source + " line " + previousLine + ")");
        }
        long time = kinds[TIME] == ABSENT || kinds[TIME] == NIL ? -1 : nonNegativeLong(TIME, "time", line);
        builder.add(index, process, type, f, text(KEY), value, text(ERROR), time, line);
        previousIndex = index;
        previousLine = line;
    }

    /** Validates and pairs what was added; pairing errors name the lines of the ops involved. */
    History history() {
        return builder.build();
    }

    /** What a field held, as an object for an error message. */
    private Object raw(int field) {
        return switch (kinds[field]) {
            case KEYWORD -> new Keyword(builder.symbolName(symbols[field]));
            case STRING -> builder.symbolName(symbols[field]);
            case INTEGER -> integers[field];
            case OTHER -> others[field];
            default -> null;
        };
    }

    private OpType type(int line) {
        int symbol = name(TYPE, "type", line);
        if (symbol >= typeOfSymbol.length) {
            typeOfSymbol = Arrays.copyOf(typeOfSymbol, Math.max(symbol + 1, typeOfSymbol.length * 2));
        }
        OpType type = typeOfSymbol[symbol];
        if (type == null) {
            String name = builder.symbolName(symbol);
            type = OpType.fromWireName(name);
            if (type == null) {
                throw error(line, syntax.field("type") + " " + syntax.symbol(name) + " is not one of "
                        + syntax.symbol("invoke") + ", " + syntax.symbol("ok") + ", " + syntax.symbol("fail") + ", "
                        + syntax.symbol("info"));
            }
            typeOfSymbol[symbol] = type;
        }
        return type;
    }

    /** A keyword or non-empty string field that must be there, as its symbol id. */
    private int name(int field, String name, int line) {
        byte kind = kinds[field];
        if (kind == ABSENT || kind == NIL) {
            throw error(line, "the op has no " + syntax.field(name));
        }
        if (kind == KEYWORD || kind == STRING && !builder.symbolName(symbols[field]).isEmpty()) {
            return symbols[field];
        }
        throw error(line, syntax.field(name) + " must be " + (syntax == Syntax.EDN ? "a keyword" : "a string")
                + ", not " + show.apply(raw(field)));
    }

    private int process(int line) {
        byte kind = kinds[PROCESS];
        if (kind == ABSENT) {
            throw error(line, "the op has no " + syntax.field("process"));
        }
        if ((kind == KEYWORD || kind == STRING) && builder.symbolName(symbols[PROCESS]).equals("nemesis")) {
            return Op.NEMESIS;
        }
        if (kind == INTEGER && integers[PROCESS] >= 0 && integers[PROCESS] <= Integer.MAX_VALUE) {
            return (int) integers[PROCESS];
        }
        throw error(line, syntax.field("process") + " must be a number from 0 to " + Integer.MAX_VALUE + " or "
                + syntax.symbol("nemesis") + ", not " + show.apply(raw(PROCESS)));
    }

    private long nonNegativeLong(int field, String name, int line) {
        if (kinds[field] == INTEGER && integers[field] >= 0) {
            return integers[field];
        }
        Object v = raw(field);
        String why = v instanceof BigInteger ? " (too large)" : "";
        throw error(line, syntax.field(name) + " must be a whole number of at least 0, not " + show.apply(v) + why);
    }

    /** A key or error field as a symbol id (-1 if absent): keywords and strings as they are, others as shown. */
    private int text(int field) {
        return switch (kinds[field]) {
            case ABSENT, NIL -> -1;
            case KEYWORD, STRING -> symbols[field];
            default -> builder.symbol(show.apply(raw(field)));
        };
    }
}
