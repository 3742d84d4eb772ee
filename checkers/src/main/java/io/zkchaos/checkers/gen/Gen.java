package io.zkchaos.checkers.gen;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * An immutable, seeded description of a sequence of values over time (client operations, nemesis actions).
 *
 * <p>A {@code Gen} holds no state: {@link #start(long)} makes a fresh {@link Cursor} whose whole output is a function
 * of the seed and of the times it is asked at. Two cursors started with the same seed and asked at the same times
 * give the same values — that is what makes a run reproducible from its seed. Randomness comes only from the seed.
 *
 * @param <T> what the generator yields
 */
@FunctionalInterface
public interface Gen<T> {

    /** A fresh cursor at the beginning of the sequence. */
    Cursor<T> start(long seed);

    /** Walks a {@link Gen}. Not thread-safe: one owner asks it (the run loop, under its lock). */
    interface Cursor<T> {

        /**
         * The next value at {@code nowNanos} (time since the cursor's phase started, never decreasing between calls).
         * Returns {@link Next.Emit} with a value, {@link Next.Pending} when nothing is due before a later time, or
         * {@link Next.Done} when the sequence is over (and will stay over).
         */
        Next<T> next(long nowNanos);
    }

    /** What a cursor answers. */
    sealed interface Next<T> permits Next.Emit, Next.Pending, Next.Done {

        /** A value, due now. */
        record Emit<T>(T value) implements Next<T> {
        }

        /** Nothing before {@code atNanos}: ask again then. */
        record Pending<T>(long atNanos) implements Next<T> {
        }

        /** The sequence is over. */
        record Done<T>() implements Next<T> {
        }
    }

    // ---- combinators -------------------------------------------------------------------------------------------

    /** Stops this generator at {@code limit} after its first call. */
    default Gen<T> timeLimit(Duration limit) {
        return Gens.timeLimit(this, limit);
    }

    /**
     * Stops this generator once the cursor's clock reaches {@code end}, read at every call: an end that moves later
     * lets it go on (a run's clients whose recovery time is extended).
     */
    default Gen<T> until(LongSupplier end) {
        return Gens.until(this, end);
    }

    /** Emits at most {@code count} values. */
    default Gen<T> limit(long count) {
        return Gens.limit(this, count);
    }

    /** At most {@code perSecond} values per second: successive values are at least 1/perSecond apart. */
    default Gen<T> rate(double perSecond) {
        return Gens.rate(this, perSecond);
    }

    /** A seeded random pause, uniform in [0, 2*mean), before each value (so the mean rate is 1/mean). */
    default Gen<T> stagger(Duration mean) {
        return Gens.stagger(this, mean);
    }

    /** This generator, then {@code next} (whose clock starts when this one is done). */
    default Gen<T> then(Gen<T> next) {
        Objects.requireNonNull(next, "next");
        return Gens.concat(List.of(this, next));
    }
}
