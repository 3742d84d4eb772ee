package io.zkchaos.results;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import java.util.List;

/**
 * The saved form of a verdict: {@code valid} is {@code true}, {@code false} or {@code "unknown"}, as in Jepsen's
 * results files and the CLI's JSON output; {@code details} is the checker's {@link Findings}, with its {@code kind}.
 * It is written from a {@link CheckResult} and read back into one.
 */
public record ResultsFile(String checker, Object valid, String summary, Findings details, List<ResultsFile> parts) {

    public static ResultsFile of(CheckResult r) {
        return new ResultsFile(r.checker(), r.validity().toJson(), r.summary(), r.details(),
                r.parts().stream().map(ResultsFile::of).toList());
    }

    /**
     * The verdict this file holds. Details saved without a {@code kind} (by a zk-chaos before findings had one) come
     * back as {@link Findings.Untyped}.
     *
     * @throws IllegalArgumentException if {@code valid} is not {@code true}, {@code false} or {@code "unknown"}, or a
     *                                  checker or summary is missing
     */
    public CheckResult toCheckResult() {
        if (checker == null || summary == null) {
            throw new IllegalArgumentException("a result needs \"checker\" and \"summary\", got checker " + checker
                    + " and summary " + summary);
        }
        return new CheckResult(checker, Verdicts.fromJson(valid), summary, details,
                parts == null ? List.of() : parts.stream().map(ResultsFile::toCheckResult).toList());
    }
}
