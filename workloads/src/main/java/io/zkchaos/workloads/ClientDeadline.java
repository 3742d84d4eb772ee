package io.zkchaos.workloads;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When a run's clients stop: a moment on {@link System#nanoTime()}'s clock that can be moved later, never earlier.
 * The run moves it so that the recovery time after the final heal starts when the heal is done, however long the
 * heal took (restarting a majority, a slow container engine): what the clients see of the recovered ensemble is
 * what that time is for. Workers read it each time they decide whether to go on, so a later end reaches them at
 * their next step; a wait bounded by an earlier value only wakes them to read it again. A test that has seen what
 * it waits for may {@link #stop} the clients at once instead. Thread-safe.
 */
public final class ClientDeadline {

    private final AtomicLong atNanos;
    /** When {@link #stop} was called, on {@link System#nanoTime()}'s clock; meaningful once {@code stopped}. */
    private volatile long stoppedAtNanos;
    private volatile boolean stopped;

    private ClientDeadline(long atNanos) {
        this.atNanos = new AtomicLong(atNanos);
    }

    /** The end {@code duration} from now. */
    public static ClientDeadline after(Duration duration) {
        return new ClientDeadline(System.nanoTime() + duration.toNanos());
    }

    /** The end, on {@link System#nanoTime()}'s clock (when stopped: the stop, if that came first). */
    public long atNanos() {
        long at = atNanos.get();
        return stopped && stoppedAtNanos - at < 0 ? stoppedAtNanos : at;
    }

    /** Whether the end has come. */
    public boolean passed() {
        return stopped || System.nanoTime() - atNanos.get() >= 0;
    }

    /** How long until the end; zero once it has come. */
    public long remainingNanos() {
        return stopped ? 0 : Math.max(0, atNanos.get() - System.nanoTime());
    }

    /**
     * Ends the clients now, before their end: each finishes the operation it has in flight (its outcome recorded as
     * always) and stops, as at the end. For a test that has seen all it waits for; a run's clients run their time.
     * A worker waiting with a bound taken from the end sees it when that wait ends (workloads wait in short slices).
     */
    public void stop() {
        stoppedAtNanos = System.nanoTime();
        stopped = true;
    }

    /** Moves the end to {@code duration} from now, when that is later than the end; an earlier one is kept. */
    public void extendBy(Duration duration) {
        long candidate = System.nanoTime() + duration.toNanos();
        atNanos.accumulateAndGet(candidate, (current, later) -> later - current > 0 ? later : current);
    }
}
