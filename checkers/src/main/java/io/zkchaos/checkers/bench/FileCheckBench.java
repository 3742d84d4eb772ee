package io.zkchaos.checkers.bench;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.codec.EdnHistoryCodec;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.model.Models;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a user waits for: the benchmark history read from disk and checked, in a fresh JVM each time, with the time
 * to read the file and the time to check it apart, and the peak heap and resident memory of the whole process.
 *
 * <p>{@link #writeFiles} writes the generated benchmark history ({@link HistoryGenerator.Spec#benchmark}: kv, 1,000
 * keys, 50 processes, 1% info), valid and with one planted stale read, as JSON Lines (what the recorder writes, with
 * {@code index}) and as Jepsen EDN (one map per line, Knossos's and Porcupine's layout, without {@code :index}).
 * The generator's clock is made up, so no {@code time} is written. {@link #run} then checks each file in child JVMs
 * started with this JVM's options (so {@code -Xmx2g} carries over), interleaving the files so that a change in the
 * machine's load does not fall on one file only.
 */
public final class FileCheckBench {

    /** The files {@link #writeFiles} writes, in the order {@link #run} checks them. */
    public static final List<String> FILES = List.of("generated-kv.jsonl", "generated-kv.edn",
            "generated-kv-stale.jsonl", "generated-kv-stale.edn");

    private static final String SAMPLE = "sample";

    private FileCheckBench() {
    }

    /** Writes {@link #FILES} under {@code dir} (created if needed, files replaced) and prints their sizes. */
    public static List<Path> writeFiles(PrintStream out, Path dir, int operations, long seed) {
        HistoryGenerator.Spec spec = new HistoryGenerator.Spec(HistoryGenerator.Workload.KV, 1000, 50, operations,
                0.01, seed);
        List<Op> ops = withoutTimes(HistoryGenerator.generate(spec));
        List<Op> stale = HistoryGenerator.plantStaleRead(ops);
        List<Path> files = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (String name : FILES) {
                Path file = dir.resolve(name);
                List<Op> content = name.contains("-stale") ? stale : ops;
                if (name.endsWith(".edn")) {
                    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                        EdnHistoryCodec.write(w, content, false);
                    }
                } else {
                    HistoryFiles.write(file, History.of(content));
                }
                out.printf(Locale.ROOT, "wrote %s: %,d entries, %.1f MiB%n", file, content.size(),
                        Files.size(file) / 1048576.0);
                files.add(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the benchmark files under " + dir + ": " + e, e);
        }
        out.printf(Locale.ROOT, "# %s%n", spec);
        return files;
    }

    private static List<Op> withoutTimes(List<Op> ops) {
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            out.add(new Op(op.index(), op.process(), op.type(), op.f(), op.key(), op.value(), op.error(), -1));
        }
        return out;
    }

    /**
     * One check of a file in one JVM.
     *
     * @param readMillis    reading and validating the file into a {@link History}
     * @param checkMillis   the linearizability check (kv model)
     * @param readCpuMillis the process's CPU time while reading (every thread: JIT and GC too; -1 if unknown)
     * @param checkCpuMillis the process's CPU time while checking
     * @param historyBytes  the history's own estimate of its heap ({@link History#heapBytes()})
     * @param peakHeapBytes the heap pools' peak use over the process's life
     * @param peakRssBytes  the process's peak resident set (Linux's VmHWM; -1 elsewhere)
     */
    public record Sample(long readMillis, long checkMillis, long readCpuMillis, long checkCpuMillis, String verdict,
                         int operations, long historyBytes, long peakHeapBytes, long peakRssBytes) {

        String line() {
            return String.join(" ", SAMPLE, Long.toString(readMillis), Long.toString(checkMillis),
                    Long.toString(readCpuMillis), Long.toString(checkCpuMillis), verdict, Integer.toString(operations),
                    Long.toString(historyBytes), Long.toString(peakHeapBytes), Long.toString(peakRssBytes));
        }

        static Sample parse(String line) {
            String[] f = line.trim().split(" ");
            if (f.length != 10 || !f[0].equals(SAMPLE)) {
                throw new IllegalArgumentException("not a sample line: " + line);
            }
            return new Sample(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                    f[5], Integer.parseInt(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]));
        }
    }

    /** Reads and checks {@code file} (kv model) in this JVM; what a child prints. */
    public static Sample checkOnce(Path file, int parallelism) {
        long c0 = CheckerBench.processCpuNanos();
        long t0 = System.nanoTime();
        History history = HistoryFiles.read(file);
        long t1 = System.nanoTime();
        long c1 = CheckerBench.processCpuNanos();
        CheckResult result = LinearizabilityChecker.builder(Models.byName("kv", null)).parallelism(parallelism)
                .build().check(history);
        long t2 = System.nanoTime();
        long c2 = CheckerBench.processCpuNanos();
        long peakHeap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peakHeap += pool.getPeakUsage().getUsed();
            }
        }
        return new Sample((t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, c0 < 0 ? -1 : (c1 - c0) / 1_000_000,
                c0 < 0 ? -1 : (c2 - c1) / 1_000_000, result.validity().name(), history.operationCount(),
                history.heapBytes(), peakHeap, peakRss());
    }

    /** The child's side of {@link #run}: one check, one sample line on standard output. */
    static void child(Path file, int parallelism) {
        System.out.println(checkOnce(file, parallelism).line());
    }

    /** Linux's record of this process's peak resident set, or -1. */
    static long peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no figure
        }
        return -1;
    }

    /** One file's figures over its runs. */
    public record Row(String file, long bytes, List<Long> wallMillis, List<Sample> samples) {

        static final String HEADER = String.format(Locale.ROOT,
                "%-26s %6s %4s %-8s %18s %16s %16s %9s %9s %8s %9s %9s", "file", "MiB", "runs", "verdict",
                "wall s (min-max)", "read s", "check s", "read cpu", "check cpu", "history", "peak heap", "peak RSS");

        String line() {
            return String.format(Locale.ROOT, "%-26s %6.1f %4d %-8s %18s %16s %16s %9s %9s %8s %9s %9s", file,
                    bytes / 1048576.0, samples.size(), samples.get(0).verdict(), seconds(wallMillis),
                    seconds(samples.stream().map(Sample::readMillis).toList()),
                    seconds(samples.stream().map(Sample::checkMillis).toList()),
                    String.format(Locale.ROOT, "%.2f", Stats.median(samples.stream().map(Sample::readCpuMillis).toList())
                            / 1000.0),
                    String.format(Locale.ROOT, "%.2f", Stats.median(samples.stream().map(Sample::checkCpuMillis).toList())
                            / 1000.0),
                    mib(samples.get(0).historyBytes()), mib(Stats.median(samples.stream().map(Sample::peakHeapBytes)
                            .toList())), mib(Stats.median(samples.stream().map(Sample::peakRssBytes).toList())));
        }

        private static String seconds(List<Long> millis) {
            long[] m = millis.stream().mapToLong(Long::longValue).sorted().toArray();
            return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", Stats.median(millis) / 1000.0, m[0] / 1000.0,
                    m[m.length - 1] / 1000.0);
        }

        private static String mib(long bytes) {
            return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
        }
    }

    /**
     * Checks every file of {@link #FILES} under {@code dir} {@code runs} times, each in a fresh child JVM, and prints
     * each sample as it comes and then one line per file: the child's wall time (the JVM's start and exit included),
     * the read and check times (median, min-max), the CPU time of each (the whole process's: JIT and GC included;
     * the figure least disturbed by a loaded machine), the history's heap, and the medians of peak heap and peak RSS.
     */
    public static List<Row> run(PrintStream out, Path dir, int runs, int parallelism) {
        return run(out, dir, FILES, runs, parallelism);
    }

    /** {@link #run(PrintStream, Path, int, int)} for some of {@link #FILES} only. */
    static List<Row> run(PrintStream out, Path dir, List<String> names, int runs, int parallelism) {
        List<Path> files = names.stream().map(dir::resolve).toList();
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                throw new IllegalArgumentException(f + " is missing: write the files first with --write-files "
                        + dir);
            }
        }
        out.printf(Locale.ROOT, "java %s, %d available processors, child JVM options %s, parallelism %d%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), jvmOptions(),
                parallelism);
        out.println("# load average before: " + loadAverage());
        List<List<Long>> walls = new ArrayList<>();
        List<List<Sample>> samples = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            walls.add(new ArrayList<>());
            samples.add(new ArrayList<>());
        }
        for (int run = 1; run <= runs; run++) {
            for (int i = 0; i < files.size(); i++) {
                long t0 = System.nanoTime();
                Sample s = inChild(files.get(i), parallelism);
                long wall = (System.nanoTime() - t0) / 1_000_000;
                walls.get(i).add(wall);
                samples.get(i).add(s);
                out.printf(Locale.ROOT, "# run %d %-26s wall %5d ms, read %5d ms (cpu %5d), check %5d ms (cpu %5d),"
                        + " %s, peak RSS %s%n", run, names.get(i), wall, s.readMillis(), s.readCpuMillis(),
                        s.checkMillis(), s.checkCpuMillis(), s.verdict(),
                        s.peakRssBytes() < 0 ? "n/a" : (s.peakRssBytes() >> 20) + " MiB");
            }
        }
        out.println("# load average after: " + loadAverage());
        out.println(Row.HEADER);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            long bytes;
            try {
                bytes = Files.size(files.get(i));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Row row = new Row(names.get(i), bytes, walls.get(i), samples.get(i));
            out.println(row.line());
            rows.add(row);
        }
        return rows;
    }

    private static Sample inChild(Path file, int parallelism) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions());
        command.addAll(Arrays.asList("-cp", System.getProperty("java.class.path"), CheckerBench.class.getName(),
                "--check-file", file.toString(), "--parallelism", Integer.toString(parallelism)));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            String line = output.lines().filter(l -> l.startsWith(SAMPLE)).findFirst().orElse(null);
            if (exit != 0 || line == null) {
                throw new IllegalStateException("the child JVM checking " + file + " exited with " + exit
                        + " and printed: " + output);
            }
            return Sample.parse(line);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a child JVM: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a child JVM", e);
        }
    }

    /** This JVM's memory and GC options, for the children (agents, debugging and recordings are left out). */
    static List<String> jvmOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-X") && !a.startsWith("-Xlog") && !a.startsWith("-XX:StartFlightRecording")
                        && !a.startsWith("-XX:FlightRecorder") && !a.startsWith("-Xrun") && !a.startsWith("-Xdebug"))
                .toList();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }
}
