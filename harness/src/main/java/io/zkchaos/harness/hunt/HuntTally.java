package io.zkchaos.harness.hunt;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.shrink.TrialRun;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one hunt row's runs came to: how many, their verdicts, the findings by kind and the time they took.
 *
 * <p>A finding counts only where the run was INVALID and met its evidence minimum (Jepsen's rule for a result: a run
 * that exercised too little found nothing); an unknown or errored run is counted as such, never as a finding.
 *
 * @param row      the row
 * @param runs     runs done
 * @param valid    runs judged valid
 * @param invalid  runs with a finding that counts
 * @param unknown  runs judged unknown, or invalid below their evidence minimum
 * @param errors   runs the harness could not do
 * @param findings runs per kind of finding ({@code checker:kind}); a run may have several kinds
 * @param time     the wall time of the row's runs
 */
public record HuntTally(HuntRow row, int runs, int valid, int invalid, int unknown, int errors,
                        SortedMap<String, Integer> findings, Duration time) {

    public HuntTally {
        findings = Collections.unmodifiableSortedMap(new TreeMap<>(findings));
    }

    /** A row not run yet. */
    public static HuntTally empty(HuntRow row) {
        return new HuntTally(row, 0, 0, 0, 0, 0, new TreeMap<>(), Duration.ZERO);
    }

    /** This tally with one more run, which took {@code took}. */
    public HuntTally plus(TrialRun run, Duration took) {
        SortedMap<String, Integer> kinds = new TreeMap<>(findings);
        int v = valid;
        int i = invalid;
        int u = unknown;
        int e = errors;
        if (run.verdict() == null) {
            e++;
        } else if (run.verdict() == Validity.INVALID && run.exercisedEnough()) {
            i++;
            run.kinds().forEach(k -> kinds.merge(k, 1, Integer::sum));
        } else if (run.verdict() == Validity.VALID) {
            v++;
        } else {
            u++;
        }
        return new HuntTally(row, runs + 1, v, i, u, e, kinds, time.plus(took));
    }

    /** Runs with a finding per hour of this row's wall time (0 before any time was spent). */
    public double findingsPerHour() {
        return time.isZero() ? 0 : invalid / (time.toMillis() / 3_600_000.0);
    }

    /** The kinds with their counts, for a table cell: {@code no-lost-commit:lost 2, watches:ordering 1}. */
    public String kindsText() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Integer> k : findings.entrySet()) {
            b.append(b.isEmpty() ? "" : ", ").append(k.getKey()).append(' ').append(k.getValue());
        }
        return b.isEmpty() ? "-" : b.toString();
    }
}
