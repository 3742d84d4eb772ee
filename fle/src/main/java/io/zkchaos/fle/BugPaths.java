package io.zkchaos.fle;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * How often each switched-on bug flag's code path ran in one incarnation of a server: every time the server did what
 * the flag makes it do where the correct build would have done otherwise (what exactly counts is said, per flag, at
 * each call of {@link #ran} and in {@code docs/fle.md}). A mutation run whose checkers saw nothing is "masked" only if
 * these counts show the mistake happened; otherwise it tested nothing.
 *
 * <p>Counts start at 0 with the process (a restarted node counts again from 0) and are reported by the node's status
 * ({@code srvr}'s {@link #SRVR_LINE} line). Thread-safe: counted on the server's thread, read from any.
 */
public final class BugPaths {

    /** The {@code srvr} line that carries the counts, e.g. {@code Bug code paths: ack-before-durable 412}. */
    public static final String SRVR_LINE = "Bug code paths:";

    private final Bugs bugs;
    /** One counter per switched-on flag; never modified after construction, so read without a lock. */
    private final Map<Bug, AtomicLong> counts = new EnumMap<>(Bug.class);

    public BugPaths(Bugs bugs) {
        this.bugs = bugs;
        for (Bug b : bugs.enabled()) {
            counts.put(b, new AtomicLong());
        }
    }

    /** Whether {@code b} is switched on. */
    public boolean on(Bug b) {
        return counts.containsKey(b);
    }

    /**
     * Counts one run of {@code b}'s code path.
     *
     * @throws IllegalStateException if {@code b} is off: its path cannot run in a build without it, so a call means
     *                               the counting is wrong
     */
    public void ran(Bug b) {
        AtomicLong c = counts.get(b);
        if (c == null) {
            throw new IllegalStateException("the code path of bug " + b + " ran, but the flag is off (bugs: " + bugs
                    + ")");
        }
        c.incrementAndGet();
    }

    /** Every switched-on flag with its count (0 when its path never ran), in flag order; empty for the correct build. */
    public Map<Bug, Long> counts() {
        if (counts.isEmpty()) {
            return Map.of();
        }
        Map<Bug, Long> out = new EnumMap<>(Bug.class);
        counts.forEach((b, c) -> out.put(b, c.get()));
        return Collections.unmodifiableMap(out);
    }

    /** {@code ack-before-durable 412, no-epoch-fencing 0}: counts as the {@code srvr} line shows them, in flag order. */
    public static String show(Map<Bug, Long> counts) {
        return counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey().flag() + " " + e.getValue()).collect(Collectors.joining(", "));
    }
}
