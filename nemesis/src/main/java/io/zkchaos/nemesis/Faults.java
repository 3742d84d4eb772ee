package io.zkchaos.nemesis;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in faults by the names the CLI takes, in a stable order. Each is also a nemesis of its own name, and
 * {@code mixed} chooses among all of them ({@link Nemeses}). A new fault is one {@link #add} line here, built from
 * {@link FaultActions}.
 */
public final class Faults {

    /** Latency of the {@code slow-network} fault, each way, with its jitter. */
    public static final Duration SLOW_LATENCY = Duration.ofMillis(50);
    public static final Duration SLOW_JITTER = Duration.ofMillis(25);

    private static final Map<String, Fault> ALL = new LinkedHashMap<>();

    static {
        add("kill-leader", "SIGKILL the leader; restart it on its data at the heal",
                t -> actions(t).killLeader(), t -> actions(t).restartDown());
        add("kill-random", "SIGKILL a random node; restart it at the heal",
                t -> actions(t).killRandom(), t -> actions(t).restartDown());
        add("kill-majority", "SIGKILL a majority of the nodes; restart them at the heal",
                t -> actions(t).killMajority(), t -> actions(t).restartDown());
        add("kill-all", "SIGKILL every node (the whole ensemble loses power); restart them on their data at the heal",
                t -> actions(t).killAll(), t -> actions(t).restartDown());
        add("pause-leader", "SIGSTOP the leader; SIGCONT it at the heal",
                t -> actions(t).pauseLeader(), t -> actions(t).resumeAll());
        add("pause-random", "SIGSTOP a random node; SIGCONT it at the heal",
                t -> actions(t).pauseRandom(), t -> actions(t).resumeAll());
        add("isolate-leader", "cut the leader off from every other node (clients still reach it)",
                t -> actions(t).isolateLeader(), t -> actions(t).heal());
        add("halves", "partition the nodes into a minority and a majority (by name)",
                t -> actions(t).halves(), t -> actions(t).heal());
        add("random-halves", "partition the nodes into a random minority and majority",
                t -> actions(t).randomHalves(), t -> actions(t).heal());
        add("bridge", "two halves that cannot talk, joined by one node that hears both",
                t -> actions(t).bridge(), t -> actions(t).heal());
        add("majorities-ring", "every node sees a majority, no two the same majority",
                t -> actions(t).majoritiesRing(), t -> actions(t).heal());
        add("client-partition", "cut every client link (clients reach no server) for the fault time: sessions "
                        + "expire when that exceeds the session timeout",
                t -> actions(t).cutAllClients(), t -> actions(t).heal(), 1.5);
        add("slow-network", "latency " + SLOW_LATENCY.toMillis() + " ms ± " + SLOW_JITTER.toMillis()
                        + " ms on every link, both ways",
                t -> actions(t).slowNetwork(SLOW_LATENCY, SLOW_JITTER), t -> actions(t).heal());
    }

    private Faults() {
    }

    private static FaultActions actions(NemesisTarget t) {
        return new FaultActions(t);
    }

    private static void add(String name, String description, Fault.Action start, Fault.Action stop) {
        add(name, description, start, stop, 0);
    }

    private static void add(String name, String description, Fault.Action start, Fault.Action stop,
                            double holdSessionTimeouts) {
        ALL.put(name, Fault.of(name, description, start, stop, holdSessionTimeouts));
    }

    /** Every built-in fault, in a stable order. */
    public static List<Fault> all() {
        return List.copyOf(ALL.values());
    }

    /** The built-in fault of that name. */
    public static Optional<Fault> byName(String name) {
        return Optional.ofNullable(ALL.get(name));
    }

    /** Names with descriptions, in order. */
    public static Map<String, String> descriptions() {
        Map<String, String> m = new LinkedHashMap<>();
        ALL.forEach((n, f) -> m.put(n, f.description()));
        return Collections.unmodifiableMap(m);
    }
}
