package io.zkchaos.nemesis.schedule;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gen.Cursor;
import io.zkchaos.checkers.gen.Gen.Next;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.nemesis.FaultOp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Nemesis schedules: generators of {@link FaultOp}s, pure and reproducible from the seed (a {@link Gen}, the same
 * generator type the workloads use for client operations).
 */
public final class Schedules {

    private Schedules() {
    }

    /**
     * Endless cycles: wait {@code healFor} first (so clients settle), then start a fault chosen at random from
     * {@code faults} (uniformly, from the seed), hold it for {@code faultFor}, stop it, wait {@code healFor}, repeat.
     * Bound it with {@link Gen#timeLimit}; the run loop heals whatever is still active when the schedule ends.
     */
    public static Gen<FaultOp> cycle(Duration faultFor, Duration healFor, List<String> faults) {
        long fault = Gens.positive(faultFor, "fault duration").toNanos();
        long heal = Gens.positive(healFor, "heal duration").toNanos();
        List<String> choices = List.copyOf(faults);
        if (choices.isEmpty()) {
            throw new IllegalArgumentException("a nemesis cycle needs at least one fault");
        }
        return seed -> new Cursor<>() {
            final SplittableRandom random = new SplittableRandom(seed);
            long next = -1;
            String active;

            @Override
            public Next<FaultOp> next(long now) {
                if (next < 0) {
                    next = now + heal;
                }
                if (now < next) {
                    return new Next.Pending<>(next);
                }
                if (active == null) {
                    active = choices.get(random.nextInt(choices.size()));
                    next = now + fault;
                    return new Next.Emit<>(FaultOp.start(active));
                }
                String stopped = active;
                active = null;
                next = now + heal;
                return new Next.Emit<>(FaultOp.stop(stopped));
            }
        };
    }

    /**
     * Compound faults: up to {@code atOnce} faults in force at once, never two of one family, in seeded overlapping
     * windows, each held {@code faultFor} to 1.5 times as long, each lane healed about {@code healFor} between them
     * ({@link ComposedSchedule}). Endless, like {@link #cycle}.
     *
     * @param families each family's faults, by name, in a stable order
     * @throws IllegalArgumentException when there are fewer families than {@code atOnce}, or {@code atOnce < 1}
     */
    public static Gen<FaultOp> compose(Duration faultFor, Duration healFor, Map<String, List<String>> families,
                                       int atOnce) {
        return new ComposedSchedule(Gens.positive(faultFor, "fault duration").toNanos(),
                Gens.positive(healFor, "heal duration").toNanos(), families, atOnce);
    }

    /** One fault: start it after {@code after}, stop it {@code faultFor} later. */
    public static Gen<FaultOp> once(String fault, Duration after, Duration faultFor) {
        return Gens.<FaultOp>sleep(after)
                .then(Gens.each(List.of(FaultOp.start(fault))))
                .then(Gens.sleep(faultFor))
                .then(Gens.each(List.of(FaultOp.stop(fault))));
    }
}
