package io.zkchaos.workloads;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When a run's clients stop: a moment on {@link System#nanoTime()}'s clock that can be moved later, never earlier.
 * The run moves it so that the recovery time after the final heal starts when the heal is done, however long the
 * heal took (restarting a majority, a slow container engine): what the clients see of the recovered ensemble is
 * what that time is for. Workers read it each time they decide whether to go on, so a later end reaches them at
 * their next step; a wait bounded by an earlier value only wakes them to read it again. Thread-safe.
 */
public final class ClientDeadline {

    private final AtomicLong atNanos;

    private ClientDeadline(long atNanos) {
        this.atNanos = new AtomicLong(atNanos);
    }

    /** The end {@code duration} from now. */
    public static ClientDeadline after(Duration duration) {
        return new ClientDeadline(System.nanoTime() + duration.toNanos());
    }

    /** The end, on {@link System#nanoTime()}'s clock. */
    public long atNanos() {
        return atNanos.get();
    }

    /** Whether the end has come. */
    public boolean passed() {
        return System.nanoTime() - atNanos.get() >= 0;
    }

    /** How long until the end; zero once it has come. */
    public long remainingNanos() {
        return Math.max(0, atNanos.get() - System.nanoTime());
    }

    /** Moves the end to {@code duration} from now, when that is later than the end; an earlier one is kept. */
    public void extendBy(Duration duration) {
        long candidate = System.nanoTime() + duration.toNanos();
        atNanos.accumulateAndGet(candidate, (current, later) -> later - current > 0 ? later : current);
    }
}
