package io.zkchaos.checkers.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

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
 *
 * <p>Reading is {@link JsonLinesReader}'s (a streaming byte-level parser that accepts what Jackson accepts with these
 * settings); writing is Jackson's.
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
     * Reads a whole JSON Lines history from text (tests and tools; files go through {@link HistoryFiles#read}).
     *
     * @param source names the input in errors (usually the file path)
     * @throws MalformedHistoryException naming the line (and column) and the problem
     * @throws UncheckedIOException when {@code in} cannot be read
     */
    public static History read(Reader in, String source, ReadOptions options) {
        StringBuilder text = new StringBuilder();
        char[] chunk = new char[8192];
        try {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                text.append(chunk, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
        byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
        return read(new ByteArrayInputStream(utf8), source, options, utf8.length);
    }

    /**
     * Streams a whole JSON Lines history from UTF-8 bytes.
     *
     * @param source          names the input in errors (usually the file path)
     * @param expectedBytes   the input's size if known, else 0 (a hint, to size the history's columns)
     * @throws MalformedHistoryException naming the line (and column) and the problem
     * @throws UncheckedIOException when {@code in} cannot be read
     */
    public static History read(InputStream in, String source, ReadOptions options, long expectedBytes) {
        return new JsonLinesReader(in, source, options, expectedBytes).read();
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
}
