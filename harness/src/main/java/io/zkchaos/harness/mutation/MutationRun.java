package io.zkchaos.harness.mutation;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import java.nio.file.Path;
import java.util.Map;

/**
 * One run of a row: its seed, the verdict, what the checkers said, where it lies, how often the bugs' code paths ran.
 *
 * @param seed         the run's seed
 * @param validity     the composed verdict; null when the harness could not complete the run (see {@code said})
 * @param said         for an invalid run the first invalid checker's explanation; else a short summary
 * @param directory    the run directory (null when the run could not start)
 * @param bugCodePaths per switched-on bug flag, how often its code path ran on the nodes over the run (added up
 *                     across restarts: {@link io.zkchaos.harness.run.RunOutcome#bugCodePaths()}); empty for the
 *                     correct build and for a run the harness could not complete
 */
public record MutationRun(long seed, Validity validity, String said, Path directory, Map<String, Long> bugCodePaths) {

    public MutationRun {
        bugCodePaths = Map.copyOf(bugCodePaths);
    }

    /** What a checker said, cut to a table cell. */
    static final int SAID_LENGTH = 220;

    /** A finished run. */
    static MutationRun of(long seed, CheckResult result, Path directory, Map<String, Long> bugCodePaths) {
        return new MutationRun(seed, result.validity(), said(result), directory, bugCodePaths);
    }

    /** A run the harness could not complete (no verdict, no counts). */
    static MutationRun failed(long seed, String why, Path directory) {
        return new MutationRun(seed, null, "harness error: " + why, directory, Map.of());
    }

    /** Whether the harness could not complete the run. */
    public boolean harnessError() {
        return validity == null;
    }

    /** How often {@code flag}'s code path ran in this run (0 when the nodes never reported it). */
    public long codePathRuns(String flag) {
        return bugCodePaths.getOrDefault(flag, 0L);
    }

    public boolean invalid() {
        return validity == Validity.INVALID;
    }

    public boolean valid() {
        return validity == Validity.VALID;
    }

    private static String said(CheckResult r) {
        if (r.validity() == Validity.VALID) {
            return "valid: " + String.join(", ", r.parts().stream().map(CheckResult::checker).toList());
        }
        CheckResult first = r.parts().stream().filter(p -> p.validity() == r.validity()).findFirst().orElse(r);
        return cut(first.checker() + ": " + first.summary());
    }

    static String cut(String s) {
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() <= SAID_LENGTH ? one : one.substring(0, SAID_LENGTH - 3) + "...";
    }
}
