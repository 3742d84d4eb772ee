package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.MalformedHistoryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A reader for the EDN subset that Jepsen histories use, streaming UTF-8 bytes (from memory or an input stream read
 * in blocks) and tracking line and column so that every error names where it is.
 *
 * <p>Reads: nil, true, false; strings with escapes; characters; integers (with an optional {@code N}), decimals
 * (with an optional {@code M}), {@code ##Inf}, {@code ##-Inf}, {@code ##NaN}; keywords and symbols; vectors, lists,
 * maps and sets; tagged literals (the tag is dropped, the value kept: {@code #inst "..."} reads as its string);
 * {@code ;} comments, {@code #_} discards and commas as whitespace.
 *
 * <p>Two ways to read a form. {@link #read()} produces raw values: {@link Keyword}, {@link Symbol},
 * {@link Character}, {@link Long}, {@link BigInteger} (only beyond the range of a long), {@link Double},
 * {@link BigDecimal}, {@link String}, {@link Boolean}, null, {@link List} (vectors and lists), {@link Map} and
 * {@link Set}, insertion-ordered; {@link Edn#plain} turns them into the plain values of
 * {@link io.zkchaos.checkers.history.Op}. {@link #readScalar()} is the fast path for the fields of an op map: a
 * keyword, string or integer is left as bytes or a {@code long} in the parser (no object), anything else is read
 * with {@link #read()}.
 *
 * <p>Every failure is a {@link MalformedHistoryException} ({@code source line L column C: problem}); text that is not
 * UTF-8 is one too. Nesting is capped at {@link #MAX_DEPTH} so hostile input cannot overflow the stack. Columns count
 * Java characters (UTF-16 units), as a {@code String} of the line would.
 */
final class EdnParser {

    /** Deeper than any history needs; keeps recursion far from the thread's stack limit. */
    static final int MAX_DEPTH = 256;

    private static final Pattern INTEGER = Pattern.compile("[+-]?(0|[1-9][0-9]*)N?");
    private static final Pattern DECIMAL =
            Pattern.compile("[+-]?(0|[1-9][0-9]*)(\\.[0-9]*)?([eE][+-]?[0-9]+)?M?");
    /** Keyword names may also start with a digit ({@code :1}), as the Clojure reader allows. */
    static final Pattern KEYWORD_NAME =
            Pattern.compile("[A-Za-z0-9*!_?$%&=<>.+\\-][A-Za-z0-9*!_?$%&=<>.+\\-:#'/]*");
    private static final Pattern SYMBOL =
            Pattern.compile("[A-Za-z*!_?$%&=<>.+\\-][A-Za-z0-9*!_?$%&=<>.+\\-:#'/]*");

    // Byte classes: the ASCII of KEYWORD_NAME's and SYMBOL's character sets, and the delimiters.
    private static final byte SYMBOL_START = 1;
    private static final byte NAME_START = 2;   // keyword names may start with a digit too
    private static final byte NAME_REST = 4;
    private static final byte DELIMITER = 8;
    private static final byte SKIPPED = 16;     // what skipBlank() may skip: blanks, ';' comments, '#' (for #_)
    private static final byte[] CLASS = new byte[256];

    static {
        for (char c : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz*!_?$%&=<>.+-".toCharArray()) {
            CLASS[c] |= SYMBOL_START | NAME_START | NAME_REST;
        }
        for (char c = '0'; c <= '9'; c++) {
            CLASS[c] |= NAME_START | NAME_REST;
        }
        for (char c : ":#'/".toCharArray()) {
            CLASS[c] |= NAME_REST;
        }
        for (char c : " \t\n\r,\f()[]{}\";\\".toCharArray()) {
            CLASS[c] |= DELIMITER;
        }
        for (char c : " \t\n\r,\f;#".toCharArray()) {
            CLASS[c] |= SKIPPED;
        }
    }

    /** What {@link #readScalar()} found. */
    static final int NIL = 0;
    static final int KEYWORD = 1;
    static final int STRING = 2;
    static final int INTEGER_VALUE = 3;
    static final int OTHER = 4;

    private static final int BLOCK = 1 << 20;

    private final InputStream in;
    private final String source;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    private long base;          // the absolute offset of buf[0]
    private int line = 1;
    private long lineStart;     // the absolute offset where the current line starts
    private int lineExtra;      // bytes on the current line, before pos, beyond one per Java character
    private int depth;

    // The token or string just read: tok[tokOffset, tokOffset + tokLength), either in buf (the usual case: it was
    // whole in the buffer, without escapes) or in scratch; or text when it holds a lone surrogate.
    private byte[] tok;
    private int tokOffset;
    private int tokLength;
    private int tokRestClass;   // the byte classes of the token's bytes after its first, ANDed
    private byte[] scratch = new byte[256];
    private int scratchLength;
    private StringBuilder text;
    private boolean ascii;       // whether scratch holds only ASCII (set by strings)
    private long tokenLong;
    private Object tokenRaw;

    /** A parser over {@code utf8}, all of it in memory. */
    EdnParser(byte[] utf8, String source) {
        this.in = null;
        this.source = source;
        this.buf = utf8;
        this.limit = utf8.length;
        this.eof = true;
    }

    /** A parser that reads {@code in} in blocks as it goes (not closed). */
    EdnParser(InputStream in, String source) {
        this.in = in;
        this.source = source;
        this.buf = new byte[BLOCK];
    }

    int line() {
        return line;
    }

    /** Bytes consumed so far. */
    long offset() {
        return base + pos;
    }

    int column() {
        return (int) (base + pos - lineStart) - lineExtra + 1;
    }

    /** Skips a UTF-8 byte-order mark at the very start, as some Windows editors write. */
    void skipByteOrderMark() {
        if (base == 0 && pos == 0 && ensure(3) && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB
                && buf[2] == (byte) 0xBF) {
            pos = 3;
            lineStart = 3;
        }
    }

    /** Skips whitespace, commas, comments and discarded forms; returns the next byte, or -1 at the end. */
    int peek() {
        skipBlank();
        return pos < limit || ensure(1) ? buf[pos] & 0xff : -1;
    }

    /** Consumes the byte {@link #peek()} returned (never a newline: peek skips those). */
    void consume() {
        pos++;
    }

    MalformedHistoryException error(String problem) {
        return errorAt(line, column(), problem);
    }

    MalformedHistoryException errorAt(int atLine, int atColumn, String problem) {
        return new MalformedHistoryException(source + " line " + atLine + " column " + atColumn + ": " + problem, -1);
    }

    /**
     * {@link #peek()} inside a collection opened at ({@code openLine}, {@code openColumn}) that {@code close} ends:
     * the end of the file, or a closing bracket of another kind, is an error naming the opening.
     */
    int peekInside(char close, String what, int openLine, int openColumn) {
        int c = peek();
        if (c < 0) {
            throw unclosed(what, close, openLine, openColumn);
        }
        if (c != close && (c == ')' || c == ']' || c == '}')) {
            throw error("unbalanced brackets: '" + (char) c + "' where '" + close + "' was expected to close the "
                    + what + " opened at line " + openLine + " column " + openColumn);
        }
        return c;
    }

    /** Counts a nesting level opened at ({@code atLine}, {@code atColumn}); see {@link #exit()}. */
    void enter(int atLine, int atColumn) {
        if (++depth > MAX_DEPTH) {
            throw errorAt(atLine, atColumn, "nested more than " + MAX_DEPTH + " levels deep");
        }
    }

    void exit() {
        depth--;
    }

    /**
     * Reads one form, leaving a keyword (its name), a string or an integer that fits a {@code long} in the parser
     * without making an object ({@link #tokenBytes()}, {@link #tokenLength()}, {@link #tokenText()},
     * {@link #tokenLong()}); anything else is read by {@link #read()} into {@link #tokenRaw()}.
     *
     * @return {@link #NIL}, {@link #KEYWORD}, {@link #STRING}, {@link #INTEGER_VALUE} or {@link #OTHER}
     */
    int readScalar() {
        int c = peek();
        if (c == '"') {
            readString();
            return STRING;
        }
        if (c == ':') {
            int startColumn = column();
            token();
            if (tokLength < 2 || (CLASS[tok[tokOffset + 1] & 0xff] & NAME_START) == 0
                    || (tokRestClass & NAME_REST) == 0) {
                throw errorAt(line, startColumn, "invalid keyword " + tokenString());
            }
            tokOffset++; // the name without the colon
            tokLength--;
            ascii = true; // keyword names are ASCII by their grammar
            return KEYWORD;
        }
        if (c >= '0' && c <= '9' || c == '-' || c == '+' || c == 'n') {
            int startLine = line;
            int startColumn = column();
            token();
            if (c == 'n') {
                if (tokLength == 3 && tok[tokOffset + 1] == 'i' && tok[tokOffset + 2] == 'l') {
                    return NIL;
                }
                tokenRaw = atom(tokenString(), startLine, startColumn);
                return OTHER;
            }
            if (simpleInteger()) {
                return INTEGER_VALUE;
            }
            tokenRaw = atom(tokenString(), startLine, startColumn);
            if (tokenRaw instanceof Long l) {
                tokenLong = l;
                return INTEGER_VALUE;
            }
            return OTHER;
        }
        tokenRaw = read();
        return OTHER;
    }

    /**
     * The array holding the keyword name or string {@link #readScalar()} left, at {@link #tokenOffset()} (valid
     * until the parser reads on).
     */
    byte[] tokenBytes() {
        return tok;
    }

    int tokenOffset() {
        return tokOffset;
    }

    int tokenLength() {
        return tokLength;
    }

    /** Whether the keyword name or string {@link #readScalar()} left is all ASCII. */
    boolean tokenAscii() {
        return ascii;
    }

    /** The string {@link #readScalar()} left, when it is not valid UTF-8 bytes (a lone surrogate); else null. */
    String tokenText() {
        return text == null ? null : text.toString();
    }

    long tokenLong() {
        return tokenLong;
    }

    /** The raw value of an {@link #OTHER} form. */
    Object tokenRaw() {
        return tokenRaw;
    }

    /** The keyword, string or integer {@link #readScalar()} left, as the raw value {@link #read()} would give. */
    Object tokenAsRaw(int kind) {
        return switch (kind) {
            case KEYWORD -> new Keyword(tokenString());
            case STRING -> text != null ? text.toString() : tokenString();
            case INTEGER_VALUE -> tokenLong;
            case NIL -> null;
            default -> tokenRaw;
        };
    }

    /** Reads one form as a raw value; fails at the end of the input. */
    Object read() {
        int c = peek();
        if (c < 0) {
            throw error("unexpected end of file where a value was expected (file truncated?)");
        }
        int startLine = line;
        int startColumn = column();
        switch (c) {
            case '[':
                pos++;
                return Collections.unmodifiableList(readSequence(']', "vector", startLine, startColumn));
            case '(':
                pos++;
                return Collections.unmodifiableList(readSequence(')', "list", startLine, startColumn));
            case '{':
                pos++;
                return readMap(startLine, startColumn);
            case '"':
                readString();
                return text != null ? text.toString() : tokenString();
            case '\\':
                return readCharacter();
            case '#':
                return readDispatch(startLine, startColumn);
            case ')':
            case ']':
            case '}':
                throw error("unbalanced brackets: '" + (char) c + "' closes nothing that is open");
            default:
                token();
                if (tokLength == 0) {
                    throw error("unexpected character '" + printable(c) + "'");
                }
                return atom(tokenString(), startLine, startColumn);
        }
    }

    private List<Object> readSequence(char close, String what, int openLine, int openColumn) {
        enter(openLine, openColumn);
        List<Object> items = new ArrayList<>();
        while (true) {
            int c = peekInside(close, what, openLine, openColumn);
            if (c == close) {
                pos++;
                depth--;
                return items;
            }
            items.add(read());
        }
    }

    private Map<Object, Object> readMap(int openLine, int openColumn) {
        List<Object> items = readSequence('}', "map", openLine, openColumn);
        if (items.size() % 2 != 0) {
            throw errorAt(openLine, openColumn, "the map has a key with no value (" + items.size() + " forms)");
        }
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i += 2) {
            if (map.containsKey(items.get(i))) {
                throw errorAt(openLine, openColumn, "the map has the key " + Edn.print(items.get(i)) + " twice");
            }
            map.put(items.get(i), items.get(i + 1));
        }
        return Collections.unmodifiableMap(map);
    }

    private Object readDispatch(int startLine, int startColumn) {
        int next = at(1);
        if (next == '{') {
            pos += 2;
            List<Object> items = readSequence('}', "set", startLine, startColumn);
            Set<Object> set = new LinkedHashSet<>();
            for (Object item : items) {
                if (!set.add(item)) {
                    throw errorAt(startLine, startColumn, "the set has " + Edn.print(item) + " twice");
                }
            }
            return Collections.unmodifiableSet(set);
        }
        if (next == '#') {
            pos += 2;
            token();
            String name = tokenString();
            return switch (name) {
                case "Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> throw errorAt(startLine, startColumn, "unknown symbolic value ##" + name);
            };
        }
        if (next >= 0 && isLetterAfterHash()) {
            // A tagged literal (#inst, #uuid, #jepsen.history.Op ...): keep the value, drop the tag.
            pos++;
            token();
            String tag = tokenString();
            if (!SYMBOL.matcher(tag).matches()) {
                throw errorAt(startLine, startColumn, "invalid tag #" + tag);
            }
            if (peek() < 0) {
                throw error("unexpected end of file after the tag #" + tag + " (file truncated?)");
            }
            enter(startLine, startColumn);
            Object value = read();
            depth--;
            return value;
        }
        if (next >= 0x80) {
            int n = Utf8.sequenceLength(buf, pos + 1, limit);
            throw error(n < 0 ? "not UTF-8 text" : "unsupported dispatch '#"
                    + new String(buf, pos + 1, n, StandardCharsets.UTF_8) + "'");
        }
        throw error(next < 0 ? "unexpected end of file after '#' (file truncated?)"
                : "unsupported dispatch '#" + (char) next + "'");
    }

    /** Whether the character after the '#' at pos is a letter (which starts a tag). */
    private boolean isLetterAfterHash() {
        ensure(5);
        int c = buf[pos + 1] & 0xff;
        if (c < 0x80) {
            return Character.isLetter(c);
        }
        int n = Utf8.sequenceLength(buf, pos + 1, limit);
        return n > 0 && Character.isLetter(new String(buf, pos + 1, n, StandardCharsets.UTF_8).codePointAt(0));
    }

    /** Reads the string at pos (its opening quote) into scratch, or text if it holds a lone surrogate. */
    private void readString() {
        text = null;
        ascii = true;
        // The usual string is whole in the buffer, ASCII, one line, without escapes: then it is left where it is.
        byte[] in = buf;
        for (int i = pos + 1, end = limit; i < end; i++) {
            byte c = in[i];
            if (c == '"') {
                tok = in;
                tokOffset = pos + 1;
                tokLength = i - pos - 1;
                pos = i + 1;
                return;
            }
            if (c == '\\' || c == '\n' || c < 0) {
                break;
            }
        }
        int startLine = line;
        int startColumn = column();
        pos++; // the opening quote
        scratchLength = 0;
        while (true) {
            if (pos >= limit && !ensure(1)) {
                throw errorAt(startLine, startColumn, "the string is never closed (file truncated?)");
            }
            int i = pos;
            byte[] b = buf;
            int end = limit;
            while (i < end) {
                byte c = b[i];
                if (c == '"' || c == '\\' || c == '\n' || c < 0) {
                    break;
                }
                i++;
            }
            append(b, pos, i - pos);
            pos = i;
            if (i == end) {
                continue;
            }
            byte c = b[i];
            if (c == '"') {
                pos++;
                tok = scratch;
                tokOffset = 0;
                tokLength = scratchLength;
                return;
            }
            if (c == '\n') {
                append(b, pos, 1);
                pos++;
                newline();
            } else if (c < 0) {
                int n = sequence();
                append(buf, pos, n);
                pos += n;
                ascii = false;
            } else {
                escape(startLine, startColumn);
            }
        }
    }

    private void escape(int startLine, int startColumn) {
        int escLine = line;
        int escColumn = column();
        pos++;
        if (pos >= limit && !ensure(1)) {
            throw errorAt(startLine, startColumn, "the string is never closed (file truncated?)");
        }
        byte e = buf[pos];
        switch (e) {
            case 't' -> appendChar('\t');
            case 'r' -> appendChar('\r');
            case 'n' -> appendChar('\n');
            case 'b' -> appendChar('\b');
            case 'f' -> appendChar('\f');
            case '\\' -> appendChar('\\');
            case '"' -> appendChar('"');
            case 'u' -> {
                pos++;
                char unit = hex4(escLine, escColumn);
                if (Character.isHighSurrogate(unit) && ensure(6) && buf[pos] == '\\' && buf[pos + 1] == 'u') {
                    int save = pos;
                    pos += 2;
                    char low = hex4(escLine, escColumn);
                    if (Character.isLowSurrogate(low)) {
                        appendCodePoint(Character.toCodePoint(unit, low));
                        return;
                    }
                    pos = save;
                }
                appendCodePoint(unit);
                return;
            }
            default -> {
                if (e < 0) {
                    throw errorAt(escLine, escColumn, "unknown escape \\" + new String(buf, pos,
                            Math.max(1, Utf8.sequenceLength(buf, pos, limit)), StandardCharsets.UTF_8)
                            + " in a string");
                }
                throw errorAt(escLine, escColumn, "unknown escape \\" + printable(e) + " in a string");
            }
        }
        pos++;
    }

    private char hex4(int escLine, int escColumn) {
        if (!ensure(4)) {
            throw errorAt(escLine, escColumn, "\\u needs four hex digits (file truncated?)");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(buf[pos + i], 16);
            if (buf[pos + i] < 0 || d < 0) {
                throw errorAt(escLine, escColumn, "\\u" + new String(buf, pos, 4, StandardCharsets.UTF_8)
                        + " is not four hex digits");
            }
            v = v * 16 + d;
        }
        pos += 4;
        return (char) v;
    }

    private Character readCharacter() {
        int startLine = line;
        int startColumn = column();
        pos++; // the backslash
        if (pos >= limit && !ensure(1)) {
            throw errorAt(startLine, startColumn, "unexpected end of file after '\\' (file truncated?)");
        }
        // The first character may itself be a delimiter (\( or \space's s); the rest runs to a delimiter.
        String first;
        byte c = buf[pos];
        if (c < 0) {
            int n = sequence();
            first = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
        } else {
            first = String.valueOf((char) c);
            pos++;
            if (c == '\n') {
                newline();
            }
        }
        token();
        String name = first + tokenString();
        if (name.length() == 1) {
            return name.charAt(0);
        }
        return switch (name) {
            case "newline" -> '\n';
            case "space" -> ' ';
            case "tab" -> '\t';
            case "return" -> '\r';
            case "formfeed" -> '\f';
            case "backspace" -> '\b';
            default -> {
                if (name.length() == 5 && name.charAt(0) == 'u') {
                    try {
                        yield (char) Integer.parseInt(name.substring(1), 16);
                    } catch (NumberFormatException e) {
                        // fall through to the error below
                    }
                }
                throw errorAt(startLine, startColumn, "unknown character literal \\" + name);
            }
        };
    }

    /** A symbol, number, nil, true or false (the token {@code t}, which starts at the given place). */
    private Object atom(String t, int startLine, int startColumn) {
        char first = t.charAt(0);
        if (first == ':') {
            String name = t.substring(1);
            if (name.isEmpty() || !KEYWORD_NAME.matcher(name).matches()) {
                throw errorAt(startLine, startColumn, "invalid keyword " + t);
            }
            return new Keyword(name);
        }
        boolean numeric = Character.isDigit(first)
                || ((first == '+' || first == '-') && t.length() > 1 && Character.isDigit(t.charAt(1)));
        if (numeric) {
            return number(t, startLine, startColumn);
        }
        switch (t) {
            case "nil":
                return null;
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            default:
                if (!SYMBOL.matcher(t).matches()) {
                    throw errorAt(startLine, startColumn, "invalid symbol " + t);
                }
                return new Symbol(t);
        }
    }

    private Object number(String t, int startLine, int startColumn) {
        if (INTEGER.matcher(t).matches()) {
            String digits = t.endsWith("N") ? t.substring(0, t.length() - 1) : t;
            BigInteger big = new BigInteger(digits);
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        }
        if (DECIMAL.matcher(t).matches()) {
            if (t.endsWith("M")) {
                return new BigDecimal(t.substring(0, t.length() - 1));
            }
            return Double.parseDouble(t);
        }
        throw errorAt(startLine, startColumn, "invalid number " + t);
    }

    /** Whether the token is an integer of at most 18 digits (sign allowed, no leading zero): then tokenLong. */
    private boolean simpleInteger() {
        byte[] t = tok;
        int i = tokOffset;
        int end = tokOffset + tokLength;
        boolean negative = false;
        if (tokLength > 0 && (t[i] == '-' || t[i] == '+')) {
            negative = t[i] == '-';
            i++;
        }
        int digits = end - i;
        if (digits < 1 || digits > 18 || digits > 1 && t[i] == '0') {
            return false;
        }
        long v = 0;
        for (; i < end; i++) {
            int d = t[i] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            v = v * 10 + d;
        }
        tokenLong = negative ? -v : v;
        return true;
    }

    /** Reads the run of non-delimiter bytes at pos (maybe empty) as the token. */
    private void token() {
        text = null;
        byte[] b = buf;
        int start = pos;
        int i = pos;
        int end = limit;
        int rest = 0xff;
        while (i < end) {
            byte c = b[i];
            if (c < 0) {
                break;
            }
            int cls = CLASS[c];
            if ((cls & DELIMITER) != 0) {
                tok = b; // whole in the buffer: left where it is
                tokOffset = start;
                tokLength = i - start;
                tokRestClass = rest;
                pos = i;
                return;
            }
            if (i > start) {
                rest &= cls;
            }
            i++;
        }
        if (i == end && eof) {
            tok = b;
            tokOffset = start;
            tokLength = i - start;
            tokRestClass = rest;
            pos = i;
            return;
        }
        // It runs past the buffer, or holds non-ASCII bytes: copied to scratch as it is read.
        scratchLength = 0;
        while (true) {
            if (pos >= limit && !ensure(1)) {
                break;
            }
            byte c = buf[pos];
            if (c >= 0) {
                if ((CLASS[c] & DELIMITER) != 0) {
                    break;
                }
                append(buf, pos, 1);
                pos++;
            } else {
                int n = sequence();
                append(buf, pos, n);
                pos += n;
            }
        }
        tok = scratch;
        tokOffset = 0;
        tokLength = scratchLength;
        tokRestClass = 0xff;
        for (int k = 1; k < scratchLength; k++) {
            tokRestClass &= CLASS[scratch[k] & 0xff];
        }
    }

    private void skipBlank() {
        while (true) {
            if (pos >= limit && !ensure(1)) {
                return;
            }
            byte c = buf[pos];
            if (c < 0 || (CLASS[c] & SKIPPED) == 0) {
                return;
            }
            if (c == ' ' || c == ',' || c == '\t' || c == '\r' || c == '\f') {
                pos++;
            } else if (c == '\n') {
                pos++;
                newline();
            } else if (c == ';') {
                while (pos < limit || ensure(1)) {
                    byte d = buf[pos];
                    if (d == '\n') {
                        break;
                    }
                    int n = d < 0 ? sequence() : 1;
                    pos += n;
                }
            } else if (c == '#' && at(1) == '_') {
                int startLine = line;
                int startColumn = column();
                pos += 2;
                if (peek() < 0) {
                    throw errorAt(startLine, startColumn, "#_ with nothing after it to discard (file truncated?)");
                }
                enter(startLine, startColumn);
                read();
                depth--;
            } else {
                return;
            }
        }
    }

    /**
     * The length of the UTF-8 sequence at pos (a non-ASCII byte), counted towards the column.
     *
     * @throws MalformedHistoryException if it is not valid UTF-8
     */
    private int sequence() {
        ensure(4);
        int n = Utf8.sequenceLength(buf, pos, limit);
        if (n < 0) {
            throw error("not UTF-8 text");
        }
        lineExtra += n == 4 ? 2 : n - 1;
        return n;
    }

    private void newline() {
        line++;
        lineStart = base + pos;
        lineExtra = 0;
    }

    /** The byte {@code k} places after pos, or -1 past the end. */
    private int at(int k) {
        return ensure(k + 1) ? buf[pos + k] & 0xff : -1;
    }

    /** Makes at least {@code n} bytes from pos available, reading more if needed; false if the input ends first. */
    private boolean ensure(int n) {
        while (limit - pos < n) {
            if (eof) {
                return false;
            }
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                base += pos;
                limit -= pos;
                pos = 0;
            }
            if (limit == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            try {
                int r = in.read(buf, limit, buf.length - limit);
                if (r < 0) {
                    eof = true;
                } else {
                    limit += r;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
            }
        }
        return true;
    }

    private void append(byte[] b, int from, int n) {
        if (text != null) {
            text.append(new String(b, from, n, StandardCharsets.UTF_8));
            return;
        }
        if (scratchLength + n > scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(scratchLength + n, scratch.length * 2));
        }
        System.arraycopy(b, from, scratch, scratchLength, n);
        scratchLength += n;
    }

    private void appendChar(char c) {
        if (text != null) {
            text.append(c);
            return;
        }
        if (scratchLength == scratch.length) {
            scratch = Arrays.copyOf(scratch, scratch.length * 2);
        }
        scratch[scratchLength++] = (byte) c;
    }

    /** Appends a code point; a lone surrogate, which UTF-8 cannot hold, switches the string to {@link #text}. */
    private void appendCodePoint(int cp) {
        if (text == null && Character.isSurrogate((char) cp) && cp < 0x10000) {
            text = new StringBuilder(scratchText());
        }
        if (text != null) {
            text.appendCodePoint(cp);
            return;
        }
        if (scratchLength + 4 > scratch.length) {
            scratch = Arrays.copyOf(scratch, scratch.length * 2);
        }
        ascii &= cp < 0x80;
        scratchLength = Utf8.encode(cp, scratch, scratchLength);
    }

    private String scratchText() {
        return new String(scratch, 0, scratchLength, StandardCharsets.UTF_8);
    }

    /** The token (or string) as text. */
    private String tokenString() {
        return new String(tok, tokOffset, tokLength, StandardCharsets.UTF_8);
    }

    private MalformedHistoryException unclosed(String what, char close, int openLine, int openColumn) {
        return error("unexpected end of file: the " + what + " opened at line " + openLine + " column " + openColumn
                + " is never closed with '" + close + "' (file truncated or brackets unbalanced)");
    }

    private static String printable(int c) {
        return c < 0x20 || c == 0x7f ? String.format("\\u%04x", c) : String.valueOf((char) c);
    }
}
