package io.zkchaos.checkers.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesRecorderTest {

    @TempDir
    Path dir;

    @Test
    void recordsFromManyThreadsWithoutLosingOrTearingAnEntry() throws Exception {
        Path file = dir.resolve("history.jsonl");
        int threads = 8;
        int perThread = 2_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        try (JsonLinesRecorder recorder = JsonLinesRecorder.create(file)) {
            for (int t = 0; t < threads; t++) {
                int process = t;
                Thread w = new Thread(() -> {
                    try {
                        start.await();
                        for (long i = 0; i < perThread; i++) {
                            Op invoke = recorder.invoke(process, "cas", "k" + process, List.of(i, i + 1));
                            recorder.complete(invoke, i % 3 == 0 ? OpType.FAIL : OpType.OK, List.of(i, i + 1),
                                    i % 3 == 0 ? "precondition \"failed\"\n" : null);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
                w.start();
                workers.add(w);
            }
            recorder.nemesis(OpType.INVOKE, "partition", Map.of("cut", List.of("n1", "n2")));
            start.countDown();
            for (Thread w : workers) {
                w.join(60_000);
                assertThat(w.isAlive()).as("worker finished within 60 s").isFalse();
            }
            recorder.nemesis(OpType.INFO, "partition", null);
            assertThat(recorder.size()).isEqualTo(2L * threads * perThread + 2);
        }
        assertThat(errors).isEmpty();

        History history = HistoryFiles.read(file);
        assertThat(history.size()).isEqualTo(2 * threads * perThread + 2);
        for (int i = 0; i < history.size(); i++) {
            assertThat(history.ops().get(i).index()).isEqualTo(i);
        }
        assertThat(history.nemesisOps()).hasSize(2);
        assertThat(history.nemesisOps().get(0).value()).isEqualTo(Map.of("cut", List.of("n1", "n2")));
        assertThat(history.operations()).hasSize(threads * perThread).allSatisfy(op -> {
            assertThat(op.isInfo()).isFalse();
            assertThat(op.invokeTime()).isLessThanOrEqualTo(op.completeTime());
            assertThat(op.key()).isEqualTo("k" + op.process());
        });
        // Each process's own operations are in its program order.
        for (int p = 0; p < threads; p++) {
            int process = p;
            List<Object> inputs = history.operations().stream().filter(o -> o.process() == process)
                    .map(Operation::input).toList();
            for (int i = 0; i < perThread; i++) {
                assertThat(inputs.get(i)).isEqualTo(List.of((long) i, (long) i + 1));
            }
        }
        Operation failed = history.operations().stream().filter(Operation::isFail).findFirst().orElseThrow();
        assertThat(failed.error()).isEqualTo("precondition \"failed\"\n");
    }

    /**
     * A SIGKILL can cut the line being written: Linux checks for a fatal signal between the pages of a
     * {@code write(2)}, so a line that crosses a page boundary can be left half written (with these 3 KB lines, about
     * one kill in four does it on this machine). What a killed recorder guarantees is that every other line is
     * whole: the last line, if cut, is the only damage, the strict reader names it, and the tolerant reader drops it
     * and reads everything else.
     */
    @Test
    void aKilledRecorderLeavesWholeLinesAndAtMostTheLastOneCut() throws Exception {
        Path file = dir.resolve("killed.jsonl");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), RecorderVictim.class.getName(), file.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("victim.log").toFile())
                .start();
        try {
            // Wait until it has written a good amount (or died), then kill it mid-flight with SIGKILL. It writes for
            // 60 s; 2 MB take well under a second on a quiet machine.
            await("the victim writes 2 MB, or dies").atMost(Duration.ofSeconds(50))
                    .until(() -> size(file) >= 2_000_000 || !child.isAlive());
            assertThat(child.isAlive()).as("victim still running (log: %s)", dir.resolve("victim.log")).isTrue();
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        byte[] bytes = Files.readAllBytes(file);
        long wholeLines = 0;
        for (byte b : bytes) {
            if (b == '\n') {
                wholeLines++;
            }
        }
        List<String> warnings = new ArrayList<>();
        History history = HistoryFiles.read(file, ReadOptions.tolerateTruncatedTail(warnings::add));
        if (warnings.isEmpty()) {
            // Nothing cut (or cut just before the newline, leaving a whole entry): the strict reader agrees.
            assertThat((long) history.size()).isBetween(wholeLines, wholeLines + 1);
            assertThat(HistoryFiles.read(file).size()).isEqualTo(history.size());
        } else {
            assertThat(bytes[bytes.length - 1]).as("a cut line is the last one").isNotEqualTo((byte) '\n');
            assertThat(warnings).singleElement().asString().contains("line " + (wholeLines + 1) + ": ignored")
                    .contains("the last line is cut off");
            assertThat((long) history.size()).as("every whole line read").isEqualTo(wholeLines);
            assertThatThrownBy(() -> HistoryFiles.read(file)).isInstanceOf(MalformedHistoryException.class)
                    .hasMessageContaining("line " + (wholeLines + 1)).hasMessageContaining("the last line is cut off");
        }
        assertThat(history.size()).isGreaterThan(500);
        // Every client op is complete except at most one outstanding invoke per thread.
        assertThat(history.operations().stream().filter(Operation::isInfo).count()).isLessThanOrEqualTo(4);
    }

    @Test
    void refusesToOverwriteAHistoryAndToRecordAfterClose() throws IOException {
        Path file = dir.resolve("h.jsonl");
        Files.writeString(file, "precious\n");
        assertThatThrownBy(() -> JsonLinesRecorder.create(file)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot create history file " + file);
        assertThat(Files.readString(file)).isEqualTo("precious\n");

        Path other = dir.resolve("other.jsonl");
        JsonLinesRecorder recorder = JsonLinesRecorder.create(other);
        Op invoke = recorder.invoke(0, "read", null, null);
        assertThatThrownBy(() -> recorder.complete(invoke, OpType.INVOKE, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        recorder.close();
        assertThatThrownBy(() -> recorder.invoke(0, "read", null, null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(HistoryFiles.read(other).size()).isEqualTo(1);
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }
}
