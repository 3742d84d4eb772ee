package io.zkchaos.harness.mutation;

import java.util.List;
import java.util.Objects;

/**
 * A row of the printed matrix: a mutation (or the correct build) in one scenario, with every run of it.
 *
 * @param mutation the bugs, scenario and expectation; null for the correct build
 * @param scenario the scenario
 * @param runs     every run, in seed order
 */
public record MutationRow(Mutation mutation, MutationScenario scenario, List<MutationRun> runs) {

    /** The bug column of the correct build's rows. */
    public static final String CORRECT = "none (correct build)";

    public MutationRow {
        Objects.requireNonNull(scenario, "scenario");
        runs = List.copyOf(runs);
    }

    public boolean correctBuild() {
        return mutation == null;
    }

    public String bugLabel() {
        return correctBuild() ? CORRECT : mutation.bugLabel();
    }

    /** Runs judged invalid. */
    public long caught() {
        return runs.stream().filter(MutationRun::invalid).count();
    }

    /** Runs judged valid. */
    public long valid() {
        return runs.stream().filter(MutationRun::valid).count();
    }

    /**
     * The verdict column: a bug {@code caught} (in every run), {@code caught sometimes}, {@code masked} (expected
     * hidden, and every run valid), {@code not seen} (a rare one, not set up by these runs), {@code NOT CAUGHT}
     * (expected visible, never judged invalid); the correct build
     * {@code valid} (every run) or {@code FALSE ALARM} (any run invalid), {@code unknown} otherwise.
     */
    public String verdict() {
        long n = runs.size();
        if (correctBuild()) {
            return caught() > 0 ? "FALSE ALARM" : valid() == n ? "valid" : "unknown";
        }
        if (caught() == n) {
            return "caught";
        }
        if (caught() > 0) {
            return "caught sometimes";
        }
        if (mutation.expect() == Mutation.Expect.RARE) {
            return "not seen";
        }
        return mutation.expect() == Mutation.Expect.MASKED && valid() == n ? "masked" : "NOT CAUGHT";
    }

    /**
     * Whether the row is as the matrix requires: the correct build valid every time, a visible bug caught at least
     * once; masked and rare rows are reported as they came out.
     */
    public boolean asRequired() {
        if (correctBuild()) {
            return valid() == runs.size();
        }
        return mutation.expect() != Mutation.Expect.CAUGHT || caught() > 0;
    }

    /** The seeds, as {@code 1-5} when consecutive. */
    public String seeds() {
        if (runs.isEmpty()) {
            return "-";
        }
        long first = runs.get(0).seed();
        long last = runs.get(runs.size() - 1).seed();
        boolean consecutive = last - first == runs.size() - 1;
        return runs.size() == 1 ? Long.toString(first) : consecutive ? first + "-" + last
                : String.join(",", runs.stream().map(r -> Long.toString(r.seed())).toList());
    }

    /** What the checkers said: the first invalid run's explanation, a masked row's note, or the valid checkers. */
    public String said() {
        if (!correctBuild() && caught() == 0 && mutation.expect() != Mutation.Expect.CAUGHT) {
            return mutation.note();
        }
        return runs.stream().filter(MutationRun::invalid).findFirst()
                .or(() -> runs.stream().filter(r -> r.validity() == null || !r.valid()).findFirst())
                .or(() -> runs.stream().findFirst()).map(MutationRun::said).orElse("");
    }
}
