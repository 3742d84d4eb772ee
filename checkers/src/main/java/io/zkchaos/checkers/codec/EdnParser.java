package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.MalformedHistoryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A reader for the EDN subset that Jepsen histories use, over text held in memory, tracking line and column so that
 * every error names where it is.
 *
 * <p>Reads: nil, true, false; strings with escapes; characters; integers (with an optional {@code N}), decimals
 * (with an optional {@code M}), {@code ##Inf}, {@code ##-Inf}, {@code ##NaN}; keywords and symbols; vectors, lists,
 * maps and sets; tagged literals (the tag is dropped, the value kept: {@code #inst "..."} reads as its string);
 * {@code ;} comments, {@code #_} discards and commas as whitespace.
 *
 * <p>Produces raw values: {@link Keyword}, {@link Symbol}, {@link Character}, {@link Long}, {@link BigInteger} (only
 * beyond the range of a long), {@link Double}, {@link BigDecimal}, {@link String}, {@link Boolean}, null,
 * {@link List} (vectors and lists), {@link Map} and {@link Set}, insertion-ordered. {@link Edn#plain} turns them into
 * the plain values of {@link io.zkchaos.checkers.history.Op}.
 *
 * <p>Every failure is a {@link MalformedHistoryException} ({@code source line L column C: problem}); nesting is capped
 * at {@link #MAX_DEPTH} so hostile input cannot overflow the stack.
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

    private final String text;
    private final String source;
    private int pos;
    private int line = 1;
    private int column = 1;
    private int depth;

    EdnParser(String text, String source) {
        this.text = text;
        this.source = source;
    }

    int line() {
        return line;
    }

    int column() {
        return column;
    }

    /** Skips whitespace, commas, comments and discarded forms; returns the next character, or -1 at the end. */
    int peek() {
        skipBlank();
        return pos < text.length() ? text.charAt(pos) : -1;
    }

    /** Consumes the character {@link #peek()} returned. */
    void consume() {
        advance();
    }

    MalformedHistoryException error(String problem) {
        return errorAt(line, column, problem);
    }

    MalformedHistoryException errorAt(int atLine, int atColumn, String problem) {
        return new MalformedHistoryException(source + " line " + atLine + " column " + atColumn + ": " + problem, -1);
    }

    /** Reads one form; fails at the end of the input. */
    Object read() {
        int c = peek();
        if (c < 0) {
            throw error("unexpected end of file where a value was expected (file truncated?)");
        }
        int startLine = line;
        int startColumn = column;
        switch (c) {
            case '[':
                advance();
                return Collections.unmodifiableList(readSequence(']', "vector", startLine, startColumn));
            case '(':
                advance();
                return Collections.unmodifiableList(readSequence(')', "list", startLine, startColumn));
            case '{':
                advance();
                return readMap(startLine, startColumn);
            case '"':
                return readString();
            case '\\':
                return readCharacter();
            case '#':
                return readDispatch(startLine, startColumn);
            case ')':
            case ']':
            case '}':
                throw error("unbalanced brackets: '" + (char) c + "' closes nothing that is open");
            default:
                return readAtom();
        }
    }

    private List<Object> readSequence(char close, String what, int openLine, int openColumn) {
        enter(openLine, openColumn);
        List<Object> items = new ArrayList<>();
        while (true) {
            int c = peek();
            if (c < 0) {
                throw unclosed(what, close, openLine, openColumn);
            }
            if (c == close) {
                advance();
                depth--;
                return items;
            }
            if (c == ')' || c == ']' || c == '}') {
                throw error("unbalanced brackets: '" + (char) c + "' where '" + close + "' was expected to close the "
                        + what + " opened at line " + openLine + " column " + openColumn);
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
        int next = charAt(pos + 1);
        if (next == '{') {
            advance();
            advance();
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
            advance();
            advance();
            String name = token();
            return switch (name) {
                case "Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> throw errorAt(startLine, startColumn, "unknown symbolic value ##" + name);
            };
        }
        if (next >= 0 && Character.isLetter(next)) {
            // A tagged literal (#inst, #uuid, #jepsen.history.Op ...): keep the value, drop the tag.
            advance();
            String tag = token();
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
        throw error(next < 0 ? "unexpected end of file after '#' (file truncated?)"
                : "unsupported dispatch '#" + (char) next + "'");
    }

    private String readString() {
        int startLine = line;
        int startColumn = column;
        advance(); // the opening quote
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw errorAt(startLine, startColumn, "the string is never closed (file truncated?)");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                advance();
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                advance();
                continue;
            }
            int escLine = line;
            int escColumn = column;
            advance();
            if (pos >= text.length()) {
                throw errorAt(startLine, startColumn, "the string is never closed (file truncated?)");
            }
            char e = text.charAt(pos);
            advance();
            switch (e) {
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'n' -> sb.append('\n');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case '\\' -> sb.append('\\');
                case '"' -> sb.append('"');
                case 'u' -> sb.append(hex4(escLine, escColumn));
                default -> throw errorAt(escLine, escColumn, "unknown escape \\" + e + " in a string");
            }
        }
    }

    private char hex4(int escLine, int escColumn) {
        if (pos + 4 > text.length()) {
            throw errorAt(escLine, escColumn, "\\u needs four hex digits (file truncated?)");
        }
        String hex = text.substring(pos, pos + 4);
        for (int i = 0; i < 4; i++) {
            if (Character.digit(hex.charAt(i), 16) < 0) {
                throw errorAt(escLine, escColumn, "\\u" + hex + " is not four hex digits");
            }
        }
        for (int i = 0; i < 4; i++) {
            advance();
        }
        return (char) Integer.parseInt(hex, 16);
    }

    private Character readCharacter() {
        int startLine = line;
        int startColumn = column;
        advance(); // the backslash
        if (pos >= text.length()) {
            throw errorAt(startLine, startColumn, "unexpected end of file after '\\' (file truncated?)");
        }
        // The first character may itself be a delimiter (\( or \space's s); the rest runs to a delimiter.
        StringBuilder sb = new StringBuilder().append(text.charAt(pos));
        advance();
        sb.append(token());
        String name = sb.toString();
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

    private Object readAtom() {
        int startLine = line;
        int startColumn = column;
        String t = token();
        if (t.isEmpty()) {
            char c = text.charAt(pos);
            throw error("unexpected character '" + printable(c) + "'");
        }
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

    /** The run of non-delimiter characters at the current position (maybe empty). */
    private String token() {
        int start = pos;
        while (pos < text.length() && !isDelimiter(text.charAt(pos))) {
            advance();
        }
        return text.substring(start, pos);
    }

    private static boolean isDelimiter(char c) {
        return isBlank(c) || c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == '"'
                || c == ';' || c == '\\';
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\f';
    }

    private void skipBlank() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (isBlank(c)) {
                advance();
            } else if (c == ';') {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    advance();
                }
            } else if (c == '#' && charAt(pos + 1) == '_') {
                int startLine = line;
                int startColumn = column;
                advance();
                advance();
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

    private void enter(int atLine, int atColumn) {
        if (++depth > MAX_DEPTH) {
            throw errorAt(atLine, atColumn, "nested more than " + MAX_DEPTH + " levels deep");
        }
    }

    private MalformedHistoryException unclosed(String what, char close, int openLine, int openColumn) {
        return error("unexpected end of file: the " + what + " opened at line " + openLine + " column " + openColumn
                + " is never closed with '" + close + "' (file truncated or brackets unbalanced)");
    }

    private int charAt(int i) {
        return i < text.length() ? text.charAt(i) : -1;
    }

    private void advance() {
        if (text.charAt(pos) == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        pos++;
    }

    private static String printable(char c) {
        return c < 0x20 || c == 0x7f || Character.isISOControl(c) || Character.isSurrogate(c)
                ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }
}
