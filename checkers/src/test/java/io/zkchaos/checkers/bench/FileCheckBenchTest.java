package io.zkchaos.checkers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file benchmark on a small generated history: both formats hold the same history, and child JVMs report. */
class FileCheckBenchTest {

    @TempDir
    Path dir;

    @Test
    void writesTheHistoryInBothFormatsAndChecksAFileInAChildJvm() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<Path> files = FileCheckBench.writeFiles(out, dir, 20_000, 3);
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactlyElementsOf(FileCheckBench.FILES);

        History jsonl = HistoryFiles.read(dir.resolve("generated-kv.jsonl"));
        History edn = HistoryFiles.read(dir.resolve("generated-kv.edn"));
        assertThat(edn.ops()).isEqualTo(jsonl.ops());
        assertThat(jsonl.operationCount()).isEqualTo(20_000);
        assertThat(jsonl.ops()).allSatisfy(op -> assertThat(op.time()).isEqualTo(-1));
        assertThat(Files.readString(dir.resolve("generated-kv.edn")).lines().findFirst().orElseThrow())
                .startsWith("{:process ").doesNotContain(":index");

        FileCheckBench.Sample sample = FileCheckBench.checkOnce(dir.resolve("generated-kv-stale.edn"), 2);
        assertThat(sample.verdict()).isEqualTo("INVALID");
        assertThat(sample.operations()).isEqualTo(20_000);
        assertThat(sample.historyBytes()).isPositive();
        assertThat(FileCheckBench.Sample.parse(sample.line())).isEqualTo(sample);

        // one child JVM (they are slow to start on a loaded machine): the protocol and the table
        List<FileCheckBench.Row> rows = FileCheckBench.run(out, dir, List.of("generated-kv-stale.jsonl"), 1, 2);
        assertThat(rows).singleElement().satisfies(r -> {
            assertThat(r.samples().get(0).verdict()).isEqualTo("INVALID");
            assertThat(r.samples().get(0).operations()).isEqualTo(20_000);
        });
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("load average before", "peak RSS",
                "generated-kv-stale.jsonl");
    }
}
