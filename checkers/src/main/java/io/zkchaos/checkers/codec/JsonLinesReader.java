package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams a JSON Lines history into a {@link History.Builder}: the bytes are read in blocks, each line is parsed in
 * place (no string per line, no tree per object), the known fields go straight to the {@link OpDecoder}, strings
 * straight from the buffer into the history's symbol table or value arena. Only values that are not strings or
 * integers (lists, maps, decimals, ...) become objects.
 *
 * <p>It accepts what Jackson accepts with {@link JsonLinesCodec}'s settings: standard JSON, plus {@code NaN},
 * {@code Infinity} and {@code -Infinity}; integers as {@link Long} ({@link BigInteger} beyond), other numbers as
 * {@link Double}; a later duplicate field wins; nesting at most {@link EdnParser#MAX_DEPTH} deep; text must be UTF-8.
 * Every syntax error names the line and column.
 */
final class JsonLinesReader {

    private static final int BLOCK = 1 << 20;

    private final InputStream in;
    private final String source;
    private final ReadOptions options;
    private final OpDecoder decoder;
    private final History.Builder builder;
    private final SizeEstimate estimate;
    private long consumed; // bytes before buf[0]

    private byte[] buf = new byte[BLOCK];
    private int start;   // the next unread line starts here
    private int limit;   // bytes in buf
    private boolean eof;
    private int lineNumber;

    // The line being parsed: b[lineStart, end); pos the next byte.
    private byte[] b;
    private int lineStart;
    private int pos;
    private int end;

    // The last string read: either b/scratch bytes [strOffset, strOffset + strLength), or strText when it needed
    // unescaping.
    private byte[] strBytes;
    private int strOffset;
    private int strLength;
    private String strText;
    private boolean strAscii;

    // The last number read: numLong if numIsLong, else numObject (BigInteger or Double).
    private boolean numIsLong;
    private long numLong;
    private Object numObject;

    JsonLinesReader(InputStream in, String source, ReadOptions options, long expectedBytes) {
        this.in = in;
        this.source = source;
        this.options = options;
        this.decoder = new OpDecoder(source, OpDecoder.Syntax.JSON, JsonLinesCodec::show);
        this.builder = decoder.builder();
        this.estimate = new SizeEstimate(builder, expectedBytes);
    }

    /** A syntax error in one line: reported with the cut-off note when it is in a last line without a newline. */
    private static final class SyntaxError extends RuntimeException {
        SyntaxError(String message) {
            super(message, null, false, false);
        }
    }

    History read() {
        try {
            while (true) {
                int newline = Utf8.indexOfNewline(buf, start, limit);
                while (newline < 0 && !eof) {
                    int searched = limit - start;
                    fill();
                    newline = Utf8.indexOfNewline(buf, start + searched, limit);
                }
                if (newline < 0 && start == limit) {
                    break;
                }
                boolean terminated = newline >= 0;
                int lineEnd = terminated ? newline : limit;
                lineNumber++;
                line(start, lineEnd, !terminated);
                start = terminated ? newline + 1 : limit;
                estimate.update(consumed + start);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
        return decoder.history();
    }

    /** Reads more bytes, keeping the unread ones (moved to the front; the buffer doubles when one line fills it). */
    private void fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buf, start, buf, 0, limit - start);
            consumed += start;
            limit -= start;
            start = 0;
        }
        if (limit == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
        } else {
            limit += n;
        }
    }

    private void line(int from, int to, boolean unterminated) {
        b = buf;
        lineStart = from;
        end = to;
        if (lineNumber == 1 && to - from >= 3 && b[from] == (byte) 0xEF && b[from + 1] == (byte) 0xBB
                && b[from + 2] == (byte) 0xBF) {
            lineStart += 3; // a byte-order mark, as some Windows editors write
        }
        pos = lineStart;
        if (isBlankLine()) {
            return;
        }
        try {
            skipBlank();
            if (b[pos] != '{') {
                Object v = value(1);
                skipBlank();
                if (pos < end) {
                    throw trailing();
                }
                throw new MalformedHistoryException(source + " line " + lineNumber + ": expected one JSON object per"
                        + " line, found " + JsonLinesCodec.show(v), -1);
            }
            op();
        } catch (SyntaxError e) {
            String problem = source + " line " + lineNumber + " " + e.getMessage();
            if (unterminated) {
                String cut = "the last line is cut off (no newline at the end of the file; was the writer killed "
                        + "mid-line?)";
                if (options.tolerateTruncatedTail()) {
                    options.warnings().accept(source + " line " + lineNumber + ": ignored: " + cut);
                    return;
                }
                throw new MalformedHistoryException(problem + "; " + cut, -1);
            }
            throw new MalformedHistoryException(problem, -1);
        }
    }

    /** The op object at pos: its known fields to the decoder, the others parsed and dropped. */
    private void op() {
        decoder.begin();
        pos++; // '{'
        skipBlank();
        if (peek() == '}') {
            pos++;
        } else {
            while (true) {
                if (peek() != '"') {
                    throw unexpected("where a field name in double quotes was expected");
                }
                int field = fieldName();
                skipBlank();
                if (peek() != ':') {
                    throw unexpected("where ':' was expected after a field name");
                }
                pos++;
                skipBlank();
                fieldValue(field);
                skipBlank();
                int c = peek();
                pos++;
                if (c == ',') {
                    skipBlank();
                    continue;
                }
                if (c == '}') {
                    break;
                }
                pos--;
                throw unexpected("where ',' or '}' was expected in the object opened at column "
                        + column(lineStart));
            }
        }
        skipBlank();
        if (pos < end) {
            throw trailing();
        }
        decoder.finish(lineNumber);
    }

    /** The field number of the field name at pos (its opening quote), which is consumed. */
    private int fieldName() {
        // The usual name is short plain ASCII: find its end, then look it up; anything else goes the long way.
        int i = pos + 1;
        int stop = Math.min(end, i + 8);
        while (i < stop) {
            byte c = b[i];
            if (c == '"') {
                int field = OpDecoder.field(b, pos + 1, i - pos - 1);
                pos = i + 1;
                return field;
            }
            if (c == '\\' || c < 0x20) {
                break;
            }
            i++;
        }
        string();
        if (strText != null) {
            byte[] utf8 = strText.getBytes(StandardCharsets.UTF_8);
            return OpDecoder.field(utf8, 0, utf8.length);
        }
        return OpDecoder.field(strBytes, strOffset, strLength);
    }

    private void fieldValue(int field) {
        int c = peek();
        if (field == OpDecoder.UNKNOWN) {
            value(2);
            return;
        }
        if (c == '"') {
            string();
            if (field == OpDecoder.VALUE) {
                decoder.value(strText != null ? builder.object(strText)
                        : builder.utf8String(strBytes, strOffset, strLength, strAscii));
            } else {
                decoder.string(field, strText != null ? builder.symbol(strText)
                        : builder.symbol(strBytes, strOffset, strLength));
            }
        } else if (c == '-' && !(pos + 1 < end && b[pos + 1] == 'I') || c >= '0' && c <= '9') {
            number();
            if (field == OpDecoder.VALUE) {
                decoder.value(numIsLong ? builder.integer(numLong) : builder.object(numObject));
            } else if (numIsLong) {
                decoder.integer(field, numLong);
            } else {
                decoder.other(field, numObject);
            }
        } else if (c == 'n' && literal("null")) {
            if (field != OpDecoder.VALUE) {
                decoder.nil(field);
            }
        } else {
            Object v = value(2);
            if (field == OpDecoder.VALUE) {
                decoder.value(builder.object(v));
            } else {
                decoder.other(field, v);
            }
        }
    }

    /** Any JSON value at pos, as plain data; {@code depth} is its nesting level if it is an array or object. */
    private Object value(int depth) {
        int c = peek();
        switch (c) {
            case '"':
                string();
                return strText != null ? strText : new String(strBytes, strOffset, strLength, StandardCharsets.UTF_8);
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case 't':
                if (literal("true")) {
                    return Boolean.TRUE;
                }
                break;
            case 'f':
                if (literal("false")) {
                    return Boolean.FALSE;
                }
                break;
            case 'n':
                if (literal("null")) {
                    return null;
                }
                break;
            case 'N':
                if (literal("NaN")) {
                    return Double.NaN;
                }
                break;
            case 'I':
                if (literal("Infinity")) {
                    return Double.POSITIVE_INFINITY;
                }
                break;
            case '-':
                if (pos + 1 < end && b[pos + 1] == 'I') {
                    pos++;
                    if (literal("Infinity")) {
                        return Double.NEGATIVE_INFINITY;
                    }
                    pos--;
                    break;
                }
                number();
                return numIsLong ? (Object) numLong : numObject;
            default:
                if (c >= '0' && c <= '9') {
                    number();
                    return numIsLong ? (Object) numLong : numObject;
                }
        }
        throw unexpected("where a value was expected");
    }

    private Object object(int depth) {
        enter(depth);
        int open = pos;
        pos++;
        Map<String, Object> map = new LinkedHashMap<>();
        skipBlank();
        if (peek() == '}') {
            pos++;
            return Collections.unmodifiableMap(map);
        }
        while (true) {
            if (peek() != '"') {
                throw unexpected("where a field name in double quotes was expected");
            }
            string();
            String name = strText != null ? strText : new String(strBytes, strOffset, strLength,
                    StandardCharsets.UTF_8);
            skipBlank();
            if (peek() != ':') {
                throw unexpected("where ':' was expected after a field name");
            }
            pos++;
            skipBlank();
            map.put(name, value(depth + 1));
            skipBlank();
            int c = peek();
            if (c == ',') {
                pos++;
                skipBlank();
            } else if (c == '}') {
                pos++;
                return Collections.unmodifiableMap(map);
            } else {
                throw unexpected("where ',' or '}' was expected in the object opened at column " + column(open));
            }
        }
    }

    private Object array(int depth) {
        enter(depth);
        int open = pos;
        pos++;
        List<Object> items = new ArrayList<>();
        skipBlank();
        if (peek() == ']') {
            pos++;
            return Collections.unmodifiableList(items);
        }
        while (true) {
            items.add(value(depth + 1));
            skipBlank();
            int c = peek();
            if (c == ',') {
                pos++;
                skipBlank();
            } else if (c == ']') {
                pos++;
                return Collections.unmodifiableList(items);
            } else {
                throw unexpected("where ',' or ']' was expected in the array opened at column " + column(open));
            }
        }
    }

    private void enter(int depth) {
        if (depth > EdnParser.MAX_DEPTH) {
            throw syntax(pos, "nested more than " + EdnParser.MAX_DEPTH + " levels deep");
        }
    }

    /** Reads the string at pos (on its opening quote) into strBytes/strOffset/strLength, or strText if escaped. */
    private void string() {
        int open = pos;
        int i = pos + 1;
        boolean ascii = true;
        while (i < end) {
            byte c = b[i];
            if (c == '"') {
                strBytes = b;
                strOffset = pos + 1;
                strLength = i - pos - 1;
                strText = null;
                strAscii = ascii;
                pos = i + 1;
                return;
            }
            if (c == '\\') {
                break;
            }
            if (c >= 0 && c < 0x20) {
                throw syntax(i, "control character " + printable(c) + " in a string (it must be escaped)");
            }
            if (c < 0) {
                int n = Utf8.sequenceLength(b, i, end);
                if (n < 0) {
                    throw syntax(i, "not UTF-8 text");
                }
                i += n;
                ascii = false;
            } else {
                i++;
            }
        }
        if (i >= end) {
            throw syntax(end, "unexpected end of the line: the string opened at column " + column(open)
                    + " is never closed");
        }
        escapedString(open, i);
    }

    /** The slow path of {@link #string()}: from {@code i}, the first backslash. */
    private void escapedString(int open, int i) {
        StringBuilder sb = new StringBuilder(i - open + 16);
        sb.append(new String(b, open + 1, i - open - 1, StandardCharsets.UTF_8));
        while (true) {
            if (i >= end) {
                throw syntax(end, "unexpected end of the line: the string opened at column " + column(open)
                        + " is never closed");
            }
            byte c = b[i];
            if (c == '"') {
                pos = i + 1;
                strText = sb.toString();
                return;
            }
            if (c >= 0 && c < 0x20) {
                throw syntax(i, "control character " + printable(c) + " in a string (it must be escaped)");
            }
            if (c < 0) {
                int n = Utf8.sequenceLength(b, i, end);
                if (n < 0) {
                    throw syntax(i, "not UTF-8 text");
                }
                sb.append(new String(b, i, n, StandardCharsets.UTF_8));
                i += n;
                continue;
            }
            if (c != '\\') {
                sb.append((char) c);
                i++;
                continue;
            }
            if (i + 1 >= end) {
                throw syntax(end, "unexpected end of the line: the string opened at column " + column(open)
                        + " is never closed");
            }
            byte e = b[i + 1];
            switch (e) {
                case '"' -> sb.append('"');
                case '\\' -> sb.append('\\');
                case '/' -> sb.append('/');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    int v = 0;
                    for (int k = 0; k < 4; k++) {
                        int d = i + 2 + k < end ? Character.digit(b[i + 2 + k], 16) : -1;
                        if (d < 0) {
                            throw syntax(i, "\\u needs four hex digits");
                        }
                        v = v * 16 + d;
                    }
                    sb.append((char) v);
                    i += 4;
                }
                default -> throw syntax(i, "unknown escape \\" + printable(e) + " in a string");
            }
            i += 2;
        }
    }

    /** Reads the number at pos into numIsLong/numLong/numObject. */
    private void number() {
        int from = pos;
        if (b[pos] == '-') {
            pos++;
        }
        int digits = pos;
        if (pos < end && b[pos] == '0') {
            pos++;
            if (pos < end && isDigit(b[pos])) {
                throw syntax(from, "leading zeros are not allowed in a number");
            }
        } else if (pos < end && isDigit(b[pos])) {
            while (pos < end && isDigit(b[pos])) {
                pos++;
            }
        } else {
            throw pos < end ? unexpected("where a digit was expected in a number")
                    : syntax(pos, "unexpected end of the line in a number");
        }
        int integerDigits = pos - digits;
        boolean integral = true;
        if (pos < end && b[pos] == '.') {
            pos++;
            if (!(pos < end && isDigit(b[pos]))) {
                throw pos < end ? unexpected("where a digit was expected after the decimal point")
                        : syntax(pos, "unexpected end of the line in a number");
            }
            while (pos < end && isDigit(b[pos])) {
                pos++;
            }
            integral = false;
        }
        if (pos < end && (b[pos] == 'e' || b[pos] == 'E')) {
            pos++;
            if (pos < end && (b[pos] == '+' || b[pos] == '-')) {
                pos++;
            }
            if (!(pos < end && isDigit(b[pos]))) {
                throw pos < end ? unexpected("where a digit was expected in the exponent")
                        : syntax(pos, "unexpected end of the line in a number");
            }
            while (pos < end && isDigit(b[pos])) {
                pos++;
            }
            integral = false;
        }
        if (integral && integerDigits <= 18) {
            long v = 0;
            for (int i = digits; i < pos; i++) {
                v = v * 10 + (b[i] - '0');
            }
            numIsLong = true;
            numLong = b[from] == '-' ? -v : v;
            return;
        }
        String text = new String(b, from, pos - from, StandardCharsets.ISO_8859_1);
        if (integral) {
            BigInteger big = new BigInteger(text);
            if (big.bitLength() < 64) {
                numIsLong = true;
                numLong = big.longValue();
            } else {
                numIsLong = false;
                numObject = big;
            }
        } else {
            numIsLong = false;
            numObject = Double.parseDouble(text);
        }
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** Consumes {@code word} at pos if it is there. */
    private boolean literal(String word) {
        int n = word.length();
        if (pos + n > end) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (b[pos + i] != word.charAt(i)) {
                return false;
            }
        }
        pos += n;
        return true;
    }

    /** Whether the line holds only white space (as {@link String#isBlank()} counts it for ASCII). */
    private boolean isBlankLine() {
        for (int i = lineStart; i < end; i++) {
            byte c = b[i];
            if (!(c == ' ' || c >= 0x09 && c <= 0x0D || c >= 0x1C && c <= 0x1F)) {
                return false;
            }
        }
        return true;
    }

    private void skipBlank() {
        while (pos < end) {
            byte c = b[pos];
            if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else {
                return;
            }
        }
    }

    /** The byte at pos, or -1 at the end of the line. */
    private int peek() {
        return pos < end ? b[pos] & 0xff : -1;
    }

    private SyntaxError trailing() {
        return syntax(pos, "Trailing token " + describe(pos) + " after the op's object (one JSON object per line)");
    }

    private SyntaxError unexpected(String where) {
        if (pos >= end) {
            return syntax(end, "unexpected end of the line " + where);
        }
        return syntax(pos, "unexpected " + describe(pos) + " " + where);
    }

    private String describe(int at) {
        byte c = b[at];
        if (c < 0) {
            int n = Utf8.sequenceLength(b, at, end);
            if (n < 0) {
                throw syntax(at, "not UTF-8 text");
            }
            return "character '" + new String(b, at, n, StandardCharsets.UTF_8) + "'";
        }
        return "character '" + printable(c) + "'";
    }

    private SyntaxError syntax(int at, String problem) {
        return new SyntaxError("column " + column(at) + ": " + problem);
    }

    private int column(int at) {
        return Utf8.chars(b, lineStart, Math.min(at, end)) + 1;
    }

    private static String printable(byte c) {
        return c < 0x20 || c == 0x7f ? String.format("\\u%04x", c & 0xff) : String.valueOf((char) c);
    }
}
