package io.zkchaos.checkers.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzzing of both readers: truncations, byte flips, deletions, duplications and junk over real histories, and
 * random syntax soup. The only acceptable outcomes are a history or a {@link MalformedHistoryException} with a
 * message that names the file; never a NullPointerException, ClassCastException, StackOverflowError, ...
 */
class CodecFuzzTest {

    private static final long SEED = 20261129L;
    private static final int ROUNDS = 3000;
    private static final byte[] SYNTAX = "[](){}\"\\:;#_,. \n\t0123456789-+eENMabcnil{:}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void readersOnlyEverFailWithMalformedHistory() throws IOException {
        List<byte[]> seeds = new ArrayList<>();
        for (String name : List.of("knossos/cas-register/bad/immediate-failure.edn",
                "knossos/cas-register/bad/bad-analysis.edn", "knossos/cas-register/bad/rethink-fail-minimal.edn",
                "knossos/cas-register/good/cas-register-bug.edn", "porcupine-kv/c01-bad.txt")) {
            byte[] edn = Files.readAllBytes(SharedData.file(name));
            seeds.add(edn);
            History h = HistoryFiles.read(SharedData.file(name));
            seeds.add(HistoryFiles.toText(h, HistoryFiles.Format.JSON_LINES).getBytes(StandardCharsets.UTF_8));
        }
        // A value-rich history in both formats, so strings, escapes and nesting get mutated too.
        byte[] rich = ("({:process 0, :type :invoke, :f :w, :value {:a [1 2N 3.5 \"x\\\"y\\u0041\"] :b #{:k}},"
                + " :error [:e nil], :time 5, :key \"k\"} {:process :nemesis :type :info :f :start :value ##Inf})")
                .getBytes(StandardCharsets.UTF_8);
        seeds.add(rich);
        seeds.add(HistoryFiles.toText(HistoryFiles.read(write("rich.edn", rich)), HistoryFiles.Format.JSON_LINES)
                .getBytes(StandardCharsets.UTF_8));

        Random random = new Random(SEED);
        int parsed = 0;
        int rejected = 0;
        String[] names = {"f.edn", "f.jsonl", "f.txt", "f.json", "f"};
        for (int round = 0; round < ROUNDS; round++) {
            byte[] input = round % 10 == 9 ? soup(random) : mutate(seeds.get(random.nextInt(seeds.size())), random);
            // Most rounds go straight to a codec; every 8th goes through a file (UTF-8 checks, sniffing).
            String name = names[random.nextInt(names.length)];
            Path file = round % 8 == 0 ? write(name, input) : null;
            String source = file != null ? file.toString() : name;
            try {
                History h;
                if (file != null) {
                    h = HistoryFiles.read(file);
                } else if (name.endsWith(".edn") || name.endsWith(".txt")) {
                    h = EdnHistoryCodec.read(new String(input, StandardCharsets.UTF_8), source);
                } else {
                    h = JsonLinesCodec.read(new java.io.StringReader(new String(input, StandardCharsets.UTF_8)),
                            source, ReadOptions.STRICT);
                }
                assertThat(h.ops()).isNotNull();
                parsed++;
            } catch (MalformedHistoryException e) {
                if (!e.getMessage().startsWith(source) || e.getMessage().contains("null:")) {
                    throw new AssertionError("round " + round + ": message does not name " + source + ": "
                            + e.getMessage());
                }
                rejected++;
            } catch (Throwable t) {
                throw new AssertionError("round " + round + " (seed " + SEED + ") on " + name + " threw "
                        + t + " for input:\n" + new String(input, StandardCharsets.UTF_8), t);
            }
        }
        // Both outcomes must really happen, or the fuzzer is not exercising the readers.
        assertThat(parsed).isGreaterThan(ROUNDS / 50);
        assertThat(rejected).isGreaterThan(ROUNDS / 2);
    }

    private Path write(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        return p;
    }

    private static byte[] mutate(byte[] original, Random random) {
        byte[] b = original.clone();
        int kind = random.nextInt(5);
        switch (kind) {
            case 0 -> { // truncation
                return java.util.Arrays.copyOf(b, random.nextInt(b.length + 1));
            }
            case 1 -> { // byte flips, any byte value
                for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                    b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                }
                return b;
            }
            case 2 -> { // syntax characters where they do not belong
                for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                    b[random.nextInt(b.length)] = SYNTAX[random.nextInt(SYNTAX.length)];
                }
                return b;
            }
            case 3 -> { // delete a range
                int from = random.nextInt(b.length);
                int to = Math.min(b.length, from + 1 + random.nextInt(40));
                byte[] out = new byte[b.length - (to - from)];
                System.arraycopy(b, 0, out, 0, from);
                System.arraycopy(b, to, out, from, b.length - to);
                return out;
            }
            default -> { // insert junk
                int at = random.nextInt(b.length + 1);
                byte[] junk = soup(random);
                byte[] out = new byte[b.length + junk.length];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(junk, 0, out, at, junk.length);
                System.arraycopy(b, at, out, at + junk.length, b.length - at);
                return out;
            }
        }
    }

    /** Random syntax: sometimes deeply nested, sometimes arbitrary bytes. */
    private static byte[] soup(Random random) {
        int kind = random.nextInt(3);
        if (kind == 0) {
            int depth = random.nextInt(2000);
            String open = random.nextBoolean() ? "[" : "{\"a\":";
            return (open.repeat(depth) + "1").getBytes(StandardCharsets.UTF_8);
        }
        byte[] out = new byte[1 + random.nextInt(64)];
        for (int i = 0; i < out.length; i++) {
            out[i] = kind == 1 ? SYNTAX[random.nextInt(SYNTAX.length)] : (byte) random.nextInt(256);
        }
        return out;
    }
}
