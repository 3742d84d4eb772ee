package io.zkchaos.checkers;

import io.zkchaos.checkers.history.History;
import java.util.ArrayList;
import java.util.List;

/** Composition of checkers. */
public final class Checkers {

    private Checkers() {
    }

    /**
     * Runs {@code checker}, turning anything it throws into an {@code unknown} result with the error, so one broken
     * checker never loses the verdicts of the others.
     */
    public static CheckResult runSafely(Checker checker, History history) {
        try {
            CheckResult result = checker.check(history);
            if (result == null) {
                return CheckResult.crashed(checker.name(), new IllegalStateException("checker returned no result"));
            }
            return result;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            return CheckResult.crashed(checker.name(), e);
        }
    }

    /** One checker that runs all of {@code checkers} over the same history and merges their verdicts. */
    public static Checker compose(String name, List<? extends Checker> checkers) {
        List<Checker> all = List.copyOf(checkers);
        return new Checker() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CheckResult check(History history) {
                List<CheckResult> parts = new ArrayList<>(all.size());
                Validity merged = Validity.VALID;
                List<String> problems = new ArrayList<>();
                List<String> findings = new ArrayList<>();
                for (Checker c : all) {
                    CheckResult r = runSafely(c, history);
                    parts.add(r);
                    merged = merged.merge(r.validity());
                    if (r.validity() != Validity.VALID) {
                        problems.add(r.checker() + ": " + r.summary());
                    }
                    findings.add(r.checker() + ": " + r.summary());
                }
                // Valid runs still say what each checker found (stale reads, overlaps, failover times).
                String summary = String.join("; ", problems.isEmpty() ? findings : problems);
                return new CheckResult(name, merged, summary, null, parts);
            }
        };
    }
}
