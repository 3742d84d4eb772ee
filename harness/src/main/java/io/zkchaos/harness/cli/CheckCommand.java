package io.zkchaos.harness.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos check}: reads each history file and runs one checker over it, in one JVM.
 *
 * <p>Prints one line per file (human, or one JSON object with {@code --json}) as soon as that file is done. Exit
 * status: {@value Exit#ERROR} if any file could not be read (or the usage was wrong), else {@value Exit#INVALID} if
 * any history is invalid, else {@value Exit#UNKNOWN} if any verdict is unknown, else {@value Exit#VALID}.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Check recorded histories (JSON Lines or Jepsen EDN) and print a verdict per file.",
        footer = {"", "Exit status:",
                "  0  every history is valid",
                "  1  some history is invalid",
                "  2  a file could not be read, or the command line is wrong",
                "  3  none is invalid but some verdict is unknown (e.g. the time limit ran out)"})
public final class CheckCommand implements Callable<Integer> {

    /** Exit statuses. */
    public static final class Exit {
        public static final int VALID = 0;
        public static final int INVALID = 1;
        public static final int ERROR = 2;
        public static final int UNKNOWN = 3;

        private Exit() {
        }
    }

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private final CheckerRegistry registry;

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

    @Option(names = "--max-overlap", paramLabel = "DURATION",
            description = "single-leader: fail when two leaders overlap in real time for longer than this "
                    + "(default: overlaps are reported, never failed).")
    String maxOverlap;

    @Option(names = "--failover-bound", paramLabel = "DURATION",
            description = "single-leader: a leader must exist again this long after every heal (default: 30s).")
    String failoverBound;

    @Option(names = "--strict",
            description = "zk-read-model: count stale plain reads (allowed by ZooKeeper) as violations.")
    boolean strict;

    @Option(names = "--json", description = "Print one JSON object per file per line.")
    boolean json;

    @Option(names = "--tolerate-truncated-tail",
            description = "Drop (with a warning) a JSON Lines file's cut-off last line, as a killed run leaves it.")
    boolean tolerateTruncatedTail;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "History files (.jsonl, .json, .edn, .txt).")
    List<String> files;

    private java.util.Map<String, String> checkerOptions() {
        java.util.Map<String, String> o = new java.util.LinkedHashMap<>();
        if (maxOverlap != null) {
            o.put("max-overlap", maxOverlap);
        }
        if (failoverBound != null) {
            o.put("failover-bound", failoverBound);
        }
        if (strict) {
            o.put("strict", "true");
        }
        return o;
    }

    public CheckCommand(CheckerRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Checker check;
        try {
            check = registry.create(checker,
                    new CheckerRegistry.Options(model, init == null ? null : init.value(), timeLimit,
                            checkerOptions()));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        ReadOptions readOptions = tolerateTruncatedTail
                ? ReadOptions.tolerateTruncatedTail(w -> err.println("warning: " + w))
                : ReadOptions.STRICT;

        boolean unreadable = false;
        Validity overall = Validity.VALID;
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
            CheckResult result = Checkers.runSafely(check, history);
            Timing timing = new Timing((start - readStart) / 1_000_000, (System.nanoTime() - start) / 1_000_000);
            overall = overall.merge(result.validity());
            out.println(json ? jsonLine(file, history, result, timing) : humanLine(file, history, result, timing));
            out.flush();
        }
        if (unreadable) {
            return Exit.ERROR;
        }
        return switch (overall) {
            case VALID -> Exit.VALID;
            case INVALID -> Exit.INVALID;
            case UNKNOWN -> Exit.UNKNOWN;
        };
    }

    /** How long reading the file and checking the history took. */
    private record Timing(long readMillis, long checkMillis) {
    }

    /**
     * {@code FILE: valid (N operations, M entries; read in R ms, checked in C ms)}: operations are invocations paired
     * with their completions, entries every line of the history (so about twice as many).
     */
    private static String humanLine(String file, History history, CheckResult r, Timing t) {
        String verdict = switch (r.validity()) {
            case VALID -> "valid";
            case INVALID -> "INVALID";
            case UNKNOWN -> "UNKNOWN";
        };
        String line = file + ": " + verdict + " (" + count(history.operationCount(), "operation") + ", "
                + count(history.size(), "entry", "entries") + "; read in " + t.readMillis() + " ms, checked in "
                + t.checkMillis() + " ms)";
        return r.validity() == Validity.VALID ? line : line + ": " + r.summary();
    }

    private static String count(int n, String one) {
        return count(n, one, one + "s");
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String jsonLine(String file, History history, CheckResult r, Timing t) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("file", file);
        line.put("valid", r.validity().toJson());
        line.put("operations", history.operationCount());
        line.put("entries", history.size());
        line.put("readMillis", t.readMillis());
        line.put("checkMillis", t.checkMillis());
        line.put("checker", r.checker());
        line.put("summary", r.summary());
        line.put("details", r.details());
        return toJson(line);
    }

    private static String toJson(Map<String, Object> line) {
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            // Details a checker cannot serialise must not lose the verdict.
            line.put("details", "unserialisable details: " + e.getOriginalMessage());
            try {
                return JSON.writeValueAsString(line);
            } catch (JsonProcessingException again) {
                throw new IllegalStateException(again);
            }
        }
    }
}
