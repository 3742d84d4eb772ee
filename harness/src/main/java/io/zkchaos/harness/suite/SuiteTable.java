package io.zkchaos.harness.suite;

import io.zkchaos.checkers.bench.Stats;
import io.zkchaos.harness.run.RunPhases;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code zkchaos bench suite STORE...}: the chaos suite's figures from its ledgers ({@link SuiteLedger}): per suite
 * run its wall time, verdict counts and where the scenarios' time went on average; then, per system and version, a
 * workload × nemesis table of pass counts over all the suite runs found, and one of median seconds per scenario.
 * Markdown, ready for the README.
 */
public final class SuiteTable {

    private SuiteTable() {
    }

    /** Prints the figures of every ledger found at {@code paths} (see {@link SuiteLedger#read}). */
    public static void print(PrintWriter out, List<Path> paths) {
        List<SuiteLedger.Entry> entries = SuiteLedger.read(paths);
        if (entries.isEmpty()) {
            out.println("no suite ledger entries under " + paths);
            return;
        }
        suites(out, entries);
        Map<String, List<SuiteLedger.Entry>> bySystem = entries.stream().collect(Collectors.groupingBy(
                e -> e.system() + " " + e.version(), TreeMap::new, Collectors.toList()));
        bySystem.forEach((system, list) -> {
            out.println();
            out.println("Pass counts, " + system + " (valid / runs; a cell says what else it was):");
            out.println();
            matrix(out, list, SuiteTable::passCell);
            out.println();
            out.println("Median seconds per scenario, " + system + ":");
            out.println();
            matrix(out, list, cell -> String.format(Locale.ROOT, "%.0f", Stats.median(cell.stream()
                    .mapToDouble(SuiteLedger.Entry::seconds).toArray())));
        });
        out.flush();
    }

    private static void suites(PrintWriter out, List<SuiteLedger.Entry> entries) {
        Map<String, List<SuiteLedger.Entry>> bySuite = entries.stream().collect(Collectors.groupingBy(
                SuiteLedger.Entry::suite, TreeMap::new, Collectors.toList()));
        Set<String> phases = new LinkedHashSet<>(RunPhases.ORDER);
        entries.forEach(e -> phases.addAll(e.phases().keySet()));
        phases.removeIf(p -> entries.stream().noneMatch(e -> e.phases().containsKey(p)));
        out.println("| suite run | scenarios | valid | invalid | unknown | error | wall | mean per scenario | "
                + "mean phases (s): " + String.join(", ", phases) + " |");
        out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        bySuite.forEach((suite, list) -> {
            long start = list.stream().mapToLong(SuiteLedger.Entry::startMs).min().orElse(0);
            long end = list.stream().mapToLong(SuiteLedger.Entry::endMs).max().orElse(0);
            String means = phases.stream().map(p -> String.format(Locale.ROOT, "%.1f", list.stream()
                    .mapToLong(e -> e.phases().getOrDefault(p, 0L)).average().orElse(0) / 1000.0))
                    .collect(Collectors.joining(", "));
            out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %.1f min | %.1f s | %s |%n", suite, list.size(),
                    count(list, "valid"), count(list, "invalid"), count(list, "unknown"), count(list, "error"),
                    (end - start) / 60000.0, list.stream().mapToDouble(SuiteLedger.Entry::seconds).average()
                            .orElse(0), means);
        });
    }

    private static void matrix(PrintWriter out, List<SuiteLedger.Entry> entries,
                               java.util.function.Function<List<SuiteLedger.Entry>, String> cell) {
        List<String> workloads = distinct(entries, SuiteLedger.Entry::workload, io.zkchaos.workloads.Workloads.NAMES);
        List<String> nemeses = distinct(entries, SuiteLedger.Entry::nemesis, io.zkchaos.nemesis.Nemeses.names());
        out.println("| workload | " + String.join(" | ", nemeses) + " |");
        out.println("| --- |" + " --- |".repeat(nemeses.size()));
        for (String w : workloads) {
            List<String> cells = new ArrayList<>();
            for (String n : nemeses) {
                List<SuiteLedger.Entry> here = entries.stream()
                        .filter(e -> e.workload().equals(w) && e.nemesis().equals(n)).toList();
                cells.add(here.isEmpty() ? "" : cell.apply(here));
            }
            out.println("| " + w + " | " + String.join(" | ", cells) + " |");
        }
    }

    /** {@code 3/3}, or {@code 2/3 (1 unknown)}. */
    static String passCell(List<SuiteLedger.Entry> runs) {
        long valid = count(runs, "valid");
        Map<String, Long> other = new TreeMap<>();
        runs.stream().filter(e -> !e.verdict().equals("valid"))
                .forEach(e -> other.merge(e.verdict(), 1L, Long::sum));
        String s = valid + "/" + runs.size();
        return other.isEmpty() ? s : s + " (" + other.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                .collect(Collectors.joining(", ")) + ")";
    }

    private static long count(List<SuiteLedger.Entry> list, String verdict) {
        return list.stream().filter(e -> e.verdict().equals(verdict)).count();
    }

    /** The names found, in the registry's order ({@code ./zkchaos scenarios}), others after them as they ran. */
    private static List<String> distinct(List<SuiteLedger.Entry> entries,
                                         java.util.function.Function<SuiteLedger.Entry, String> key,
                                         List<String> registry) {
        Map<String, Long> first = new LinkedHashMap<>();
        entries.stream().sorted(Comparator.comparingLong(SuiteLedger.Entry::startMs))
                .forEach(e -> first.putIfAbsent(key.apply(e), e.startMs()));
        List<String> out = new ArrayList<>(registry.stream().filter(first::containsKey).toList());
        first.keySet().stream().filter(k -> !registry.contains(k)).forEach(out::add);
        return out;
    }
}
