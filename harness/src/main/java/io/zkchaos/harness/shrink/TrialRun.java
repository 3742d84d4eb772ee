package io.zkchaos.harness.shrink;

import io.zkchaos.checkers.Validity;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One run of a replay or of a shrink step, as judged: its verdict, its kinds of finding
 * ({@link io.zkchaos.results.FindingKind}), and whether it exercised what its verdict needs.
 *
 * @param directory       its run directory, or null when it could not be made
 * @param verdict         its verdict, or null when the run failed before it was checked ({@code error} says why)
 * @param kinds           its kinds of finding ({@code checker:kind})
 * @param exercisedEnough whether it met its evidence minimum; a run below it found nothing that counts
 * @param error           why the run could not be done, or null
 */
public record TrialRun(Path directory, Validity verdict, SortedSet<String> kinds, boolean exercisedEnough,
                       String error) {

    public TrialRun {
        kinds = Collections.unmodifiableSortedSet(new TreeSet<>(kinds == null ? Set.of() : kinds));
    }

    /** A run the harness could not do. */
    public static TrialRun failed(Path directory, String error) {
        return new TrialRun(directory, null, new TreeSet<>(), false, error);
    }

    /** Whether it found one of {@code findings}, having exercised enough for that to count. */
    public boolean reproduces(Set<String> findings) {
        return exercisedEnough && kinds.stream().anyMatch(findings::contains);
    }

    /**
     * One word for people: the verdict, with what kept it from counting. An error's first line only (a server's log
     * tail may follow it): the whole of it is in the runs' log.
     */
    public String outcome() {
        if (verdict == null) {
            return "ERROR (" + (error == null ? "" : error.lines().findFirst().orElse("")) + ")";
        }
        String v = io.zkchaos.results.Verdicts.word(verdict);
        if (!exercisedEnough) {
            return v + " (exercised too little)";
        }
        return kinds.isEmpty() ? v : v + " " + String.join(", ", kinds);
    }
}
