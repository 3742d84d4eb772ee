package io.zkchaos.checkers.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input: every error is a MalformedHistoryException naming the file, the line (and column) and the problem. */
class MalformedInputTest {

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    private void assertRejected(String name, String content, String... fragments) throws IOException {
        Path p = file(name, content);
        assertThatThrownBy(() -> HistoryFiles.read(p))
                .isInstanceOf(MalformedHistoryException.class)
                .message()
                .startsWith(p.toString())
                .contains(fragments);
    }

    @Test
    void ednTruncatedVector() throws IOException {
        assertRejected("h.edn", "[{:process 1, :type :invoke, :f :read, :value nil}\n {:process 1, :type :ok",
                "line 2 column 24", "unexpected end of file", "the map opened at line 2 column 2 is never closed");
        assertRejected("h.edn", "[{:process 1, :type :invoke, :f :read, :value nil}\n",
                "line 2 column 1", "the vector of ops opened at line 1 column 1 is never closed with ']'");
    }

    @Test
    void ednUnbalancedBrackets() throws IOException {
        assertRejected("h.edn", "[{:process 1, :type :invoke, :f :read, :value [1 2}]",
                "line 1 column 51", "unbalanced brackets: '}' where ']' was expected",
                "vector opened at line 1 column 47");
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read}\n]\n",
                "line 2 column 1", "unbalanced brackets: ']' closes nothing");
        assertRejected("h.edn", "[{:process 1, :type :invoke, :f :read}]]",
                "line 1 column 40", "unexpected text after the closing ']'");
    }

    @Test
    void ednUnterminatedString() throws IOException {
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read, :value \"abc}\n",
                "line 1 column 46", "the string is never closed");
    }

    @Test
    void ednWrongTypes() throws IOException {
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read}\n{:process 1, :type :bogus, :f :read}\n",
                "line 2: :type :bogus is not one of :invoke, :ok, :fail, :info");
        assertRejected("h.edn", "{:process \"one\", :type :invoke, :f :read}",
                "line 1: :process must be a number from 0 to 2147483647 or :nemesis, not \"one\"");
        assertRejected("h.edn", "\n\n{:process :client, :type :invoke, :f :read}",
                "line 3: :process must be a number", "not :client");
        assertRejected("h.edn", "{:process 1, :type :invoke, :f 12}", "line 1: :f must be a keyword, not 12");
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read, :time 1.5}",
                "line 1: :time must be a whole number of at least 0, not 1.5");
        assertRejected("h.edn", "{:process 99999999999999999999, :type :invoke, :f :read}",
                "line 1: :process must be a number", "not 99999999999999999999");
        assertRejected("h.edn", "[{:process 1, :type :invoke, :f :read} [:not :a :map]]",
                "line 1 column 40: expected an op map", "found a vector or list [:not :a :map]");
    }

    @Test
    void ednMissingFields() throws IOException {
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read}\n{:process 1, :f :read}\n",
                "line 2: the op has no :type");
        assertRejected("h.edn", "{:process 1, :type :invoke}\n", "line 1: the op has no :f");
        assertRejected("h.edn", "{:type :invoke :f :read}\n", "line 1: the op has no :process");
    }

    @Test
    void ednBadTokens() throws IOException {
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read, :value 12abc}", "line 1 column 46",
                "invalid number 12abc");
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read, :value \"a\\qb\"}", "line 1 column 48",
                "unknown escape \\q");
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read :f :write}", "line 1 column 1",
                "the map has the key :f twice");
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read, :value}", "line 1 column 1",
                "the map has a key with no value");
        assertRejected("h.edn", "{:process 1, :type :invoke, :f :read, :value #<Object>}", "line 1 column 46",
                "unsupported dispatch '#<'");
        assertRejected("h.edn", "[" + "[".repeat(1000) + "]".repeat(1000) + "]",
                "nested more than 256 levels deep");
    }

    @Test
    void pairingErrorsNameTheLines() throws IOException {
        assertRejected("h.edn", """
                [{:process 1, :type :invoke, :f :read, :value nil}
                 ; a comment line
                 {:process 1, :type :invoke, :f :write, :value 1}]
                """, "line 3: process 1 invokes write while its read invoked at", "h.edn line 1 is still outstanding");
        assertRejected("h.jsonl", """
                {"process":2,"type":"invoke","f":"read"}

                {"process":2,"type":"ok","f":"write","value":3}
                """, "line 3: process 2 completes write but invoked read at", "h.jsonl line 1");
        assertRejected("h.edn", "{:index 5, :process 1, :type :invoke, :f :read}\n"
                + "{:index 5, :process 1, :type :ok, :f :read}", "line 2: :index 5 is not greater than the previous"
                + " op's index 5", "h.edn line 1");
    }

    @Test
    void jsonLinesErrors() throws IOException {
        assertRejected("h.jsonl", "{\"process\":1,\"type\":\"invoke\",\"f\":\"read\"}\n{\"process\":1,\"type\":\"ok\",",
                "line 2 column 26", "the last line is cut off (no newline at the end of the file");
        assertRejected("h.jsonl", "{\"process\":1,\"type\":\"nope\",\"f\":\"read\"}\n",
                "line 1: \"type\" \"nope\" is not one of \"invoke\", \"ok\", \"fail\", \"info\"");
        assertRejected("h.jsonl", "{\"process\":true,\"type\":\"ok\",\"f\":\"read\"}\n",
                "line 1: \"process\" must be a number from 0 to 2147483647 or \"nemesis\", not true");
        assertRejected("h.jsonl", "{\"process\":1,\"type\":\"invoke\"}\n", "line 1: the op has no \"f\"");
        assertRejected("h.jsonl", "[1, 2]\n", "line 1: expected one JSON object per line, found [1,2]");
        assertRejected("h.jsonl", "{\"process\":1,\"type\":\"invoke\",\"f\":\"read\"} {}\n", "line 1 column",
                "Trailing token");
        assertRejected("h.jsonl", "{\"process\":1,\"type\":\"invoke\",\"f\":\"read\",\"time\":-5}\n",
                "line 1: \"time\" must be a whole number of at least 0, not -5");
    }

    @Test
    void notUtf8AndMissingFiles() throws IOException {
        Path p = dir.resolve("bin.edn");
        Files.write(p, new byte[] {'[', (byte) 0xff, (byte) 0xfe, ']'});
        assertThatThrownBy(() -> HistoryFiles.read(p)).isInstanceOf(MalformedHistoryException.class)
                .hasMessage(p + " line 1 column 2: not UTF-8 text");
        // The files are streamed, so the first defect in file order is the one reported, with its line.
        Path jsonl = dir.resolve("bin.jsonl");
        Files.write(jsonl, concat("{\"process\":0,\"type\":\"invoke\",\"f\":\"r\"}\n{\"",
                new byte[] {(byte) 0xc3, (byte) 0x28}, "\":1}\n"));
        assertThatThrownBy(() -> HistoryFiles.read(jsonl)).isInstanceOf(MalformedHistoryException.class)
                .hasMessage(jsonl + " line 2 column 3: not UTF-8 text");
        // A multi-byte character counts as one column, and one cut in the middle is not UTF-8 either.
        Path edn = dir.resolve("cut.edn");
        Files.write(edn, concat("{:process 0, :type :invoke, :f :r, :value \"\u00e9\u00e9\"} \"",
                new byte[] {(byte) 0xe2, (byte) 0x82}, "\""));
        assertThatThrownBy(() -> HistoryFiles.read(edn)).isInstanceOf(MalformedHistoryException.class)
                .hasMessage(edn + " line 1 column 50: not UTF-8 text");
        Path missing = dir.resolve("nope.jsonl");
        assertThatThrownBy(() -> HistoryFiles.read(missing)).isInstanceOf(MalformedHistoryException.class)
                .hasMessage(missing + ": no such file");
    }

    private static byte[] concat(String before, byte[] middle, String after) {
        byte[] a = before.getBytes(StandardCharsets.UTF_8);
        byte[] c = after.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[a.length + middle.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(middle, 0, out, a.length, middle.length);
        System.arraycopy(c, 0, out, a.length + middle.length, c.length);
        return out;
    }

    @Test
    void aCutOffLastLineCanBeToleratedWithAWarning() throws IOException {
        Path p = file("h.jsonl", "{\"process\":1,\"type\":\"invoke\",\"f\":\"read\"}\n{\"process\":1,\"ty");
        List<String> warnings = new ArrayList<>();
        History h = HistoryFiles.read(p, ReadOptions.tolerateTruncatedTail(warnings::add));
        assertThat(h.size()).isEqualTo(1);
        assertThat(h.operations().get(0).isInfo()).isTrue();
        assertThat(warnings).containsExactly(p + " line 2: ignored: the last line is cut off (no newline at the end"
                + " of the file; was the writer killed mid-line?)");
        // A complete last line without a newline is just a file saved without one.
        Path q = file("q.jsonl", "{\"process\":1,\"type\":\"invoke\",\"f\":\"read\"}");
        assertThat(HistoryFiles.read(q).size()).isEqualTo(1);
    }

    @Test
    void sniffsTheFormatOfFilesWithOtherNames() throws IOException {
        Path edn = file("history", "; comment\n{:process 0 :type :invoke :f :read}");
        Path json = file("history.log", "{\"process\":0,\"type\":\"invoke\",\"f\":\"read\"}\n");
        Path ednMap = file("h.dat", "  {:process 0 :type :invoke :f :read}");
        assertThat(HistoryFiles.read(edn).ops()).hasSize(1);
        assertThat(HistoryFiles.read(json).ops()).hasSize(1);
        assertThat(HistoryFiles.read(ednMap).ops()).hasSize(1);
        assertThat(HistoryFiles.read(file("empty.edn", " \n")).size()).isZero();
        // A byte-order mark is not content.
        assertThat(HistoryFiles.read(file("bom.edn", "\uFEFF{:process 0 :type :invoke :f :read}")).size()).isOne();
        assertThat(HistoryFiles.read(file("bom.jsonl", "\uFEFF{\"process\":0,\"type\":\"invoke\",\"f\":\"r\"}\n"))
                .size()).isOne();
        assertThat(HistoryFiles.read(file("bom", "\uFEFF{:process 0 :type :invoke :f :read}")).size()).isOne();
    }

    @Test
    void readsTheWholeEdnSyntaxJepsenUses() throws IOException {
        Path p = file("h.edn", """
                ; comments, commas, discards, sets, chars, big and small numbers, tags
                ({:process 0, :type :invoke, :f :write, :value {:a [1 2N 3.5 -4e2 5.25M], :b #{:x}}, #_ #_ :ignored 1}
                 {:process 0 :type :ok :f :write :value (\\c \\newline "t\\"ab\\u0041\\n") :time 10}
                 {:process 1, :type :invoke, :f :read, :value 123456789012345678901234567890N}
                 {:process 1, :type :info, :f :read, :value #inst "2020-01-01T00:00:00Z", :error :timeout}
                 {:process :nemesis, :type :info, :f :start, :value [true false nil ##Inf], :error "a\\\\b"})
                """);
        History h = HistoryFiles.read(p);
        assertThat(h.ops()).hasSize(5);
        assertThat(h.ops().get(0).value()).isEqualTo(Map.of("a", List.of(1L, 2L, 3.5, -400.0, 5.25),
                "b", List.of("x")));
        assertThat(h.ops().get(1).value()).isEqualTo(List.of("c", "\n", "t\"abA\n"));
        assertThat(h.ops().get(1).time()).isEqualTo(10);
        assertThat(h.ops().get(2).value()).isEqualTo(new java.math.BigInteger("123456789012345678901234567890"));
        assertThat(h.ops().get(3).value()).isEqualTo("2020-01-01T00:00:00Z");
        assertThat(h.ops().get(3).error()).isEqualTo("timeout");
        assertThat(h.ops().get(4)).isEqualTo(new Op(4, Op.NEMESIS, OpType.INFO, "start", null,
                java.util.Arrays.asList(true, false, null, Double.POSITIVE_INFINITY), "a\\b", -1));

        // ... and writes it back so that it reads the same, in both formats.
        for (String name : List.of("back.edn", "back.jsonl")) {
            Path back = dir.resolve(name);
            HistoryFiles.write(back, h);
            assertThat(HistoryFiles.read(back).ops()).as(name).isEqualTo(h.ops());
        }
        assertThat(Files.readString(dir.resolve("back.edn"), StandardCharsets.UTF_8).lines().findFirst().orElseThrow())
                .isEqualTo("{:index 0, :process 0, :type :invoke, :f :write, :value {\"a\" [1 2 3.5 -400.0 5.25],"
                        + " \"b\" [\"x\"]}}");
    }

    @Test
    void ednLiteralsForTheCommandLine() {
        assertThat(Edn.parse("0", "--init")).isEqualTo(0L);
        assertThat(Edn.parse("nil", "--init")).isNull();
        assertThat(Edn.parse("{:x 0 :y 0}", "--init")).isEqualTo(Map.of("x", 0L, "y", 0L));
        assertThat(Edn.parse(" \"\" ", "--init")).isEqualTo("");
        assertThatThrownBy(() -> Edn.parse("{:x 0", "--init")).isInstanceOf(MalformedHistoryException.class)
                .hasMessageStartingWith("--init line 1 column 6: unexpected end of file: the map opened at line 1"
                        + " column 1 is never closed");
        assertThatThrownBy(() -> Edn.parse("1 2", "--init")).hasMessage("--init line 1 column 3: unexpected text"
                + " after the value");
        assertThatThrownBy(() -> Edn.parse("", "--init")).hasMessage("--init line 1 column 1: no value (the text"
                + " is empty)");
    }
}
