package io.zkchaos.harness.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerDescriptor;
import io.zkchaos.checkers.CheckerOption;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.results.CheckSettings;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.Verdicts;
import io.zkchaos.results.report.RunReport;
import io.zkchaos.results.report.SuiteIndex;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos check}: reads each history file and runs one checker over it, in one JVM.
 *
 * <p>A history in which no client operation was acknowledged is {@code unknown}, whatever the checker says (nothing
 * was tested), as a run with nothing acknowledged is.
 *
 * <p>Prints one line per file (human, or one JSON object with {@code --json}) as soon as that file is done. Exit
 * status: {@value Verdicts.Exit#ERROR} if any file could not be read (or the usage was wrong), else {@value Verdicts.Exit#INVALID} if
 * any history is invalid, else {@value Verdicts.Exit#UNKNOWN} if any verdict is unknown, else {@value Verdicts.Exit#VALID}.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Check recorded histories (JSON Lines or Jepsen EDN) and print a verdict per file.",
        footer = {"", "Exit status:",
                "  0  every history is valid",
                "  1  some history is invalid",
                "  2  a file could not be read, or the command line is wrong",
                "  3  none is invalid but some verdict is unknown (e.g. the time limit ran out)"})
public final class CheckCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private final CheckerCatalog catalog;

    @Spec
    CommandSpec spec;

    @Option(names = "--checker", paramLabel = "NAME", defaultValue = "linearizable",
            description = "The checker to run (default: ${DEFAULT-VALUE}).")
    String checker;

    @Option(names = "--model", paramLabel = "MODEL",
            description = "The model for the linearizable checker: register, cas-register, kv, multi-register,"
                    + " mutex, set.")
    String model;

    @Option(names = "--init", paramLabel = "EDN", converter = EdnLiteral.Converter.class,
            description = "The model's initial value as an EDN literal, e.g. 0, nil, '{:x 0 :y 0}' (default: nil).")
    EdnLiteral init;

    @Option(names = "--time-limit", paramLabel = "DURATION", converter = Durations.class,
            description = "Give up on a history after this long and call it unknown: 500ms, 10s, 2m (default:"
                    + " no limit).")
    Duration timeLimit;

    @Option(names = "--max-overlap", paramLabel = "DURATION", converter = Durations.class,
            description = "single-leader: fail when two leaders overlap in real time for longer than this "
                    + "(default: overlaps are reported, never failed).")
    Duration maxOverlap;

    @Option(names = "--failover-bound", paramLabel = "DURATION", converter = Durations.class,
            description = "single-leader: a leader must exist again this long after every heal (default: "
                    + "${DEFAULT-VALUE}).")
    Duration failoverBound = CheckerOptions.defaults().failoverBound();

    @Option(names = "--strict",
            description = "zk-read-model: count stale plain reads (allowed by ZooKeeper) as violations; multi-txn: "
                    + "hold reads to real time too.")
    boolean strict;

    @Option(names = "--json", description = "Print one JSON object per file per line.")
    boolean json;

    @Option(names = "--report", paramLabel = "DIR",
            description = "Also write a run directory per history into DIR (a copy of the history as history.jsonl, "
                    + "config.json, results.json, the HTML report index.html; with several files one per file in "
                    + "DIR/<name>/ and a suite index DIR/index.html). Re-render it later with: zkchaos report DIR.")
    Path report;

    @Option(names = "--tolerate-truncated-tail",
            description = "Drop (with a warning) a JSON Lines file's cut-off last line, as a killed run leaves it.")
    boolean tolerateTruncatedTail;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "History files (.jsonl, .json, .edn, .txt).")
    List<String> files;

    public CheckCommand(CheckerCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * The checker the command line asks for, with its settings; a setting given to a checker that does not read it
     * is an error naming both.
     */
    private Checker checker() {
        CheckerDescriptor d = catalog.require(checker);
        Set<CheckerOption> given = EnumSet.noneOf(CheckerOption.class);
        ParseResult pr = spec.commandLine().getParseResult();
        for (CheckerOption o : CheckerOption.values()) {
            if (pr.hasMatchedOption("--" + o.cliName())) {
                given.add(o);
            }
        }
        given.removeAll(d.options());
        if (!given.isEmpty()) {
            throw new IllegalArgumentException("checker " + d.name() + " does not take "
                    + given.stream().map(o -> "--" + o.cliName()).collect(Collectors.joining(", ")) + "; "
                    + (d.options().isEmpty() ? "it takes no options" : "it takes " + d.options().stream()
                    .map(o -> "--" + o.cliName()).collect(Collectors.joining(", "))));
        }
        return d.create(settings());
    }

    /** The checker settings the command line gives. */
    private CheckerOptions settings() {
        return CheckerOptions.defaults().withModel(model, init == null ? null : init.value())
                .withTimeLimit(timeLimit).withStrict(strict).withMaxOverlap(maxOverlap)
                .withFailoverBound(failoverBound);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Checker check;
        try {
            check = checker();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        ReadOptions readOptions = tolerateTruncatedTail
                ? ReadOptions.tolerateTruncatedTail(w -> err.println("warning: " + w))
                : ReadOptions.STRICT;

        Map<String, RunDirectory> reportDirs;
        try {
            reportDirs = reportDirs();
        } catch (IllegalArgumentException e) {
            err.println("error: --report " + report + ": " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }

        boolean unreadable = false;
        Validity overall = Validity.VALID;
        List<RunDirectory> written = new ArrayList<>();
        for (String file : files) {
            History history;
            long readStart = System.nanoTime();
            try {
                history = HistoryFiles.read(Path.of(file), readOptions);
            } catch (MalformedHistoryException | InvalidPathException e) {
                unreadable = true;
                String message = e instanceof InvalidPathException ? file + ": not a valid path" : e.getMessage();
                err.println("error: " + message);
                if (json) {
                    Map<String, Object> line = new LinkedHashMap<>();
                    line.put("file", file);
                    line.put("error", message);
                    out.println(toJson(line));
                }
                out.flush();
                continue;
            }
            long start = System.nanoTime();
            CheckResult result = nothingAcknowledged(Checkers.runSafely(check, history), history);
            Timing timing = new Timing((start - readStart) / 1_000_000, (System.nanoTime() - start) / 1_000_000);
            overall = overall.merge(result.validity());
            Path page = null;
            if (reportDirs != null) {
                RunDirectory dir = reportDirs.get(file);
                try {
                    page = writeRun(dir, file, history, result);
                    written.add(dir);
                } catch (RuntimeException e) {
                    unreadable = true;
                    err.println("error: cannot write the report of " + file + " into " + dir + ": " + e.getMessage());
                }
            }
            out.println(json ? jsonLine(file, history, result, timing, page)
                    : humanLine(file, history, result, timing) + (page == null ? "" : "\n  report: " + page));
            out.flush();
        }
        if (reportDirs != null && files.size() > 1 && !written.isEmpty()) {
            Path index = SuiteIndex.write(report.resolve(RunDirectory.REPORT), "zkchaos check " + checker, written);
            if (!json) {
                out.println("report: " + index);
            }
        }
        if (unreadable) {
            return Verdicts.Exit.ERROR;
        }
        return Verdicts.exitStatus(overall);
    }

    /**
     * Where each file's run directory goes: {@code DIR} itself for one file, {@code DIR/<file name>} for several.
     * Null without {@code --report}.
     *
     * @throws IllegalArgumentException if a target already holds a history (a history is never overwritten)
     */
    private Map<String, RunDirectory> reportDirs() {
        if (report == null) {
            return null;
        }
        Map<String, RunDirectory> dirs = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        for (String file : files) {
            Path target = report;
            if (files.size() > 1) {
                String name = safeName(file);
                String unique = name;
                for (int i = 2; !names.add(unique); i++) {
                    unique = name + "-" + i;
                }
                target = report.resolve(unique);
            }
            RunDirectory dir = new RunDirectory(target);
            if (dir.hasHistory()) {
                throw new IllegalArgumentException(target + " already holds a history; choose a new directory");
            }
            dirs.put(file, dir);
        }
        return dirs;
    }

    /** A file's name without its extension, as a directory name of letters, digits, '.', '_' and '-'. */
    private static String safeName(String file) {
        String name = Path.of(file).getFileName().toString().replaceFirst("\\.[^.]*$", "");
        name = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return name.isEmpty() || name.startsWith(".") ? "history" + name : name;
    }

    private Path writeRun(RunDirectory dir, String file, History history, CheckResult result) {
        dir.writeConfig(new CheckSettings(Path.of(file).getFileName().toString(),
                Path.of(file).toAbsolutePath().normalize().toString(), checker, model, settings()));
        HistoryFiles.write(dir.historyFile(), history);
        dir.writeResults(result);
        return RunReport.write(dir);
    }

    /**
     * A valid verdict on a history in which no client operation was acknowledged becomes unknown, as a run's
     * evidence makes such a run: every operation failed or timed out, so nothing was tested (and a history whose
     * operations all failed is linearizable). Client operations are those of processes 0 up to the harness's own
     * ({@link History#HARNESS_PROCESS_BASE}); invalid and unknown verdicts stand.
     */
    static CheckResult nothingAcknowledged(CheckResult result, History history) {
        if (result.validity() != Validity.VALID) {
            return result;
        }
        long ok = 0;
        long made = 0;
        for (var op : history.operations()) {
            if (op.process() >= 0 && op.process() < History.HARNESS_PROCESS_BASE) {
                made++;
                if (op.isOk()) {
                    ok++;
                }
            }
        }
        if (ok > 0) {
            return result;
        }
        return new CheckResult(result.checker(), Validity.UNKNOWN, "no client operation was acknowledged: nothing "
                + "was tested (" + (made == 0 ? "none was made" : count((int) made, "operation") + ", none ok")
                + "); " + result.summary(), result.details(), result.parts());
    }

    /** How long reading the file and checking the history took. */
    private record Timing(long readMillis, long checkMillis) {
    }

    /**
     * {@code FILE: valid (N operations, M entries; read in R ms, checked in C ms)}: operations are invocations paired
     * with their completions, entries every line of the history (so about twice as many).
     */
    private static String humanLine(String file, History history, CheckResult r, Timing t) {
        String facts = count(history.operationCount(), "operation") + ", "
                + count(history.size(), "entry", "entries") + "; read in " + t.readMillis() + " ms, checked in "
                + t.checkMillis() + " ms";
        return Verdicts.line(file, r.validity(), facts, r.summary());
    }

    private static String count(int n, String one) {
        return count(n, one, one + "s");
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String jsonLine(String file, History history, CheckResult r, Timing t, Path page) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("file", file);
        line.put("valid", r.validity().toJson());
        line.put("operations", history.operationCount());
        line.put("entries", history.size());
        line.put("readMillis", t.readMillis());
        line.put("checkMillis", t.checkMillis());
        line.put("checker", r.checker());
        line.put("summary", r.summary());
        line.put("details", details(r.details()));
        if (page != null) {
            line.put("report", page.toString());
        }
        return toJson(line);
    }

    /**
     * The details as a tree, so that their kind is written (a value in a map of Objects would be written without
     * it); details that cannot be written must not lose the verdict.
     */
    private static Object details(Findings d) {
        try {
            return d == null ? null : JSON.valueToTree(d);
        } catch (IllegalArgumentException e) {
            return "unserialisable details: " + e.getMessage();
        }
    }

    private static String toJson(Map<String, Object> line) {
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
