package io.zkchaos.checkers;

import io.zkchaos.checkers.leader.SingleLeaderChecker;
import java.time.Duration;

/**
 * The settings of every checker, typed; each checker uses the ones its {@link CheckerDescriptor} names. The defaults
 * live here and nowhere else: the CLI and the run configuration read them from {@link #defaults()}.
 *
 * @param model         the linearizability model's name ({@code register}, {@code cas-register}, ...), or null
 * @param init          the model's initial value as plain data (a Long, a String, a Map ...), or null for nil
 * @param timeLimit     the search budget, or null for none
 * @param strict        zk-read-model: stale plain reads fail
 * @param maxOverlap    single-leader: overlaps longer than this fail; null: overlaps are reported, never failed
 * @param failoverBound single-leader: a leader again within this after every heal
 * @param relax         the ids of the evidence requirements a run is not held to
 *                      ({@link io.zkchaos.checkers.evidence.Minimum}); {@code all} for none
 * @param logRules      server: a file of the user's own server-log rules, read before the built-in ones; null for
 *                      none ({@code --log-rules})
 * @param availabilityBound availability: how long writes through a whole server may go unacknowledged while a
 *                      majority is whole; null for the default derived from the run's timing
 *                      ({@code --availability-bound})
 */
public record CheckerOptions(String model, Object init, Duration timeLimit, boolean strict, Duration maxOverlap,
                             Duration failoverBound, java.util.List<String> relax,
                             @com.fasterxml.jackson.annotation.JsonInclude(
                                     com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) String logRules,
                             @com.fasterxml.jackson.annotation.JsonInclude(
                                     com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             Duration availabilityBound) {

    public CheckerOptions {
        relax = relax == null ? java.util.List.of() : java.util.List.copyOf(relax);
        if (availabilityBound != null && (availabilityBound.isNegative() || availabilityBound.isZero())) {
            throw new IllegalArgumentException("availability-bound must be positive, got " + availabilityBound);
        }
        if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
            throw new IllegalArgumentException("time-limit must be positive, got " + timeLimit);
        }
        if (maxOverlap != null && maxOverlap.isNegative()) {
            throw new IllegalArgumentException("max-overlap must not be negative, got " + maxOverlap);
        }
        if (failoverBound == null || failoverBound.isNegative() || failoverBound.isZero()) {
            throw new IllegalArgumentException("failover-bound must be positive, got " + failoverBound);
        }
    }

    /** No model, nil init, no time limit, not strict, overlaps never fail, failover bound 30 s, nothing relaxed. */
    public static CheckerOptions defaults() {
        return new CheckerOptions(null, null, null, false, null, SingleLeaderChecker.DEFAULT_FAILOVER_BOUND,
                java.util.List.of(), null, null);
    }

    /**
     * The settings a harness run is judged with. They differ from {@link #defaults()} (what {@code check} uses on a
     * history of unknown origin) on purpose: a run knows its timing, so its failover bound is session timeout +
     * initLimit × tickTime + a margin (an orphaned node ahead in the election queue must expire first), 10 s with the
     * default 4 s sessions; and the linearizability search gets a 60 s budget so a run always ends in a verdict.
     */
    public static CheckerOptions forRuns() {
        return defaults().withFailoverBound(RUN_FAILOVER_BOUND).withTimeLimit(RUN_SEARCH_BUDGET);
    }

    /** A run's failover bound ({@link #forRuns()}). */
    public static final Duration RUN_FAILOVER_BOUND = Duration.ofSeconds(10);
    /** A run's linearizability search budget ({@link #forRuns()}). */
    public static final Duration RUN_SEARCH_BUDGET = Duration.ofSeconds(60);

    public CheckerOptions withModel(String m, Object i) {
        return new CheckerOptions(m, i, timeLimit, strict, maxOverlap, failoverBound, relax, logRules,
                availabilityBound);
    }

    public CheckerOptions withTimeLimit(Duration d) {
        return new CheckerOptions(model, init, d, strict, maxOverlap, failoverBound, relax, logRules,
                availabilityBound);
    }

    public CheckerOptions withStrict(boolean s) {
        return new CheckerOptions(model, init, timeLimit, s, maxOverlap, failoverBound, relax, logRules,
                availabilityBound);
    }

    public CheckerOptions withMaxOverlap(Duration d) {
        return new CheckerOptions(model, init, timeLimit, strict, d, failoverBound, relax, logRules,
                availabilityBound);
    }

    /** These settings with the evidence requirements {@code ids} relaxed. */
    public CheckerOptions withRelax(java.util.List<String> ids) {
        return new CheckerOptions(model, init, timeLimit, strict, maxOverlap, failoverBound, ids, logRules,
                availabilityBound);
    }

    public CheckerOptions withFailoverBound(Duration d) {
        return new CheckerOptions(model, init, timeLimit, strict, maxOverlap, d, relax, logRules,
                availabilityBound);
    }

    /** These settings with the user's own server-log rules ({@code --log-rules}); null for none. */
    public CheckerOptions withLogRules(String file) {
        return new CheckerOptions(model, init, timeLimit, strict, maxOverlap, failoverBound, relax, file,
                availabilityBound);
    }

    /** These settings with the availability bound ({@code --availability-bound}); null for the run's default. */
    public CheckerOptions withAvailabilityBound(Duration d) {
        return new CheckerOptions(model, init, timeLimit, strict, maxOverlap, failoverBound, relax, logRules, d);
    }
}
