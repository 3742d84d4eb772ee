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
 * @param duration    how long the clients work as planned (a run may move their end later: {@code deadline})
 * @param deadline    when the clients stop, read at every step: the run moves it later while its final heal goes on
 */
public record RunContext(Target target, HistoryRecorder recorder, long seed, int concurrency, Duration duration,
                         ClientDeadline deadline) {

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
        Objects.requireNonNull(deadline, "deadline");
    }

    /** A context whose clients stop {@code duration} from now, an end nobody moves. */
    public RunContext(Target target, HistoryRecorder recorder, long seed, int concurrency, Duration duration) {
        this(target, recorder, seed, concurrency, duration, ClientDeadline.after(duration));
    }

    /** This context with another target, recorder, seed and concurrency; the same end. */
    public RunContext with(Target target, HistoryRecorder recorder, long seed, int concurrency) {
        return new RunContext(target, recorder, seed, concurrency, duration, deadline);
    }
}
