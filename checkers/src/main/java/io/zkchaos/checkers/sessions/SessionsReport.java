package io.zkchaos.checkers.sessions;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.SortedSet;

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
 * @param cutOffJudged   sessions cut off from every server (frozen, killed, partitioned, their relay silenced by the
 *                       workload) whose ephemerals were held to the expiry bound
 * @param cutOffExcused  cut-off sessions not held to it, each with why
 * @param boundMillis    the bound past the session timeout: ephemerals of a cut-off session are gone from every read
 *                       that begins later than this after the session timeout
 * @param violationCount how many violations were found (the first {@link #SHOWN} are listed)
 * @param violationsByRule how many of each rule
 * @param violations     the first ones
 * @param cutByWorkload  sessions the workload cut off from every server itself ({@code cut}: their own relay
 *                       silenced past their timeout); 0 in reports written before it was counted
 * @param closedFollowed sessions whose own close was acknowledged, that held an ephemeral, and that a read invoked
 *                       after the close followed: promise {@code closed}
 * @param closedByOtherFollowed the same for sessions another handle closed: promise {@code closed-by-other}
 * @param expiredFollowed sessions held to the expiry bound that a read invoked past their timeout plus the bound
 *                       followed: promise {@code expired}
 * @param ephemeralsFollowed the acknowledged ephemerals of the sessions counted in the three above: promise
 *                       {@code ephemerals}
 */
public record SessionsReport(int sessions, int closed, int expiredByOp, int expiredEvents, int ephemerals, int reads,
                             int events, int cutOffJudged, List<String> cutOffExcused, long boundMillis,
                             int violationCount, Map<String, Integer> violationsByRule,
                             List<SessionViolation> violations, int cutByWorkload, int closedFollowed,
                             int closedByOtherFollowed, int expiredFollowed, int ephemeralsFollowed)
        implements Findings, TestsPromises {

    /** The most violations a report lists. */
    public static final int SHOWN = 100;

    /** The promise of sessions the servers expired; a workload names it {@code session-guarantees:expired}. */
    public static final String EXPIRED = "expired";

    public SessionsReport {
        cutOffExcused = List.copyOf(cutOffExcused);
        violationsByRule = Collections.unmodifiableMap(new TreeMap<>(violationsByRule));
        violations = List.copyOf(violations);
    }

    /** A report that counts no promise tested (as one written before they were counted reads back). */
    public SessionsReport(int sessions, int closed, int expiredByOp, int expiredEvents, int ephemerals, int reads,
                          int events, int cutOffJudged, List<String> cutOffExcused, long boundMillis,
                          int violationCount, Map<String, Integer> violationsByRule,
                          List<SessionViolation> violations) {
        this(sessions, closed, expiredByOp, expiredEvents, ephemerals, reads, events, cutOffJudged, cutOffExcused,
                boundMillis, violationCount, violationsByRule, violations, 0, 0, 0, 0, 0);
    }

    /** {@code closed}, {@code closed-by-other}, {@code expired}, {@code ephemerals}, from the fields above. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("closed", "a session closed by its own client has its ephemerals gone from every "
                        + "read after the close was acknowledged", closedFollowed),
                new PromiseTally("closed-by-other", "a session another handle closed has its ephemerals gone from "
                        + "every read after that close was acknowledged", closedByOtherFollowed),
                new PromiseTally(EXPIRED, "a session the servers expired (cut off from every server past its "
                        + "timeout) has its ephemerals gone within its timeout plus " + boundMillis + " ms",
                        expiredFollowed),
                new PromiseTally("ephemerals", "an ephemeral goes with its session: ephemerals of ended sessions "
                        + "followed to their end", ephemeralsFollowed));
    }

    /** Every rule broken: the violations listed are the first ones only, {@code violationsByRule} has them all. */
    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(violations, SessionViolation::rule)
                .all(violationsByRule == null ? null : violationsByRule.keySet()).build();
    }
}
