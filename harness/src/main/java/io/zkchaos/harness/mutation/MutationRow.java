package io.zkchaos.harness.mutation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A row of the printed matrix: a mutation (or the correct build) in one scenario, with every run of it.
 *
 * <p>A bug row that no checker caught is told apart by what the nodes counted ({@link MutationRun#bugCodePaths()}):
 * <b>masked</b> when the bug's code path ran in runs the checkers judged valid — the mistake happened and no client
 * could see it — and <b>not triggered</b> when it never ran, so the runs tested nothing.
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

    /** Whether every run was a harness error (or there was none): the row says nothing about the system. */
    public boolean onlyHarnessErrors() {
        return runs.stream().allMatch(MutationRun::harnessError);
    }

    /** How often {@code flag}'s code path ran, over every run of the row. */
    public long codePathRuns(String flag) {
        return runs.stream().mapToLong(r -> r.codePathRuns(flag)).sum();
    }

    /** Whether every flag of the row had its code path run in some run the checkers judged valid. */
    public boolean triggeredInValidRuns() {
        return !correctBuild() && mutation.bugs().stream().allMatch(flag -> runs.stream()
                .anyMatch(r -> r.valid() && r.codePathRuns(flag) > 0));
    }

    /**
     * The verdict column. A bug row: {@code caught} (in every run), {@code caught sometimes}, and when no run was
     * caught {@code NOT CAUGHT} (a bug expected visible), {@code masked} (its code path ran in valid runs),
     * {@code not triggered} (it never ran in a valid run) or {@code unknown} (no run was judged valid). The correct
     * build: {@code valid} (every run), {@code FALSE ALARM} (any run invalid), {@code unknown} otherwise. Either:
     * {@code harness error} when no run completed.
     */
    public String verdict() {
        long n = runs.size();
        if (onlyHarnessErrors()) {
            return "harness error";
        }
        if (correctBuild()) {
            return caught() > 0 ? "FALSE ALARM" : valid() == n ? "valid" : "unknown";
        }
        if (caught() == n) {
            return "caught";
        }
        if (caught() > 0) {
            return "caught sometimes";
        }
        if (mutation.expect() == Mutation.Expect.CAUGHT) {
            return "NOT CAUGHT";
        }
        if (valid() == 0) {
            return "unknown";
        }
        return triggeredInValidRuns() ? "masked" : "not triggered";
    }

    /**
     * Whether the row is as the matrix requires: the correct build valid every time; a visible bug caught at least
     * once; any other bug caught, or masked with evidence (its code path ran in a valid run). A row whose runs were
     * all harness errors is never accepted.
     */
    public boolean asRequired() {
        if (onlyHarnessErrors()) {
            return false;
        }
        if (correctBuild()) {
            return valid() == runs.size();
        }
        if (caught() > 0) {
            return true;
        }
        return mutation.expect() != Mutation.Expect.CAUGHT && triggeredInValidRuns();
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

    /**
     * The code path column: per flag of the row, how often its code path ran over the runs and, with several runs, in
     * each ({@code ?} for a harness error): {@code 792 (412, 380)}; flags named when the row has several; {@code -}
     * for the correct build.
     */
    public String codePaths() {
        if (correctBuild()) {
            return "-";
        }
        List<String> cells = new ArrayList<>();
        for (String flag : mutation.bugs()) {
            StringBuilder cell = new StringBuilder();
            if (mutation.bugs().size() > 1) {
                cell.append(flag).append(' ');
            }
            cell.append(codePathRuns(flag));
            if (runs.size() > 1) {
                cell.append(runs.stream().map(r -> r.harnessError() ? "?" : Long.toString(r.codePathRuns(flag)))
                        .collect(Collectors.joining(", ", " (", ")")));
            }
            cells.add(cell.toString());
        }
        return String.join("; ", cells);
    }

    /**
     * What the checkers said: the first invalid run's explanation; for a masked or not triggered row, what the code
     * path counts show and the row's note (what was expected, and why); else the first run that was not valid, or
     * the valid checkers.
     */
    public String said() {
        String verdict = verdict();
        if (verdict.equals("masked")) {
            return codePathsRan() + ", no client could see it; expected " + mutation.note();
        }
        if (verdict.equals("not triggered")) {
            return (mutation.bugs().size() > 1 ? "not every code path ran in a valid run; expected "
                    : "its code path never ran in a valid run; expected ") + mutation.note();
        }
        return runs.stream().filter(MutationRun::invalid).findFirst()
                .or(() -> runs.stream().filter(r -> r.validity() == null || !r.valid()).findFirst())
                .or(() -> runs.stream().findFirst()).map(MutationRun::said).orElse("");
    }

    private String codePathsRan() {
        if (mutation.bugs().size() == 1) {
            return "its code path ran " + codePathRuns(mutation.bugs().get(0)) + " times";
        }
        return "their code paths ran " + mutation.bugs().stream().map(f -> f + " " + codePathRuns(f))
                .collect(Collectors.joining(", ")) + " times";
    }
}
