package io.zkchaos.nemesis.schedule;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gen.Cursor;
import io.zkchaos.checkers.gen.Gen.Next;
import io.zkchaos.nemesis.FaultOp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Compound faults: up to {@code lanes} faults in force at once, never two of one family, in seeded windows that
 * overlap. Each lane is a cycle of its own (healed, a fault, healed, ...): the first starts after the heal time, each
 * next one a seeded part of a hold later, so their windows overlap from the start and drift apart and together as the
 * seeded lengths differ (a hold of 1 to 1.5 times {@code hold}, a heal of 0.5 to 1.5 times {@code heal}). A lane that
 * starts a fault draws a family none of the other lanes holds, then one of its faults.
 *
 * <p>Every time and choice is planned from the seed alone, never from when the driver asked: the same seed gives the
 * same operations in the same order at the same times, and a family's stop always comes before its next start (a
 * stop undoes its whole family's harm, so the driver, which acts in this order, never lets one family's faults
 * overlap).
 */
final class ComposedSchedule implements Gen<FaultOp> {

    private final long hold;
    private final long heal;
    private final Map<String, List<String>> families;
    private final int lanes;

    /**
     * @param holdNanos how long each fault is held at least
     * @param healNanos the healed time before the first fault of a lane and, on average, between its faults
     * @param families  each family's faults, by name (at least {@code lanes} families, none empty)
     * @param lanes     the most faults at once
     */
    ComposedSchedule(long holdNanos, long healNanos, Map<String, List<String>> families, int lanes) {
        this.hold = holdNanos;
        this.heal = healNanos;
        Map<String, List<String>> copy = new LinkedHashMap<>();
        families.forEach((family, faults) -> {
            if (faults.isEmpty()) {
                throw new IllegalArgumentException("fault family '" + family + "' has no faults");
            }
            copy.put(family, List.copyOf(faults));
        });
        this.families = copy;
        if (lanes < 1 || lanes > copy.size()) {
            throw new IllegalArgumentException("up to " + lanes + " faults at once, each of another family, needs "
                    + "at least " + lanes + " families; there are " + copy.size() + " " + copy.keySet());
        }
        this.lanes = lanes;
    }

    @Override
    public Cursor<FaultOp> start(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] due = new long[lanes];
        String[] fault = new String[lanes];
        String[] family = new String[lanes];
        for (int i = 0; i < lanes; i++) {
            // staggered by a share of a hold, so that the lanes' first faults overlap rather than start together
            due[i] = heal + i * hold / lanes + random.nextLong(hold / (2L * lanes) + 1);
        }
        Set<String> held = new HashSet<>();
        return now -> {
            int lane = 0;
            for (int i = 1; i < lanes; i++) {
                if (due[i] < due[lane]) {
                    lane = i;
                }
            }
            if (now < due[lane]) {
                return new Next.Pending<>(due[lane]);
            }
            if (fault[lane] == null) {
                List<String> free = new ArrayList<>(families.keySet());
                free.removeAll(held);
                family[lane] = free.get(random.nextInt(free.size()));
                List<String> faults = families.get(family[lane]);
                fault[lane] = faults.get(random.nextInt(faults.size()));
                held.add(family[lane]);
                due[lane] += hold + random.nextLong(hold / 2 + 1);
                return new Next.Emit<>(FaultOp.start(fault[lane]));
            }
            String stopped = fault[lane];
            held.remove(family[lane]);
            fault[lane] = null;
            family[lane] = null;
            due[lane] += heal / 2 + random.nextLong(heal + 1);
            return new Next.Emit<>(FaultOp.stop(stopped));
        };
    }
}
