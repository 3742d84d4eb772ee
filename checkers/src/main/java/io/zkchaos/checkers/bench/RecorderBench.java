package io.zkchaos.checkers.bench;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.JsonLinesRecorder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Measures the history recorder: how many entries per second {@link JsonLinesRecorder} takes from several threads
 * recording register-style invoke/complete pairs (each entry one {@code write}, nothing buffered in the JVM), and how
 * fast {@link HistoryFiles#read} reads the file back. Prints figures, asserts nothing: the figures depend on the
 * machine and its load.
 *
 * <pre>
 * ./zkchaos bench recorder [--threads 4] [--pairs 50000]
 * </pre>
 */
public final class RecorderBench {

    /**
     * One measurement.
     *
     * @param entries         entries recorded (two per pair)
     * @param threads         recording threads
     * @param seconds         wall time of the recording
     * @param bytes           size of the history file
     * @param readSeconds     wall time of reading it back
     * @param readCpuSeconds  CPU time of the reading thread
     * @param readEntries     entries read back
     * @param readOperations  operations read back (complete pairs)
     */
    public record Measurement(long entries, int threads, double seconds, long bytes, double readSeconds,
                              double readCpuSeconds, long readEntries, long readOperations) {

        public double entriesPerSecond() {
            return entries / seconds;
        }
    }

    private RecorderBench() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.parse(args, "--threads", "--pairs");
        int threads = o.intValue("--threads", 4);
        int pairs = o.intValue("--pairs", 50_000);
        run(System.out, threads, pairs);
    }

    /**
     * Records {@code pairsPerThread} invoke/complete pairs from each of {@code threads} threads into a temporary file
     * (after a warm-up of a fifth of that), reads it back, prints two lines to {@code out} and deletes the file.
     */
    public static Measurement run(PrintStream out, int threads, int pairsPerThread) throws InterruptedException {
        if (threads < 1 || pairsPerThread < 1) {
            throw new IllegalArgumentException("need at least 1 thread and 1 pair, got " + threads + " and "
                    + pairsPerThread);
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("zkchaos-recorder-bench");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory", e);
        }
        try {
            record(dir.resolve("warmup.jsonl"), threads, Math.max(1, pairsPerThread / 5)); // JIT warm-up
            Path file = dir.resolve("history.jsonl");
            long start = System.nanoTime();
            record(file, threads, pairsPerThread);
            double seconds = (System.nanoTime() - start) / 1e9;
            long entries = 2L * threads * pairsPerThread;
            long bytes = Files.size(file);
            out.printf(Locale.ROOT, "JsonLinesRecorder: %d entries from %d threads in %.2f s = %,.0f entries/s "
                    + "(%.1f MB)%n", entries, threads, seconds, entries / seconds, bytes / 1e6);

            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            long readStart = System.nanoTime();
            long readCpuStart = cpu.getCurrentThreadCpuTime();
            History history = HistoryFiles.read(file);
            double readSeconds = (System.nanoTime() - readStart) / 1e9;
            double readCpuSeconds = (cpu.getCurrentThreadCpuTime() - readCpuStart) / 1e9;
            out.printf(Locale.ROOT, "HistoryFiles.read: %d entries in %.2f s (%.2f s CPU) = %,.0f entries/s%n",
                    history.size(), readSeconds, readCpuSeconds, history.size() / readSeconds);
            return new Measurement(entries, threads, seconds, bytes, readSeconds, readCpuSeconds, history.size(),
                    history.operations().size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteRecursively(dir);
        }
    }

    private static void record(Path file, int threads, int pairsPerThread) throws InterruptedException {
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
                }, "recorder-bench-" + t);
                w.start();
                workers.add(w);
            }
            for (Thread w : workers) {
                w.join();
            }
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
