package io.zkchaos.checkers.servers;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The fault windows of a history: what each fault the nemesis recorded acted on, from when to when, and what it
 * excuses there ({@link FaultWindow}), read from the nemesis' entries as the driver writes them (an {@code invoke}
 * of the fault's name, an {@code info} with what it did; a stop is an {@code invoke} of {@code heal} naming the fault,
 * or {@code all} for the final heal, then an {@code info}).
 *
 * <p>The rules, each one a choice that errs towards "the fault acted":
 * <ul>
 *   <li>a window opens at the invoke of its start (a rolling restart's or a crash-restart's info comes only when its
 *       restarts are over) and closes at the completion of the heal that names it, or of the final heal; a start
 *       that could not act (its info holds an {@code error}) opens none, and a heal that failed closes none: its
 *       window lasts to the next heal or the end ({@link Long#MAX_VALUE});</li>
 *   <li>its nodes are those its start's record names, with those of the protocol triggers it fired (f
 *       {@code trigger}) and of its own heal (a heal that crash-restarts a follower acts on it too);</li>
 *   <li>a partition ({@code grudge} not empty) acts on every node outside the largest group whose nodes all hear one
 *       another both ways (a one-way cut is a cut); when several groups are largest, on every node outside one of
 *       them (a majorities ring of three acts on all three; a bridge, on all but the bridge node);</li>
 *   <li>faults of different families overlap ({@code --compose}): each window is closed by the heal that names it.</li>
 * </ul>
 */
public final class FaultWindows {

    /** The nemesis' process name for a stop and for a protocol trigger that fired. */
    static final String HEAL = "heal";
    static final String TRIGGER = "trigger";
    /** What the final heal's invoke names. */
    static final String ALL = "all";
    /** More nodes than this: partitions are not searched for their largest group (no ensemble is that large). */
    private static final int MAX_PARTITION_NODES = 20;

    private FaultWindows() {
    }

    /**
     * The windows of every fault in {@code history}, in start order.
     *
     * @param declared each fault's declaration by name (the nemesis' {@code ServerExcuses}); a fault it does not know
     *                 (null) is an error, since what it excuses cannot be guessed
     * @throws IllegalArgumentException when a fault's entries have no time, or a fault is not declared
     */
    public static List<FaultWindow> from(History history, Function<String, FaultExcuses> declared) {
        List<Open> windows = new ArrayList<>();
        Map<String, Long> starting = new java.util.HashMap<>();
        String healing = null;
        for (Op op : history.nemesisOps()) {
            long t = op.time();
            if (t < 0) {
                throw new IllegalArgumentException("nemesis entry " + op.index() + " (" + op.f() + ") has no time: "
                        + "fault windows need a timed history");
            }
            boolean heal = HEAL.equals(op.f());
            boolean trigger = TRIGGER.equals(op.f());
            if (op.type() == OpType.INVOKE) {
                if (heal) {
                    healing = op.value() == null ? ALL : String.valueOf(op.value());
                } else if (!trigger) {
                    starting.put(op.f(), t);
                }
                continue;
            }
            if (op.type() != OpType.INFO || !(op.value() instanceof Map<?, ?> did) || did.containsKey("error")) {
                if (heal) {
                    healing = null;
                }
                continue; // could not act (start), failed (heal): nothing opens or closes
            }
            if (trigger) {
                String fault = String.valueOf(did.get("fault"));
                lastOpen(windows, fault).ifPresent(w -> w.nodes.addAll(strings(did.get("nodes"))));
            } else if (heal) {
                for (Open w : windows) {
                    if (w.end == Long.MAX_VALUE && (ALL.equals(healing) || w.fault.equals(healing))) {
                        w.end = t;
                        if (!ALL.equals(healing) && w.excuses.onServers()) {
                            w.nodes.addAll(strings(did.get("nodes")));
                        }
                    }
                }
                healing = null;
            } else {
                FaultExcuses excuses = declared.apply(op.f());
                if (excuses == null) {
                    throw new IllegalArgumentException("fault " + op.f() + " (nemesis entry " + op.index()
                            + ") is not declared: what it excuses on the servers is unknown");
                }
                long start = starting.getOrDefault(op.f(), t);
                starting.remove(op.f());
                Open w = new Open(op.f(), start, excuses);
                if (excuses.onServers()) {
                    w.nodes.addAll(actedOn(did));
                }
                windows.add(w);
            }
        }
        return windows.stream().map(Open::window).toList();
    }

    private static java.util.Optional<Open> lastOpen(List<Open> windows, String fault) {
        for (int i = windows.size() - 1; i >= 0; i--) {
            Open w = windows.get(i);
            if (w.fault.equals(fault) && w.excuses.onServers()) {
                return java.util.Optional.of(w);
            }
        }
        return java.util.Optional.empty();
    }

    /** The nodes a fault record acted on: for a partition, the nodes it cut off; else the nodes it names. */
    static Set<String> actedOn(Map<?, ?> did) {
        if (did.get("grudge") instanceof Map<?, ?> grudge && grudge.values().stream()
                .anyMatch(v -> v instanceof Collection<?> c && !c.isEmpty())) {
            Set<String> nodes = new TreeSet<>();
            grudge.keySet().forEach(k -> nodes.add(String.valueOf(k)));
            if (did.get("groups") instanceof Collection<?> groups) {
                groups.forEach(g -> nodes.addAll(strings(g)));
            }
            return cutOff(nodes, grudge);
        }
        return new TreeSet<>(strings(did.get("nodes")));
    }

    /**
     * The nodes outside a largest group that hears itself both ways: every node that is not in all of the largest
     * such groups ({@code grudge}: each node to the nodes it does not hear).
     */
    static Set<String> cutOff(Set<String> nodeSet, Map<?, ?> grudge) {
        List<String> nodes = List.copyOf(nodeSet);
        int n = nodes.size();
        if (n > MAX_PARTITION_NODES) {
            throw new IllegalArgumentException("a partition of " + n + " nodes: too many to find its largest group");
        }
        boolean[][] hears = new boolean[n][n];
        for (int a = 0; a < n; a++) {
            List<String> deaf = strings(grudge.get(nodes.get(a)));
            for (int b = 0; b < n; b++) {
                hears[a][b] = !deaf.contains(nodes.get(b));
            }
        }
        int best = 0;
        int inAllBest = 0;
        for (int mask = 1; mask < (1 << n); mask++) {
            int size = Integer.bitCount(mask);
            if (size < best || !mutual(mask, hears, n)) {
                continue;
            }
            if (size > best) {
                best = size;
                inAllBest = mask;
            } else {
                inAllBest &= mask;
            }
        }
        Set<String> cut = new TreeSet<>();
        for (int a = 0; a < n; a++) {
            if ((inAllBest & (1 << a)) == 0) {
                cut.add(nodes.get(a));
            }
        }
        return cut;
    }

    private static boolean mutual(int mask, boolean[][] hears, int n) {
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if ((mask & (1 << a)) != 0 && (mask & (1 << b)) != 0 && !(hears[a][b] && hears[b][a])) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<String> strings(Object list) {
        if (!(list instanceof Collection<?> c)) {
            return List.of();
        }
        return c.stream().map(String::valueOf).toList();
    }

    /** A window while it is read: its end and nodes still grow. */
    private static final class Open {
        final String fault;
        final long start;
        final FaultExcuses excuses;
        final Set<String> nodes = new TreeSet<>();
        long end = Long.MAX_VALUE;

        Open(String fault, long start, FaultExcuses excuses) {
            this.fault = fault;
            this.start = start;
            this.excuses = excuses;
        }

        FaultWindow window() {
            return new FaultWindow(fault, List.copyOf(nodes), start, end, excuses.excuses(),
                    excuses.grace().toNanos());
        }
    }
}
