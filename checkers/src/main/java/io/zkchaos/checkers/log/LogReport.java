package io.zkchaos.checkers.log;

import io.zkchaos.checkers.Findings;
import java.util.List;

/**
 * The log-prefix checker's findings (the {@code details} of its result).
 *
 * @param nodes      per node, what was read
 * @param longest    length of the longest log read
 * @param violations every breach found
 */
public record LogReport(List<NodeLog> nodes, int longest, List<LogViolation> violations) implements Findings {
}
