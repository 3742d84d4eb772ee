package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.ClockControl;
import io.zkchaos.nemesis.ClockReading;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.Felt;
import io.zkchaos.nemesis.NemesisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The faults of {@link Fault.Family#CLOCK}: the servers' wall clocks moved (skewed, bumped, strobed) while their
 * monotonic clocks run on, as on a machine whose time is set ({@link ClockControl#setClockOffset}); undone by
 * {@link #resetClocks}. They need a system that implements {@link ClockControl}; on one that does not they cannot
 * act, and say so. Every start acts, then returns what it did as a {@link FaultRecord} named for the fault being run.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class ClockFaults {

    /** How far a clock read back may be from the offset asked and still show it: the log's ms, a scheduler's hiccup. */
    static final long CLOCK_SLACK_MILLIS = 250;

    private final Acting on;

    /** @param fault the fault being run: the name its records carry */
    public ClockFaults(NemesisTarget target, String fault) {
        this.on = new Acting(target, fault);
    }

    /**
     * Skews every node's wall clock by its own seeded offset in {@code [-max, +max]} (millisecond steps), as on
     * machines whose clocks were never synchronized; {@link #resetClocks} ends it.
     */
    public FaultRecord skewClocks(Duration max) {
        Map<String, Duration> offsets = new LinkedHashMap<>();
        for (String node : on.cluster.nodes()) {
            // [0, 2max] shifted down by max: a choice of the schedule is a non-negative number
            offsets.put(node, Duration.ofMillis(on.choices.upTo("clock-offset-ms", 2 * max.toMillis())
                    - max.toMillis()));
        }
        return setClocks("skew the clock of", offsets);
    }

    /**
     * Jumps one random running node's wall clock forward or back (a seeded sign) by a seeded amount in
     * {@code [least, most]}, as a {@code date -s} or an NTP step does; {@link #resetClocks} ends it.
     */
    public FaultRecord bumpClock(Duration least, Duration most) {
        String node = on.pick(on.running());
        return setClocks("bump the clock of", Map.of(node, on.signed(least, most)));
    }

    /**
     * Strobes one random running node's wall clock: flips it between a seeded offset (sign and size in
     * {@code [least, most]}) and the true time, {@code flips} times, each state held a seeded time of up to
     * {@code hold} on top of the time the backend takes to apply a change; it ends on the offset, which
     * {@link #resetClocks} undoes.
     */
    public FaultRecord strobeClock(Duration least, Duration most, int flips, Duration hold) {
        String node = on.pick(on.running());
        Duration offset = on.signed(least, most);
        ClockControl clocks = clocks(node);
        long start = System.nanoTime();
        for (int i = 0; i < flips; i++) {
            Duration now = i % 2 == 0 ? offset : Duration.ZERO;
            Acting.refusedAsState(() -> {
                clocks.setClockOffset(node, now);
                return null;
            });
            Acting.sleep(on.delayMillis(hold));
        }
        Acting.refusedAsState(() -> {
            clocks.setClockOffset(node, offset);
            return null;
        });
        List<Felt> felt = clocksFelt(clocks, Map.of(node, offset));
        long ms = (System.nanoTime() - start) / 1_000_000;
        return on.record("strobe the clock of " + node + " between " + offsetText(offset) + " and the true time, "
                + flips + " flips over " + ms + " ms; it stays at " + offsetText(offset), List.of(node))
                .withFelt(felt);
    }

    /**
     * Sets every moved wall clock back to the true time, all at once: recorded as {@code clock-reset}. A system
     * without {@link ClockControl} has no moved clock: nothing is reset.
     */
    public FaultRecord resetClocks() {
        ClockControl clocks = on.optional(ClockControl.class).orElse(null);
        return resetClocks("clock-reset", "reset the clock of", clocks == null ? Map.of() : clocks.clockOffsets(),
                offsets -> clocks.setClockOffsets(offsets));
    }

    private FaultRecord setClocks(String verb, Map<String, Duration> offsets) {
        ClockControl clocks = clocks(offsets.keySet().iterator().next());
        return moveClocks(on.fault, verb, offsets, clocks::setClockOffsets).withFelt(clocksFelt(clocks, offsets));
    }

    /** The target's clocks, or why not, naming {@code node}: the first whose clock the fault would move. */
    private ClockControl clocks(String node) {
        return on.control(ClockControl.class, "move " + node + "'s clock");
    }

    /** Each moved server's clock read back from the server, against the offset asked (none read: not measured). */
    private static List<Felt> clocksFelt(ClockControl clocks, Map<String, Duration> offsets) {
        List<Felt> felt = new ArrayList<>();
        offsets.forEach((node, asked) -> clocks.readClock(node).ifPresent(r -> felt.add(clockFelt(node, asked, r))));
        return felt;
    }

    /** Whether a server's clock read back shows the offset asked (within {@link #CLOCK_SLACK_MILLIS}). */
    public static Felt clockFelt(String node, Duration asked, ClockReading r) {
        long mid = (r.leastOffsetMillis() + r.mostOffsetMillis()) / 2;
        String seen = "server clock read back at " + offsetText(Duration.ofMillis(mid)) + " (asked "
                + offsetText(asked) + "; " + r.how() + ")";
        return Felt.of(node, r.shows(asked.toMillis(), CLOCK_SLACK_MILLIS), seen);
    }

    /**
     * Sets every clock of {@code offsets} in one call (one wait on a backend that waits for a change to be seen: the
     * fault's hold is not spent setting clocks one by one) and records each offset as {@code fault}.
     */
    static FaultRecord moveClocks(String fault, String verb, Map<String, Duration> offsets,
                                  Consumer<Map<String, Duration>> set) {
        Acting.refusedAsState(() -> {
            set.accept(offsets);
            return null;
        });
        List<String> steps = new ArrayList<>();
        offsets.forEach((who, offset) -> steps.add(who + " " + offsetText(offset)));
        return new FaultRecord(fault, verb + " " + String.join(", ", steps), offsets.keySet().stream().sorted()
                .toList(), List.of(), new java.util.TreeMap<>());
    }

    /** Sets each clock of {@code moved} back to the true time in one call (none moved: nothing asked). */
    static FaultRecord resetClocks(String undo, String verb, Map<String, Duration> moved,
                                   Consumer<Map<String, Duration>> set) {
        List<String> names = moved.keySet().stream().sorted().toList();
        Map<String, Duration> zero = new LinkedHashMap<>();
        names.forEach(n -> zero.put(n, Duration.ZERO));
        if (!zero.isEmpty()) {
            moveClocks(undo, verb, zero, set);
        }
        return FaultRecord.process(undo, verb, names);
    }

    /** {@code +12.345 s}, {@code -0.800 s}. */
    public static String offsetText(Duration offset) {
        long ms = offset.toMillis();
        return String.format(Locale.ROOT, "%s%d.%03d s", ms < 0 ? "-" : "+", Math.abs(ms) / 1000,
                Math.abs(ms) % 1000);
    }
}
