package io.zkchaos.checkers.sessions;

import io.zkchaos.checkers.Findings;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code session-guarantees} checker's findings (the {@code details} of its result).
 *
 * @param sessions       sessions opened (ok {@code open})
 * @param closed         sessions whose close was acknowledged
 * @param expiredByOp    sessions another handle closed (ok {@code expire})
 * @param expiredEvents  sessions whose client reported {@code Expired}
 * @param ephemerals     ephemeral creates acknowledged
 * @param reads          ok reads of the ephemerals
 * @param events         events recorded (state changes and watch notifications)
 * @param cutOffJudged   sessions cut off from every server (frozen, killed, partitioned) whose ephemerals were held
 *                       to the expiry bound
 * @param cutOffExcused  cut-off sessions not held to it, each with why
 * @param boundMillis    the bound past the session timeout: ephemerals of a cut-off session are gone from every read
 *                       that begins later than this after the session timeout
 * @param violationCount how many violations were found (the first {@link #SHOWN} are listed)
 * @param violationsByRule how many of each rule
 * @param violations     the first ones
 */
public record SessionsReport(int sessions, int closed, int expiredByOp, int expiredEvents, int ephemerals, int reads,
                             int events, int cutOffJudged, List<String> cutOffExcused, long boundMillis,
                             int violationCount, Map<String, Integer> violationsByRule,
                             List<SessionViolation> violations) implements Findings {

    /** The most violations a report lists. */
    public static final int SHOWN = 100;

    public SessionsReport {
        cutOffExcused = List.copyOf(cutOffExcused);
        violationsByRule = Collections.unmodifiableMap(new TreeMap<>(violationsByRule));
        violations = List.copyOf(violations);
    }
}
