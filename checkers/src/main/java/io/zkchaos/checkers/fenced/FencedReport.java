package io.zkchaos.checkers.fenced;

import io.zkchaos.checkers.Findings;
import java.util.List;

/**
 * The fenced-writes checker's findings (the {@code details} of its result).
 *
 * @param accepted      writes acknowledged (ok)
 * @param rejected      writes rejected as stale (fail)
 * @param indeterminate writes with unknown outcome (info)
 * @param logLength     entries in the final log read, or -1 when the history has none
 * @param staleLanded   distinct writes that landed stale: accepted after a write with a higher token had been
 *                      accepted (in real time, or in the store's log order) — what fencing exists to prevent
 * @param violations    every breach found
 */
public record FencedReport(int accepted, int rejected, int indeterminate, int logLength, int staleLanded,
                           List<FencedViolation> violations) implements Findings {
}
