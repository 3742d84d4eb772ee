package io.zkchaos.checkers;

import java.util.List;
import java.util.Objects;

/**
 * What a checker concluded about a history.
 *
 * @param checker  the checker's name
 * @param validity the verdict
 * @param summary  one or two sentences a person can act on: why it is invalid or unknown, or what was checked
 * @param details  what the checker found, one of the {@link Findings} records (its kind tells which); null for a
 *                 verdict composed of parts
 * @param parts    results of sub-checkers for a composed check (empty otherwise)
 */
public record CheckResult(String checker, Validity validity, String summary, Findings details,
                          List<CheckResult> parts) {

    public CheckResult {
        Objects.requireNonNull(checker, "checker");
        Objects.requireNonNull(validity, "validity");
        Objects.requireNonNull(summary, "summary");
        if (details != null) {
            Findings.kindOf(details.getClass()); // a kind that could not be read back is refused here, not later
        }
        parts = parts == null ? List.of() : List.copyOf(parts);
    }

    public static CheckResult of(String checker, Validity validity, String summary, Findings details) {
        return new CheckResult(checker, validity, summary, details, List.of());
    }

    /** An unknown verdict for a checker that threw: the error is kept, the run is not crashed. */
    public static CheckResult crashed(String checker, Throwable error) {
        return new CheckResult(checker, Validity.UNKNOWN,
                "checker failed with " + error.getClass().getSimpleName() + ": " + error.getMessage(),
                new CheckerError(error.getClass().getName(), String.valueOf(error.getMessage())), List.of());
    }

    public boolean isValid() {
        return validity == Validity.VALID;
    }

    /** Details of a checker that threw. */
    public record CheckerError(String type, String message) implements Findings {
    }
}
