package io.zkchaos.workloads;

import io.zkchaos.checkers.history.HistoryRecorder;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything a workload's main phase needs; one immutable value.
 *
 * @param target      where to connect
 * @param recorder    where every operation goes (thread-safe)
 * @param seed        the seed of every random choice the workload makes
 * @param concurrency how many client processes run at once (each retired process is replaced)
 * @param duration    how long the main phase lasts at most
 * @param stop        ends the main phase before {@code duration} when requested (see {@link Stop})
 */
public record RunContext(Target target, HistoryRecorder recorder, long seed, int concurrency, Duration duration,
                         Stop stop) {

    public RunContext {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(recorder, "recorder");
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        Objects.requireNonNull(stop, "stop");
    }

    /** A main phase of exactly {@code duration}: nobody can stop it early. */
    public RunContext(Target target, HistoryRecorder recorder, long seed, int concurrency, Duration duration) {
        this(target, recorder, seed, concurrency, duration, new Stop());
    }

    /** Whether the main phase is over: {@code deadlineNanos} (on {@link System#nanoTime()}) passed, or a stop. */
    public boolean over(long deadlineNanos) {
        return stop.requested() || System.nanoTime() - deadlineNanos >= 0;
    }

    /**
     * A request to end a main phase early, for a test that has seen what it waits for and would otherwise wait out
     * the rest of a run it gave a generous, fixed length. The workloads that honour it ({@link ClientWorkload}'s, the
     * election and fenced-writes workloads) end as at their time limit: each client finishes the operation it has
     * in flight (its outcome recorded as always), then closes. The others run their full duration.
     */
    public static final class Stop {
        private volatile boolean requested;

        /** Asks the main phase to end. */
        public void request() {
            requested = true;
        }

        public boolean requested() {
            return requested;
        }
    }
}
