package io.zkchaos.checkers.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming readers against references: the JSON Lines reader against Jackson on random values, the EDN reader's
 * op-map fast path against its general reader, and both against themselves when the input arrives a few bytes at a
 * time (so that every token, string, escape and multi-byte character is cut by a buffer refill somewhere).
 */
class StreamingReadersTest {

    private static final long SEED = 20261130L;

    /** Hands out its bytes one to three at a time. */
    private static final class Trickle extends InputStream {
        private final byte[] bytes;
        private final Random random;
        private int at;

        Trickle(byte[] bytes, long seed) {
            this.bytes = bytes;
            this.random = new Random(seed);
        }

        @Override
        public int read() {
            return at < bytes.length ? bytes[at++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (at >= bytes.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, 1 + random.nextInt(3)), bytes.length - at);
            System.arraycopy(bytes, at, b, off, n);
            at += n;
            return n;
        }
    }

    private static History readJson(byte[] bytes, boolean trickle) {
        InputStream in = trickle ? new Trickle(bytes, SEED) : new ByteArrayInputStream(bytes);
        return JsonLinesCodec.read(in, "t.jsonl", ReadOptions.STRICT, bytes.length);
    }

    private static History readEdn(byte[] bytes, boolean trickle) {
        InputStream in = trickle ? new Trickle(bytes, SEED) : new ByteArrayInputStream(bytes);
        return EdnHistoryCodec.read(in, "t.edn", bytes.length);
    }

    @Test
    void everyPublishedHistoryReadsTheSameAFewBytesAtATime() throws Exception {
        for (Path file : SharedData.histories()) {
            byte[] edn = Files.readAllBytes(file);
            History whole = readEdn(edn, false);
            assertThat(readEdn(edn, true).ops()).as("%s trickled", file).isEqualTo(whole.ops());
            byte[] jsonl = HistoryFiles.toText(whole, HistoryFiles.Format.JSON_LINES).getBytes(StandardCharsets.UTF_8);
            assertThat(readJson(jsonl, true).ops()).as("%s as JSON Lines, trickled", file).isEqualTo(whole.ops());
            assertThat(readJson(jsonl, true).operations()).isEqualTo(whole.operations());
        }
    }

    @Test
    void jsonValuesReadAsJacksonReadsThem() throws Exception {
        Random random = new Random(SEED);
        StringBuilder file = new StringBuilder();
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            Object value = randomJson(random, 0);
            String json = JsonLinesCodec.MAPPER.writeValueAsString(value);
            if (random.nextInt(4) == 0) {
                json = json.replace(",", " ,\t").replace(":", " : "); // white space where JSON allows it
            }
            if (random.nextInt(8) == 0) {
                json = escapeSome(json, random);
            }
            expected.add(plain(JsonLinesCodec.MAPPER.readTree(json)));
            String op = random.nextBoolean()
                    ? "{\"process\":0,\"type\":\"invoke\",\"f\":\"w\",\"value\":" + json + "}"
                    : "{ \"value\" : " + json + " , \"f\":\"w\", \"zzz\": [1, {\"a\": null}], \"type\":\"invoke\","
                            + " \"process\": 0}";
            file.append(op).append(random.nextBoolean() ? "\n" : "\r\n");
            file.append("{\"process\":0,\"type\":\"ok\",\"f\":\"w\"}\n");
        }
        byte[] bytes = file.toString().getBytes(StandardCharsets.UTF_8);
        for (boolean trickle : new boolean[] {false, true}) {
            History h = readJson(bytes, trickle);
            assertThat(h.operations()).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(h.operations().get(i).input()).as("value %d", i).isEqualTo(expected.get(i));
            }
        }
    }

    /** Random JSON: strings with escapes and characters of every UTF-8 length, numbers of every kind, nesting. */
    private static Object randomJson(Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 6 : 8);
        return switch (kind) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> random.nextInt(3) == 0 ? random.nextLong() : (long) random.nextInt(1000) - 500;
            case 3 -> switch (random.nextInt(6)) {
                case 0 -> new BigInteger(70 + random.nextInt(30), random).negate();
                case 1 -> Double.NaN;
                case 2 -> random.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                case 3 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
                default -> (double) random.nextInt(100) / 8;
            };
            case 4, 5 -> randomString(random);
            case 6 -> {
                List<Object> items = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    items.add(randomJson(random, depth + 1));
                }
                yield items;
            }
            default -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    map.put(randomString(random), randomJson(random, depth + 1));
                }
                yield map;
            }
        };
    }

    private static String randomString(Random random) {
        String[] pieces = {"a", "key", " ", "\"", "\\", "/", "\n", "\t", "\u0001", "\u00e9", "\u20ac", "\ud83d\ude00",
                "p123 ", "x 0 1 y", "\u007f", ""};
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            sb.append(pieces[random.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    /** Replaces some characters inside strings by escapes ({@code \\u00e9}, {@code \\/}): valid JSON, same value. */
    private static String escapeSome(String json, Random random) {
        StringBuilder sb = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString && c == '\\') {
                sb.append(c).append(json.charAt(++i)); // an escape: copied as it is
            } else if (c == '"') {
                inString = !inString;
                sb.append(c);
            } else if (inString && (Character.isLetter(c) || c > 0x7f && !Character.isSurrogate(c))
                    && random.nextInt(3) == 0) {
                sb.append(String.format("\\u%04x", (int) c));
            } else if (inString && c == '/' && random.nextBoolean()) {
                sb.append("\\/");
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Jackson's tree as the plain data of {@link Op} (integers as Long, or BigInteger beyond). */
    private static Object plain(JsonNode node) {
        if (node.isNull()) {
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
            List<Object> items = new ArrayList<>();
            node.forEach(item -> items.add(plain(item)));
            return Collections.unmodifiableList(items);
        }
        Map<String, Object> map = new LinkedHashMap<>();
        node.properties().forEach(e -> map.put(e.getKey(), plain(e.getValue())));
        return Collections.unmodifiableMap(map);
    }

    @Test
    void jsonDetailsJacksonAlsoHandlesThatWay() {
        byte[] bytes = ("\uFEFF{\"process\":1,\"type\":\"invoke\",\"f\":\"w\",\"value\":1,\"value\":2}\n"
                + "   \t\n"
                + "{\"process\":1,\"type\":\"ok\",\"f\":\"w\",\"value\":-0,\"error\":{\"why\":[1,2]},\"key\":7}")
                .getBytes(StandardCharsets.UTF_8);
        History h = readJson(bytes, false);
        assertThat(h.ops().get(0).value()).as("a later duplicate field wins").isEqualTo(2L);
        assertThat(h.ops().get(1).value()).isEqualTo(0L);
        assertThat(h.ops().get(1).error()).isEqualTo("{\"why\":[1,2]}");
        assertThat(h.ops().get(1).key()).isEqualTo("7");
    }

    @Test
    void jsonSyntaxErrorsNameLineAndColumn() {
        String[][] cases = {
                {"{\"process\":01}", "line 1 column 12: leading zeros are not allowed"},
                {"{\"process\":1,}", "line 1 column 14: unexpected character '}' where a field name"},
                {"{\"a\":\"x\ty\"}", "line 1 column 8: control character \\u0009 in a string"},
                {"{\"a\":\"\\x\"}", "line 1 column 7: unknown escape \\x"},
                {"{\"a\":\"\\u12\"}", "line 1 column 7: \\u needs four hex digits"},
                {"{\"a\":tru}", "line 1 column 6: unexpected character 't' where a value was expected"},
                {"{\"a\":1.}", "line 1 column 8: unexpected character '}' where a digit was expected"},
                {"{\"a\":" + "[".repeat(300), "nested more than 256 levels deep"},
                {"{\"a\":\"\u00e9\u00e9\" x", "line 1 column 11: unexpected character 'x' where ',' or '}'"},
        };
        for (String[] c : cases) {
            byte[] bytes = (c[0] + "\n").getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> readJson(bytes, false)).as(c[0]).isInstanceOf(MalformedHistoryException.class)
                    .hasMessageStartingWith("t.jsonl line 1 column ").hasMessageContaining(c[1]);
        }
    }

    @Test
    void ednFastPathReadsAsTheGeneralReader() {
        Random random = new Random(SEED);
        StringBuilder fast = new StringBuilder();
        StringBuilder general = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            StringBuilder map = new StringBuilder("{");
            // each op is an invoke of its own process (never completed), or a nemesis entry
            boolean nemesis = random.nextInt(5) == 0;
            String type = nemesis ? "info" : "invoke";
            List<String> fields = new ArrayList<>(List.of(":process " + (nemesis ? ":nemesis" : i),
                    ":type " + (random.nextBoolean() ? ":" + type : "\"" + type + "\""), ":f :" + (random.nextBoolean()
                            ? "w" : "write-2"), ":value " + randomEdn(random, 0), ":time " + random.nextInt(1000),
                    ":error " + randomEdn(random, 0), ":key " + randomEdn(random, 2), ":other " + randomEdn(random, 0),
                    "\"string-key\" 1", "[:vector :key] #{1 2}"));
            Collections.shuffle(fields, random);
            for (String field : fields) {
                map.append(field).append(random.nextBoolean() ? ", " : " ; comment\n #_ :discarded ");
            }
            map.append('}');
            fast.append(map).append('\n');
            general.append("#jepsen.history.Op ").append(map).append('\n');
        }
        byte[] f = fast.toString().getBytes(StandardCharsets.UTF_8);
        byte[] g = general.toString().getBytes(StandardCharsets.UTF_8);
        List<Op> expected = readEdn(g, false).ops();
        assertThat(readEdn(f, false).ops()).isEqualTo(expected);
        assertThat(readEdn(f, true).ops()).isEqualTo(expected);
        assertThat(expected).extracting(Op::type).contains(OpType.INFO, OpType.INVOKE);
    }

    private static String randomEdn(Random random, int depth) {
        int kind = random.nextInt(depth > 2 ? 8 : 11);
        return switch (kind) {
            case 0 -> "nil";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> Long.toString(random.nextLong() >> random.nextInt(64));
            case 3 -> new BigInteger(80, random) + (random.nextBoolean() ? "N" : "");
            case 4 -> random.nextInt(100) + "." + random.nextInt(100) + (random.nextBoolean() ? "M" : "e-3");
            case 5 -> ":kw" + random.nextInt(5);
            case 6 -> Edn.print(randomString(random));
            case 7 -> random.nextBoolean() ? "\\c" : "\\newline";
            case 8 -> "[" + randomEdn(random, depth + 1) + " " + randomEdn(random, depth + 1) + "]";
            case 9 -> "{:a " + randomEdn(random, depth + 1) + ", \"b\" " + randomEdn(random, depth + 1) + "}";
            default -> "#{" + random.nextInt(3) + " :s}";
        };
    }

    @Test
    void ednFastPathErrorsAreTheGeneralReadersErrors() {
        String[] maps = {
                "{:process 1, :type :invoke, :f :read :f :write}",
                "{:process 1, :type :invoke, :f :read, :value}",
                "{:process 1, :type :invoke, :f :read, :x 1, :x 2}",
                "{:process 1, :type :invoke, :f :read, \"x\" 1, :x 2, \"x\" 3}",
                "{:process 1, :type :invoke, :f :read, :value [1 2}",
                "{:process 1, :type :invoke, :f :read, :value 12abc}",
                "{:process 1, :type :invoke, :f :read, :value \"a\\qb\"}",
                "{:process 1, :type :invoke, :f :read, :value :}",
                "{:process \"one\", :type :invoke, :f :read}",
                "{:process 1, :type :bogus, :f :read}",
                "{:process 1, :type :invoke, :f 12}",
                "{:process 1, :type :invoke}",
                "{:process nil, :type :invoke, :f :r}",
                "{:process 1, :type nil, :f :r}",
                "{:process 1, :type :invoke, :f :r, :time -1}",
                "{:process 1, :type :invoke, :f :r, :index 99999999999999999999}",
                "{:process 1, :type :invoke, :f :r, :value #_}",
        };
        for (String map : maps) {
            // the same column for the map in both: "   {" and "#t {"
            String fast = message(() -> readEdn(("   " + map).getBytes(StandardCharsets.UTF_8), false));
            String general = message(() -> readEdn(("#t " + map).getBytes(StandardCharsets.UTF_8), false));
            assertThat(fast).as(map).isNotNull().isEqualTo(general);
        }
    }

    private static String message(Runnable read) {
        try {
            read.run();
            return null;
        } catch (MalformedHistoryException e) {
            return e.getMessage();
        }
    }

    @Test
    void stringsKeepEveryCharacter() {
        String tricky = "caf\u00e9 \u20ac \ud83d\ude00 \"q\" \\ \t\n end";
        String edn = "{:process 0, :type :invoke, :f :w, :value " + Edn.print(tricky) + ", :key \"\u00e9\"}\n"
                + "{:process 0, :type :ok, :f :w, :value \"\\ud83d\\ude00 and a lone \\ud800\"}";
        History h = readEdn(edn.getBytes(StandardCharsets.UTF_8), true);
        assertThat(h.ops().get(0).value()).isEqualTo(tricky);
        assertThat(h.ops().get(0).key()).isEqualTo("\u00e9");
        assertThat(h.ops().get(1).value()).isEqualTo("\ud83d\ude00 and a lone \ud800");
        History first = History.of(List.of(h.ops().get(0))); // JSON cannot carry the lone surrogate
        byte[] json = HistoryFiles.toText(first, HistoryFiles.Format.JSON_LINES).getBytes(StandardCharsets.UTF_8);
        assertThat(readJson(json, true).ops()).isEqualTo(first.ops());
        assertThat(Arrays.asList(h.operations().get(0).input(), h.operations().get(0).output()))
                .containsExactly(tricky, "\ud83d\ude00 and a lone \ud800");
    }
}
