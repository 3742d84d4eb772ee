package io.zkchaos.checkers.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures how many entries per second {@link JsonLinesRecorder} takes from 4 threads recording register-style ops,
 * and prints the figure. The assertion is a floor far below the 100,000/s target so that a loaded machine does not
 * fail the build; the printed number is the measurement.
 */
class JsonLinesRecorderThroughputTest {

    @TempDir
    Path dir;

    @Test
    void recordsWellOverTenThousandEntriesPerSecond() throws Exception {
        int threads = 4;
        int pairsPerThread = 50_000;
        runOnce(dir.resolve("warmup.jsonl"), threads, 10_000); // JIT warm-up
        Path file = dir.resolve("history.jsonl");
        long start = System.nanoTime();
        runOnce(file, threads, pairsPerThread);
        double seconds = (System.nanoTime() - start) / 1e9;
        long entries = 2L * threads * pairsPerThread;
        double perSecond = entries / seconds;
        System.out.printf("JsonLinesRecorder: %d entries from %d threads in %.2f s = %,.0f entries/s (%.1f MB)%n",
                entries, threads, seconds, perSecond, Files.size(file) / 1e6);
        // Reading it back is part of every check: measure that too.
        var cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long readStart = System.nanoTime();
        long readCpuStart = cpu.getCurrentThreadCpuTime();
        io.zkchaos.checkers.history.History history = HistoryFiles.read(file);
        double readSeconds = (System.nanoTime() - readStart) / 1e9;
        double readCpuSeconds = (cpu.getCurrentThreadCpuTime() - readCpuStart) / 1e9;
        System.out.printf("HistoryFiles.read: %d entries in %.2f s (%.2f s CPU) = %,.0f entries/s%n",
                history.size(), readSeconds, readCpuSeconds, history.size() / readSeconds);
        assertThat(history.size()).isEqualTo(entries);
        assertThat(history.operations()).hasSize(threads * pairsPerThread).noneMatch(op -> op.isInfo());
        assertThat(perSecond).isGreaterThan(10_000);
    }

    private static void runOnce(Path file, int threads, int pairsPerThread) throws InterruptedException {
        try (JsonLinesRecorder recorder = JsonLinesRecorder.create(file)) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int process = t;
                Thread w = new Thread(() -> {
                    for (long i = 0; i < pairsPerThread; i++) {
                        Op invoke = recorder.invoke(process, i % 2 == 0 ? "write" : "read", "r" + (i % 5),
                                i % 2 == 0 ? (Object) i : null);
                        recorder.complete(invoke, OpType.OK, i, null);
                    }
                });
                w.start();
                workers.add(w);
            }
            for (Thread w : workers) {
                w.join();
            }
        }
    }
}
