package io.zkchaos.checkers.gen;

import io.zkchaos.checkers.gen.Gen.Cursor;
import io.zkchaos.checkers.gen.Gen.Next;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Factories and combinators for {@link Gen}. Every random choice comes from the seed passed to {@code start}. */
public final class Gens {

    private Gens() {
    }

    /**
     * Makes one value at a time from a random source. A producer may keep state (a counter, the last value per key):
     * {@link #from(Supplier)} makes a fresh one per cursor, so the state never leaks between runs.
     */
    @FunctionalInterface
    public interface Producer<T> {
        T next(SplittableRandom random);
    }

    /** An endless generator: each value from a fresh {@code producer.get()} per cursor. */
    public static <T> Gen<T> from(Supplier<? extends Producer<T>> producer) {
        Objects.requireNonNull(producer, "producer");
        return seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            Producer<T> p = producer.get();
            return now -> new Next.Emit<>(p.next(random));
        };
    }

    /** The same value forever. */
    public static <T> Gen<T> repeat(T value) {
        return seed -> now -> new Next.Emit<>(value);
    }

    /** The given values once each, in order. */
    public static <T> Gen<T> each(List<T> values) {
        List<T> copy = List.copyOf(values);
        return seed -> new Cursor<>() {
            int i;

            @Override
            public Next<T> next(long now) {
                return i < copy.size() ? new Next.Emit<>(copy.get(i++)) : new Next.Done<>();
            }
        };
    }

    /** Emits nothing for {@code d}, then is done: a pause between phases. */
    public static <T> Gen<T> sleep(Duration d) {
        long nanos = positive(d, "sleep").toNanos();
        return seed -> new Cursor<>() {
            long startedAt = -1;

            @Override
            public Next<T> next(long now) {
                if (startedAt < 0) {
                    startedAt = now;
                }
                return now - startedAt >= nanos ? new Next.Done<>() : new Next.Pending<>(startedAt + nanos);
            }
        };
    }

    /** A value with a weight for {@link #mix}. */
    public record Weighted<T>(int weight, Producer<T> producer) {
        public Weighted {
            if (weight <= 0) {
                throw new IllegalArgumentException("weight must be positive, got " + weight);
            }
            Objects.requireNonNull(producer, "producer");
        }
    }

    /**
     * An endless weighted mix: each value comes from one of the producers, chosen with probability weight/total. The
     * producers are shared across the mix's lifetime (one cursor), so they may share state via {@code setup}.
     */
    public static <T> Gen<T> mix(Supplier<List<Weighted<T>>> setup) {
        Objects.requireNonNull(setup, "setup");
        return from(() -> {
            List<Weighted<T>> choices = List.copyOf(setup.get());
            if (choices.isEmpty()) {
                throw new IllegalArgumentException("mix needs at least one choice");
            }
            int total = choices.stream().mapToInt(Weighted::weight).sum();
            return random -> {
                int r = random.nextInt(total);
                for (Weighted<T> w : choices) {
                    r -= w.weight();
                    if (r < 0) {
                        return w.producer().next(random);
                    }
                }
                throw new AssertionError("unreachable: weights sum to " + total);
            };
        });
    }

    static <T> Gen<T> until(Gen<T> gen, LongSupplier end) {
        Objects.requireNonNull(end, "end");
        return seed -> {
            Cursor<T> inner = gen.start(seed);
            return new Cursor<>() {
                boolean done;

                @Override
                public Next<T> next(long now) {
                    long stop = end.getAsLong();
                    if (done || now >= stop) {
                        done = true; // over stays over, even if the end moves later afterwards
                        return new Next.Done<>();
                    }
                    Next<T> n = inner.next(now);
                    if (n instanceof Next.Pending<T> p && p.atNanos() >= stop) {
                        return new Next.Pending<>(stop); // wake at the end to report Done, or to find it moved
                    }
                    return n;
                }
            };
        };
    }

    static <T> Gen<T> timeLimit(Gen<T> gen, Duration limit) {
        long nanos = positive(limit, "time limit").toNanos();
        return seed -> {
            Cursor<T> inner = gen.start(seed);
            return new Cursor<>() {
                long startedAt = -1;

                @Override
                public Next<T> next(long now) {
                    if (startedAt < 0) {
                        startedAt = now;
                    }
                    long end = startedAt + nanos;
                    if (now >= end) {
                        return new Next.Done<>();
                    }
                    Next<T> n = inner.next(now);
                    if (n instanceof Next.Pending<T> p && p.atNanos() >= end) {
                        return new Next.Pending<>(end); // wake at the limit to report Done
                    }
                    return n;
                }
            };
        };
    }

    static <T> Gen<T> limit(Gen<T> gen, long count) {
        if (count < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + count);
        }
        return seed -> {
            Cursor<T> inner = gen.start(seed);
            return new Cursor<>() {
                long emitted;

                @Override
                public Next<T> next(long now) {
                    if (emitted >= count) {
                        return new Next.Done<>();
                    }
                    Next<T> n = inner.next(now);
                    if (n instanceof Next.Emit) {
                        emitted++;
                    }
                    return n;
                }
            };
        };
    }

    static <T> Gen<T> rate(Gen<T> gen, double perSecond) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("rate must be a positive finite number per second, got " + perSecond);
        }
        long gap = Math.max(1, (long) (1e9 / perSecond));
        return seed -> spaced(gen.start(seed), random -> gap, null);
    }

    static <T> Gen<T> stagger(Gen<T> gen, Duration mean) {
        long meanNanos = positive(mean, "stagger").toNanos();
        return seed -> {
            // The inner generator and the delays draw from independent streams so adding a stagger does not change
            // which values are produced.
            SplittableRandom delays = new SplittableRandom(seed).split();
            return spaced(gen.start(seed), r -> r.nextLong(2 * meanNanos), delays);
        };
    }

    private interface Gap {
        long next(SplittableRandom random);
    }

    /** Holds back each value of {@code inner} until {@code gap} after the previous one. */
    private static <T> Cursor<T> spaced(Cursor<T> inner, Gap gap, SplittableRandom random) {
        return new Cursor<>() {
            long notBefore = Long.MIN_VALUE;
            boolean first = true;

            @Override
            public Next<T> next(long now) {
                if (first) {
                    first = false;
                    notBefore = now + (random == null ? 0 : gap.next(random));
                }
                if (now < notBefore) {
                    return new Next.Pending<>(notBefore);
                }
                Next<T> n = inner.next(now);
                if (n instanceof Next.Emit) {
                    notBefore = now + gap.next(random);
                }
                return n;
            }
        };
    }

    /** Each generator in turn; each one's clock starts when the previous one is done. */
    public static <T> Gen<T> concat(List<Gen<T>> gens) {
        List<Gen<T>> copy = List.copyOf(gens);
        return seed -> {
            SplittableRandom seeds = new SplittableRandom(seed);
            List<Long> childSeeds = new ArrayList<>();
            for (int i = 0; i < copy.size(); i++) {
                childSeeds.add(seeds.nextLong());
            }
            return new Cursor<>() {
                int i;
                Cursor<T> current;

                @Override
                public Next<T> next(long now) {
                    while (i < copy.size()) {
                        if (current == null) {
                            current = copy.get(i).start(childSeeds.get(i));
                        }
                        Next<T> n = current.next(now);
                        if (!(n instanceof Next.Done)) {
                            return n;
                        }
                        current = null;
                        i++;
                    }
                    return new Next.Done<>();
                }
            };
        };
    }

    /** Drains a cursor as if time jumped straight to each pending instant; for tests and previews. */
    public static <T> List<Timed<T>> preview(Gen<T> gen, long seed, int max) {
        Cursor<T> c = gen.start(seed);
        List<Timed<T>> out = new ArrayList<>();
        long now = 0;
        while (out.size() < max) {
            Next<T> n = c.next(now);
            if (n instanceof Next.Emit<T> e) {
                out.add(new Timed<>(now, e.value()));
            } else if (n instanceof Next.Pending<T> p) {
                now = Math.max(now, p.atNanos());
            } else {
                break;
            }
        }
        return out;
    }

    /** A value with the time (ns) it was emitted at. */
    public record Timed<T>(long atNanos, T value) {
    }

    /** {@code d}, checked to be positive; the error names {@code what}. */
    public static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
        return d;
    }
}
