package io.zkchaos.results;

import io.zkchaos.checkers.CheckResult;
import java.util.List;

/**
 * The saved form of a verdict: {@code valid} is {@code true}, {@code false} or {@code "unknown"}, as in Jepsen's
 * results files and the CLI's JSON output.
 */
public record ResultsFile(String checker, Object valid, String summary, Object details, List<ResultsFile> parts) {

    public static ResultsFile of(CheckResult r) {
        return new ResultsFile(r.checker(), r.validity().toJson(), r.summary(), r.details(),
                r.parts().stream().map(ResultsFile::of).toList());
    }
}
