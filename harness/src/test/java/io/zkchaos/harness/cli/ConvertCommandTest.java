package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.codec.HistoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConvertCommandTest {

    @TempDir
    Path dir;

    @Test
    void convertsEdnToJsonLinesAndBackAndTheResultChecksTheSame() throws IOException {
        String edn = CheckCommandTest.data("knossos/cas-register/bad/rethink-fail-minimal.edn");
        String jsonl = dir.resolve("h.jsonl").toString();
        CheckCommandTest.Run r = CheckCommandTest.run("convert", edn, jsonl);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(edn + " -> " + jsonl + ": 8 ops as JSON Lines" + System.lineSeparator());
        assertThat(Files.readAllLines(Path.of(jsonl)).get(0))
                .isEqualTo("{\"index\":0,\"process\":0,\"type\":\"invoke\",\"f\":\"write\",\"value\":0}");
        assertThat(CheckCommandTest.run("check", "--model", "cas-register", jsonl).exit()).isEqualTo(1);

        String back = dir.resolve("back.edn").toString();
        assertThat(CheckCommandTest.run("convert", jsonl, back).exit()).isZero();
        assertThat(HistoryFiles.read(Path.of(back)).ops()).isEqualTo(HistoryFiles.read(Path.of(edn)).ops());
    }

    @Test
    void neverOverwritesWithoutForceAndReportsBadInput() throws IOException {
        Path out = dir.resolve("out.edn");
        Files.writeString(out, "keep");
        String in = CheckCommandTest.data("porcupine-kv/c01-ok.txt");
        CheckCommandTest.Run r = CheckCommandTest.run("convert", in, out.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: " + out + " exists; use --force");
        assertThat(Files.readString(out)).isEqualTo("keep");
        assertThat(CheckCommandTest.run("convert", "--force", in, out.toString()).exit()).isZero();

        Path bad = dir.resolve("bad.edn");
        Files.writeString(bad, "[{:process 0 :type :invoke :f :read}");
        CheckCommandTest.Run broken = CheckCommandTest.run("convert", bad.toString(), dir.resolve("x.jsonl").toString());
        assertThat(broken.exit()).isEqualTo(2);
        assertThat(broken.err()).startsWith("error: " + bad + " line 1 column 37: unexpected end of file");
        assertThat(dir.resolve("x.jsonl")).doesNotExist();
    }
}
