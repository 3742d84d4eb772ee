package io.zkchaos.harness.suite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.harness.run.RunPhases;
import io.zkchaos.results.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a run of the chaos suite did, one JSON line per scenario appended as it ends: {@code <store>/suite-runs/
 * <suite start>.jsonl}. Several suite runs leave several files; {@link SuiteTable} counts verdicts per scenario over
 * them (the pass counts in the README) and times the suites.
 */
public final class SuiteLedger {

    /** The ledgers' directory under a store. */
    public static final String DIRECTORY = "suite-runs";

    private static final ObjectMapper LINES = Json.MAPPER.copy()
            .disable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

    /**
     * One scenario of one suite run.
     *
     * @param suite     the suite run (its start, as in the file's name)
     * @param scenario  its name, as the test case shows it ({@code zookeeper 3.9.5 register under kill-leader})
     * @param system    the system under test ({@code zookeeper})
     * @param version   its version
     * @param workload  the workload
     * @param nemesis   the nemesis
     * @param verdict   {@code valid}, {@code invalid}, {@code unknown}, or {@code error} (the run could not be done)
     * @param startMs   when it started (ms since the epoch)
     * @param endMs     when it ended
     * @param phases    where its time went ({@link RunPhases}), empty for an error
     * @param run       its run directory, or null
     * @param summary   the checkers' summary, or the error
     */
    public record Entry(String suite, String scenario, String system, String version, String workload,
                        String nemesis, String verdict, long startMs, long endMs, Map<String, Long> phases,
                        String run, String summary) {
        public Entry {
            phases = phases == null ? Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(phases));
        }

        /** The scenario's wall time in seconds. */
        public double seconds() {
            return (endMs - startMs) / 1000.0;
        }
    }

    private SuiteLedger() {
    }

    /** The ledger file of the suite run that started at {@code suite} under {@code store}. */
    public static Path file(Path store, String suite) {
        return store.resolve(DIRECTORY).resolve(suite + ".jsonl");
    }

    /** Appends one line; thread-safe within the JVM (scenarios of one suite run may end together). */
    public static synchronized void append(Path file, Entry entry) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, LINES.writeValueAsString(entry) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every entry of the ledgers found at each path: a ledger file, a {@code suite-runs} directory, or a store
     * holding one.
     *
     * @throws IllegalArgumentException naming the path and line that could not be read
     */
    public static List<Entry> read(List<Path> paths) {
        List<Entry> out = new ArrayList<>();
        for (Path p : paths) {
            for (Path file : files(p)) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
                }
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).isBlank()) {
                        continue;
                    }
                    try {
                        out.add(LINES.readValue(lines.get(i), Entry.class));
                    } catch (JsonProcessingException e) {
                        throw new IllegalArgumentException(file + " line " + (i + 1) + " is not a ledger entry: "
                                + e.getOriginalMessage(), e);
                    }
                }
            }
        }
        return out;
    }

    private static List<Path> files(Path p) {
        if (Files.isRegularFile(p)) {
            return List.of(p);
        }
        Path dir = Files.isDirectory(p.resolve(DIRECTORY)) ? p.resolve(DIRECTORY) : p;
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(p + " is neither a suite ledger, a " + DIRECTORY
                    + " directory nor a store holding one");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}
