package io.zkchaos.checkers.fenced;

import java.util.List;

/**
 * The fenced-writes checker's findings (the {@code details} of its result).
 *
 * @param accepted      writes acknowledged (ok)
 * @param rejected      writes rejected as stale (fail)
 * @param indeterminate writes with unknown outcome (info)
 * @param logLength     entries in the final log read, or -1 when the history has none
 * @param violations    every breach found
 */
public record FencedReport(int accepted, int rejected, int indeterminate, int logLength,
                           List<FencedViolation> violations) {
}
