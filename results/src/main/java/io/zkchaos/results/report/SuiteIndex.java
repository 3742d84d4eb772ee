package io.zkchaos.results.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.Verdicts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The index page of a suite (the chaos matrix, a multi-run benchmark, {@code check --report} over several files):
 * every run with its verdict, operations, faults and history span, and a link to its own report; the runs that need
 * a look (invalid, unknown, unchecked) first. Like the run reports, it is rendered from the run directories' saved
 * files only.
 */
public final class SuiteIndex {

    /**
     * One run as the index lists it.
     *
     * @param verdict CSS class: valid, invalid, unknown or unchecked
     * @param link    the run's report relative to the index, or null when it has none
     */
    public record Row(String scenario, String verdict, String word, String summary, String operations,
                      String faults, String span, String link, String directory) {
    }

    /**
     * The page.
     *
     * @param verdict the suite's merged verdict (CSS class), {@code unchecked} when a run was never checked
     */
    public record Page(String title, String verdict, String word, String counts, List<Row> rows) {
    }

    private SuiteIndex() {
    }

    /**
     * Writes the index of {@code runs} to {@code indexFile}.
     *
     * @return {@code indexFile}
     */
    public static Path write(Path indexFile, String title, List<RunDirectory> runs) {
        Path dir = indexFile.toAbsolutePath().getParent();
        List<Row> rows = new ArrayList<>();
        for (RunDirectory run : runs) {
            rows.add(row(dir, run));
        }
        rows.sort(Comparator.comparingInt((Row r) -> rank(r.verdict())).thenComparing(Row::scenario)
                .thenComparing(Row::directory));
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String v : List.of("invalid", "unknown", "unchecked", "valid")) {
            int n = (int) rows.stream().filter(r -> r.verdict().equals(v)).count();
            if (n > 0) {
                counts.put(v, n);
            }
        }
        String verdict = rows.isEmpty() ? "unchecked" : rows.get(0).verdict();
        String word = switch (verdict) {
            case "invalid" -> Verdicts.word(Validity.INVALID);
            case "unknown" -> Verdicts.word(Validity.UNKNOWN);
            case "valid" -> Verdicts.word(Validity.VALID);
            default -> "NOT CHECKED";
        };
        List<String> parts = new ArrayList<>();
        counts.forEach((v, n) -> parts.add(n + " " + (v.equals("valid") ? "valid" : v.toUpperCase(Locale.ROOT))));
        String countText = rows.size() + " run(s)" + (parts.isEmpty() ? "" : ": " + String.join(", ", parts));
        String html = Templates.render("suite.ftlh", Map.of("page", new Page(title, verdict, word, countText, rows)));
        return Templates.write(indexFile, html);
    }

    private static int rank(String verdict) {
        return switch (verdict) {
            case "invalid" -> 0;
            case "unknown" -> 1;
            case "unchecked" -> 2;
            default -> 3;
        };
    }

    /** {@code run} as a row of an index in {@code indexDir} (its verdict, operations, faults, span, link). */
    static Row row(Path indexDir, RunDirectory run) {
        String scenario = String.valueOf(run.path().getFileName());
        if (Files.isRegularFile(run.configFile())) {
            JsonNode c = ConfigView.flatten(Json.read(run.configFile()));
            if (c.hasNonNull("workload") && c.hasNonNull("nemesis")) {
                scenario = c.get("workload").asText() + "-" + c.get("nemesis").asText();
            } else if (c.hasNonNull("title")) {
                scenario = c.get("title").asText();
            }
        }
        String verdict = "unchecked";
        String word = "NOT CHECKED";
        String summary = "no results.json: the run stopped before its checkers ran";
        if (run.hasResults()) {
            JsonNode r = run.readResults();
            Validity v = Verdicts.fromJson(r.get("valid"));
            verdict = v.name().toLowerCase(Locale.ROOT);
            word = Verdicts.word(v);
            summary = r.path("summary").asText("");
        }
        String operations = "?";
        String faults = "?";
        String span = "?";
        if (run.hasHistory()) {
            try {
                History h = HistoryFiles.read(run.historyFile(), ReadOptions.tolerateTruncatedTail(w -> { }));
                List<Operation> ops = h.operations();
                long ok = ops.stream().filter(Operation::isOk).count();
                operations = Fmt.count(ops.size()) + " (" + Fmt.count(ok) + " ok)";
                faults = Fmt.count(h.nemesisOps().stream()
                        .filter(op -> op.type() == io.zkchaos.checkers.history.OpType.INVOKE)
                        .filter(op -> !op.f().equals("heal") && !op.f().equals("stop")).count());
                List<Op> all = h.ops();
                span = all.isEmpty() ? "0" : Fmt.span(all.get(all.size() - 1).time());
            } catch (RuntimeException e) {
                summary = summary + "; history unreadable: " + e.getMessage();
            }
        } else {
            summary = "no history.jsonl";
        }
        String link = Files.isRegularFile(run.reportFile())
                ? indexDir.relativize(run.reportFile()).toString().replace('\\', '/') : null;
        return new Row(scenario, verdict, word, summary, operations, faults, span, link, run.path().toString());
    }
}
