package io.zkchaos.harness.suite;

import io.zkchaos.checkers.bench.Stats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The expected wall time of each chaos-suite scenario, which balances the suite's shards ({@link Shard}): the median
 * over the suite ledgers' runs of it ({@link SuiteLedger}), kept as a small tab-separated file so that a CI machine
 * that starts clean balances as well as one with a store full of ledgers ({@code ./zkchaos bench suite --times-file
 * FILE STORE...} writes it).
 *
 * <p>A scenario the file does not list is expected to take what the file's nearest scenarios take: the median of the
 * same system's workload under the same nemesis in other versions, else of every scenario under the same nemesis
 * (the nemesis decides most of a scenario's time beyond the fixed main phase: restarts, client JVMs), else of every
 * scenario listed. A median of the file's own figures keeps an estimate on the file's scale, whatever main phase the
 * file was measured with; with an empty file every scenario is expected to take the same time (the shards are then
 * balanced by count).
 */
public final class ScenarioTimes {

    /** The expectation of every scenario when nothing is known: all equal. */
    static final double UNKNOWN_SECONDS = 30;

    static final String HEADER = "system\tversion\tworkload\tnemesis\tseconds\truns";

    /**
     * One scenario's expected time.
     *
     * @param seconds its median wall time
     * @param runs    how many runs the median is over
     */
    public record Row(String system, String version, String workload, String nemesis, double seconds, int runs) {
    }

    private final List<Row> rows;

    public ScenarioTimes(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    public List<Row> rows() {
        return rows;
    }

    /**
     * The median wall time of each scenario over {@code entries}; runs that could not be done ({@code error}) are left
     * out, as their time says nothing of a run that works.
     */
    public static ScenarioTimes fromLedger(List<SuiteLedger.Entry> entries) {
        Map<List<String>, List<Double>> byScenario = entries.stream().filter(e -> !e.verdict().equals("error"))
                .collect(Collectors.groupingBy(e -> List.of(e.system(), e.version(), e.workload(), e.nemesis()),
                        () -> new TreeMap<>(Comparator.comparing((List<String> k) -> String.join("\t", k))),
                        Collectors.mapping(SuiteLedger.Entry::seconds, Collectors.toList())));
        List<Row> rows = new ArrayList<>();
        byScenario.forEach((k, seconds) -> rows.add(new Row(k.get(0), k.get(1), k.get(2), k.get(3),
                Stats.median(seconds.stream().mapToDouble(Double::doubleValue).toArray()), seconds.size())));
        return new ScenarioTimes(rows);
    }

    /** The expected wall time in seconds of one scenario (see the class comment for one it does not list). */
    public double seconds(String system, String version, String workload, String nemesis) {
        for (Predicate<Row> near : List.<Predicate<Row>>of(
                r -> r.system().equals(system) && r.version().equals(version) && r.workload().equals(workload)
                        && r.nemesis().equals(nemesis),
                r -> r.system().equals(system) && r.workload().equals(workload) && r.nemesis().equals(nemesis),
                r -> r.nemesis().equals(nemesis),
                r -> true)) {
            double[] found = rows.stream().filter(near).mapToDouble(Row::seconds).toArray();
            if (found.length > 0) {
                return Stats.median(found);
            }
        }
        return UNKNOWN_SECONDS;
    }

    /** Reads a file {@link #format} wrote. */
    public static ScenarioTimes read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the scenario times " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the text of a times file: comment lines ({@code #}), the header, then a row per scenario.
     *
     * @param source named in errors
     * @throws IllegalArgumentException naming the source and line that is not a row
     */
    public static ScenarioTimes parse(String text, String source) {
        List<Row> rows = new ArrayList<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#") || line.equals(HEADER)) {
                continue;
            }
            String[] f = line.split("\t", -1);
            try {
                if (f.length != 6) {
                    throw new IllegalArgumentException("expected 6 tab-separated fields (" + HEADER.replace('\t', ' ')
                            + "), got " + f.length);
                }
                double seconds = Double.parseDouble(f[4]);
                if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                    throw new IllegalArgumentException("seconds must be a non-negative number, got " + f[4]);
                }
                rows.add(new Row(f[0], f[1], f[2], f[3], seconds, Integer.parseInt(f[5])));
            } catch (IllegalArgumentException e) { // NumberFormatException too
                throw new IllegalArgumentException(source + " line " + (i + 1) + " is not a scenario time: "
                        + e.getMessage(), e);
            }
        }
        return new ScenarioTimes(rows);
    }

    /** The file's text: what it is and where it came from, the header, a row per scenario. */
    public String format(String origin) {
        StringBuilder out = new StringBuilder();
        out.append("# Expected wall time (s) of each chaos-suite scenario: balances its shards (-Dzkchaos.chaos.shard=K/N,"
                + " docs/chaos-suite.md).\n");
        out.append("# The median of its runs in the suite ledgers; written by ./zkchaos bench suite --times-file FILE "
                + "STORE...\n");
        out.append("# From: ").append(origin.replace('\n', ' ')).append('\n');
        out.append(HEADER).append('\n');
        for (Row r : rows) {
            out.append(String.join("\t", r.system(), r.version(), r.workload(), r.nemesis(),
                    String.format(Locale.ROOT, "%.1f", r.seconds()), Integer.toString(r.runs()))).append('\n');
        }
        return out.toString();
    }

    /** Writes {@link #format} to {@code file}. */
    public void write(Path file, String origin) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(file, format(origin), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the scenario times " + file + ": " + e.getMessage(), e);
        }
    }
}
