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
                for (Checker c : all) {
                    parts.add(runSafely(c, history));
                }
                return merged(name, parts);
            }
        };
    }

    /**
     * {@code composed} with one more part (the run's evidence, say), its verdict merged in: the parts of a composed
     * result are kept as they are, a single result becomes the first part.
     */
    public static CheckResult withPart(CheckResult composed, CheckResult part) {
        List<CheckResult> parts = new ArrayList<>(composed.parts().isEmpty() ? List.of(composed) : composed.parts());
        parts.add(part);
        return merged(composed.checker(), parts);
    }

    /** One result over {@code parts}: their merged verdict, and what is wrong (or, if nothing, what each found). */
    private static CheckResult merged(String name, List<CheckResult> parts) {
        Validity merged = Validity.VALID;
        List<String> problems = new ArrayList<>();
        List<String> findings = new ArrayList<>();
        for (CheckResult r : parts) {
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
}
