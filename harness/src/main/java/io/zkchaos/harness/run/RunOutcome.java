package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.Verdicts;
import io.zkchaos.results.report.RunStory;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * How a run ended: the verdict of its checkers, where everything is, and how much happened.
 *
 * @param result     the composed verdict
 * @param directory  the run directory (history, config, results, node logs)
 * @param operations history entries recorded
 * @param millis     wall time of the whole run
 * @param phases     where that time went
 * @param bugCodePaths for the fle nodes with bug flags on, how often each flag's code path ran over the run, added up
 *                   across node restarts (a lower bound: see {@link LeaderObserver#bugCodePaths()}); empty otherwise
 */
public record RunOutcome(CheckResult result, RunDirectory directory, long operations, long millis,
                         RunPhases phases, Map<String, Long> bugCodePaths) {

    public RunOutcome {
        bugCodePaths = Collections.unmodifiableMap(new TreeMap<>(bugCodePaths));
    }

    /** {@code bug code paths ran: ack-before-durable 412, no-epoch-fencing 0}, by flag name. */
    public static String bugCodePathsLine(Map<String, Long> counts) {
        return "bug code paths ran: " + new TreeMap<>(counts).entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    /**
     * The verdict for a person, as a test failure or a CI dashboard shows it: the verdict line, every checker's
     * verdict and explanation, the report's path and the run directory's.
     *
     * <pre>
     * register-kill-leader: INVALID (1902 history entries, 24.9 s)
     *   zk-read-model invalid: Write 3 by process 2 ... cannot be linearized ...
     *   report: /abs/store/register-kill-leader/20261130T132924.805Z/index.html
     *   run directory: /abs/store/register-kill-leader/20261130T132924.805Z
     * </pre>
     *
     * @param subject what ran (the scenario's name)
     */
    public String explanation(String subject) {
        return explanation(subject, List.of());
    }

    /**
     * The same with what happened in the run ({@link #whatHappened()}) between the checkers' explanations and the
     * paths.
     */
    public String explanation(String subject, List<String> whatHappened) {
        StringBuilder s = new StringBuilder(Verdicts.line(subject, result.validity(), String.format(Locale.ROOT,
                "%d history entries, %.1f s", operations, millis / 1000.0), null));
        for (CheckResult part : result.parts().isEmpty() ? List.of(result) : result.parts()) {
            s.append("\n  ").append(part.checker()).append(' ')
                    .append(part.validity().name().toLowerCase(Locale.ROOT)).append(": ").append(part.summary());
        }
        whatHappened.forEach(line -> s.append("\n  ").append(line));
        s.append("\n  report: ").append(directory.reportFile().toAbsolutePath());
        s.append("\n  run directory: ").append(directory.path().toAbsolutePath());
        return s.toString();
    }

    /**
     * What happened, from the run directory's files: the faults with their nodes and times, who the servers said
     * led, how the operations ended ({@link RunStory}); one line saying why when the files cannot tell.
     */
    public List<String> whatHappened() {
        try {
            return RunStory.of(directory);
        } catch (RuntimeException e) {
            return List.of("(no account of the run: " + e.getMessage() + ")");
        }
    }
}
