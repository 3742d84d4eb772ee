package io.zkchaos.results.report;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.results.ConfigFile;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunSettings;
import io.zkchaos.results.Verdicts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The index page of a suite (the chaos matrix, a multi-run benchmark, {@code check --report} over several files):
 * every run with its verdict, operations, faults and history span, whether what it exercised was enough to be
 * evidence, and a link to its own report; the runs that need a look (invalid, unknown, unchecked) first; and per
 * nemesis, what its faults did across the runs ({@link SuiteCoverage}). Like the run reports, it is rendered from the
 * run directories' saved files only.
 */
public final class SuiteIndex {

    /**
     * One run as the index lists it.
     *
     * @param verdict         CSS class: valid, invalid, unknown or unchecked
     * @param link            the run's report relative to the index, or null when it has none
     * @param evidence        whether what the run exercised was enough to be evidence: {@code enough}, or why not
     * @param restsOnNothing  whether its verdict rests on nothing: too little exercised, or not recorded
     */
    public record Row(String scenario, String verdict, String word, String summary, String operations,
                      String faults, String span, String link, String directory, String evidence,
                      boolean restsOnNothing) {
    }

    /**
     * The page.
     *
     * @param verdict  the suite's merged verdict (CSS class), {@code unchecked} when a run was never checked
     * @param coverage per nemesis, what its faults did across the runs (empty when no run names a nemesis)
     * @param nothing  how many runs' verdicts rest on nothing
     */
    public record Page(String title, String verdict, String word, String counts, List<SuiteCoverage.Row> coverage,
                       long nothing, List<Row> rows) {
    }

    /** A run's row, and what the coverage table takes from it. */
    private record Scanned(Row row, String nemesis, Optional<EvidenceReport> evidence) {
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
        SuiteCoverage coverage = new SuiteCoverage();
        for (RunDirectory run : runs) {
            Scanned scanned = scan(dir, run);
            rows.add(scanned.row());
            if (scanned.nemesis() != null) {
                coverage.add(scanned.nemesis(), scanned.evidence());
            }
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
        long nothing = rows.stream().filter(Row::restsOnNothing).count();
        String html = Templates.render("suite.ftlh", Map.of("page", new Page(title, verdict, word, countText,
                coverage.rows(), nothing, rows)));
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
        return scan(indexDir, run).row();
    }

    private static Scanned scan(Path indexDir, RunDirectory run) {
        String scenario = String.valueOf(run.path().getFileName());
        String nemesis = null;
        ConfigFile config = RunFiles.readConfig(run, new ArrayList<>()); // why not: the run's own page says
        if (config != null) {
            scenario = config.title();
            nemesis = config instanceof RunSettings s ? s.nemesis().name() : null;
        }
        String verdict = "unchecked";
        String word = "NOT CHECKED";
        String summary = "no results.json: the run stopped before its checkers ran";
        CheckResult r = run.hasResults() ? run.readCheckResult() : null;
        if (r != null) {
            verdict = r.validity().name().toLowerCase(Locale.ROOT);
            word = Verdicts.word(r.validity());
            summary = r.summary();
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
        List<String> unreadable = new ArrayList<>();
        Optional<EvidenceReport> evidence = RunFiles.readEvidence(run, unreadable);
        Row row = new Row(scenario, verdict, word, summary, operations, faults, span, link, run.path().toString(),
                evidence(evidence, unreadable, r), evidence.map(e -> !e.unmet().isEmpty()).orElse(true));
        return new Scanned(row, nemesis, evidence);
    }

    /**
     * {@code enough} (with what the user relaxed), every requirement the run fell short of, or why it has no
     * {@code evidence.json} to tell.
     */
    private static String evidence(Optional<EvidenceReport> evidence, List<String> unreadable, CheckResult results) {
        if (evidence.isEmpty()) {
            return unreadable.isEmpty() ? notRecorded(results) : unreadable.get(0);
        }
        EvidenceReport e = evidence.get();
        if (!e.unmet().isEmpty()) {
            return "too little: " + String.join("; ", e.unmet());
        }
        return e.relaxed().isEmpty() ? "enough" : "enough (relaxed: " + String.join(", ", e.relaxed()) + ")";
    }

    /** Why a run without {@code evidence.json} has none: its evidence part's own word if it has one (it threw). */
    private static String notRecorded(CheckResult results) {
        if (results != null) {
            for (CheckResult part : results.parts()) {
                if (Minimum.CHECKER.equals(part.checker())) {
                    return "not recorded: " + part.summary();
                }
            }
        }
        return "not recorded (no " + RunDirectory.EVIDENCE + ")";
    }
}
