package io.zkchaos.checkers.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON Lines, the native history format: one JSON object per line.
 * <pre>{"index":0,"process":4,"type":"invoke","f":"write","value":2,"time":1200}
 * {"index":1,"process":4,"type":"ok","f":"write","value":2,"time":3400}
 * {"index":2,"process":"nemesis","type":"info","f":"partition","value":{"cut":["n1"]}}</pre>
 * Fields: {@code index} (else the position), {@code process} (a number or {@code "nemesis"}), {@code type}
 * ({@code invoke|ok|fail|info}), {@code f}, optional {@code key}, {@code value}, optional {@code error} (a string;
 * anything else gives its JSON text), optional {@code time} (ns since the start of the run). Blank lines are skipped;
 * unknown fields are ignored. Integers read as {@link Long} ({@link BigInteger} beyond), other numbers as
 * {@link Double}; {@code NaN}, {@code Infinity} and {@code -Infinity} are accepted and written as bare tokens (as in
 * JavaScript) so that such values survive a round trip.
 *
 * <p>A last line without its newline that does not parse is what a writer killed mid-line leaves: by default it is an
 * error that says so; {@link ReadOptions#tolerateTruncatedTail} drops it with a warning instead.
 */
public final class JsonLinesCodec {

    static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(EdnParser.MAX_DEPTH).build())
                    .build())
            // NaN and infinities are written as bare tokens and read back, so such values survive a round trip.
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .build();

    private JsonLinesCodec() {
    }

    /**
     * Reads a whole JSON Lines history.
     *
     * @param source names the input in errors (usually the file path)
     * @throws MalformedHistoryException naming the line (and column) and the problem
     * @throws UncheckedIOException when {@code in} cannot be read
     */
    public static History read(Reader in, String source, ReadOptions options) {
        OpDecoder decoder = new OpDecoder(source, OpDecoder.Syntax.JSON, JsonLinesCodec::show);
        LineSource lines = new LineSource(in);
        try {
            String line;
            while ((line = lines.next()) != null) {
                int number = lines.number();
                if (number == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1); // a byte-order mark, as some Windows editors write
                }
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = MAPPER.readTree(line);
                } catch (JsonProcessingException e) {
                    int column = e.getLocation() == null ? -1 : e.getLocation().getColumnNr();
                    String problem = source + " line " + number + (column > 0 ? " column " + column : "") + ": "
                            + e.getOriginalMessage().replaceAll("\\s+", " ");
                    if (lines.lastLineUnterminated()) {
                        String cut = "the last line is cut off (no newline at the end of the file; was the writer "
                                + "killed mid-line?)";
                        if (options.tolerateTruncatedTail()) {
                            options.warnings().accept(source + " line " + number + ": ignored: " + cut);
                            break;
                        }
                        throw new MalformedHistoryException(problem + "; " + cut, -1, e);
                    }
                    throw new MalformedHistoryException(problem, -1, e);
                }
                if (!(node instanceof com.fasterxml.jackson.databind.node.ObjectNode)) {
                    throw new MalformedHistoryException(source + " line " + number + ": expected one JSON object per"
                            + " line, found " + show(plain(node)), -1);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> fields = (Map<String, Object>) plain(node);
                decoder.add(fields, number);
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            // The decoder reads ahead, so only a lower bound of the line is known.
            throw new MalformedHistoryException(source + ": not UTF-8 text (somewhere after line " + lines.number()
                    + ")", -1, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
        return decoder.history();
    }

    /** Converts a parsed JSON tree to plain data with the integer normalisation of {@link Op}. */
    static Object plain(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            BigInteger big = node.bigIntegerValue();
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isArray()) {
            List<Object> items = new ArrayList<>(node.size());
            for (JsonNode item : node) {
                items.add(plain(item));
            }
            return Collections.unmodifiableList(items);
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                map.put(e.getKey(), plain(e.getValue()));
            }
            return Collections.unmodifiableMap(map);
        }
        throw new IllegalArgumentException("unexpected JSON node " + node.getNodeType());
    }

    /** A value as JSON text, for messages and for non-string errors. */
    static String show(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }

    /** Writes one op as a JSON object (no line break) with {@code gen}. */
    static void writeOp(JsonGenerator gen, Op op) throws IOException {
        gen.writeStartObject();
        gen.writeNumberField("index", op.index());
        if (op.isNemesis()) {
            gen.writeStringField("process", "nemesis");
        } else {
            gen.writeNumberField("process", op.process());
        }
        gen.writeStringField("type", op.type().wireName());
        gen.writeStringField("f", op.f());
        if (op.key() != null) {
            gen.writeStringField("key", op.key());
        }
        gen.writeFieldName("value");
        MAPPER.writeValue(gen, op.value());
        if (op.error() != null) {
            gen.writeStringField("error", op.error());
        }
        if (op.time() >= 0) {
            gen.writeNumberField("time", op.time());
        }
        gen.writeEndObject();
    }

    /** The op as one line of JSON, newline included, UTF-8. */
    public static byte[] encode(Op op) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(128);
        try (JsonGenerator gen = MAPPER.getFactory().createGenerator(bytes)) {
            writeOp(gen, op);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    /** Writes {@code ops} one per line to {@code out} (not closed). */
    public static void write(OutputStream out, Iterable<Op> ops) {
        try (JsonGenerator gen = MAPPER.getFactory().createGenerator(out)) {
            gen.setRootValueSeparator(null);
            for (Op op : ops) {
                writeOp(gen, op);
                gen.writeRaw('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Splits a reader into lines, counting them and telling whether the last one had its newline. */
    private static final class LineSource {
        private final Reader in;
        private final char[] buffer = new char[8192];
        private int start;
        private int end;
        private int number;
        private boolean eof;
        private boolean unterminated;

        LineSource(Reader in) {
            this.in = in;
        }

        /** The next line without its terminator ({@code \n} or {@code \r\n}), or null at the end. */
        String next() throws IOException {
            StringBuilder sb = null;
            while (true) {
                for (int i = start; i < end; i++) {
                    if (buffer[i] == '\n') {
                        int stop = i > start && buffer[i - 1] == '\r' ? i - 1 : i;
                        String line;
                        if (sb == null) {
                            line = new String(buffer, start, stop - start);
                        } else {
                            sb.append(buffer, start, i - start);
                            int len = sb.length();
                            if (len > 0 && sb.charAt(len - 1) == '\r') {
                                sb.setLength(len - 1);
                            }
                            line = sb.toString();
                        }
                        start = i + 1;
                        number++;
                        return line;
                    }
                }
                if (sb == null) {
                    sb = new StringBuilder();
                }
                sb.append(buffer, start, end - start);
                start = 0;
                end = eof ? -1 : in.read(buffer);
                if (end < 0) {
                    eof = true;
                    end = 0;
                    if (sb.length() == 0) {
                        return null;
                    }
                    number++;
                    unterminated = true;
                    return sb.toString();
                }
            }
        }

        int number() {
            return number;
        }

        boolean lastLineUnterminated() {
            return unterminated;
        }
    }
}
