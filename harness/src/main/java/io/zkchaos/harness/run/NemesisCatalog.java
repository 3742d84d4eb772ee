package io.zkchaos.harness.run;

import io.zkchaos.harness.cluster.ClusterFaults;
import io.zkchaos.harness.cluster.FaultRecord;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The nemeses {@code ./zkchaos run --nemesis NAME} takes. Each fault has a start (what it breaks) and a stop (how it
 * is healed); a nemesis is the list of faults its cycle chooses from ({@code mixed}: all of them, {@code none}: no
 * fault at all). Every action returns what it really did, which goes into the history.
 */
public final class NemesisCatalog {

    /** Latency of the {@code slow-network} fault, each way, with its jitter. */
    static final Duration SLOW_LATENCY = Duration.ofMillis(50);
    static final Duration SLOW_JITTER = Duration.ofMillis(25);

    /** One fault: how to break, how to heal, and what it is. */
    record Fault(String name, String description, Function<Ctx, FaultRecord> start, Function<Ctx, FaultRecord> stop) {
    }

    /** What a fault acts on. */
    record Ctx(ClusterFaults faults, io.zkchaos.harness.cluster.Cluster cluster) {
    }

    private static final Map<String, Fault> FAULTS = new LinkedHashMap<>();

    static {
        add("kill-leader", "SIGKILL the leader; restart it on its data at the heal",
                c -> c.faults().killLeader(), c -> c.faults().restartDown());
        add("kill-random", "SIGKILL a random node; restart it at the heal",
                c -> c.faults().killRandom(), c -> c.faults().restartDown());
        add("kill-majority", "SIGKILL a majority of the nodes; restart them at the heal",
                c -> c.faults().killMajority(), c -> c.faults().restartDown());
        add("pause-leader", "SIGSTOP the leader; SIGCONT it at the heal",
                c -> c.faults().pauseLeader(), c -> c.faults().resumeAll());
        add("pause-random", "SIGSTOP a random node; SIGCONT it at the heal",
                c -> c.faults().pauseRandom(), c -> c.faults().resumeAll());
        add("isolate-leader", "cut the leader off from every other node (clients still reach it)",
                c -> c.faults().isolateLeader(), c -> c.faults().heal());
        add("halves", "partition the nodes into a minority and a majority (by name)",
                c -> c.faults().halves(), c -> c.faults().heal());
        add("random-halves", "partition the nodes into a random minority and majority",
                c -> c.faults().randomHalves(), c -> c.faults().heal());
        add("bridge", "two halves that cannot talk, joined by one node that hears both",
                c -> c.faults().bridge(), c -> c.faults().heal());
        add("majorities-ring", "every node sees a majority, no two the same majority",
                c -> c.faults().majoritiesRing(), c -> c.faults().heal());
        add("client-partition", "cut every client link (clients reach no server) for the fault time: sessions "
                        + "expire when that exceeds the session timeout",
                NemesisCatalog::cutClients, c -> c.faults().heal());
        add("slow-network", "latency " + SLOW_LATENCY.toMillis() + " ms ± " + SLOW_JITTER.toMillis()
                        + " ms on every link, both ways",
                NemesisCatalog::slowNetwork, c -> c.faults().heal());
    }

    private static final Map<String, String> NEMESES = new LinkedHashMap<>();

    static {
        NEMESES.put("none", "no faults");
        FAULTS.forEach((name, f) -> NEMESES.put(name, f.description()));
        NEMESES.put("mixed", "a seeded random sequence of all of the above");
    }

    private NemesisCatalog() {
    }

    private static void add(String name, String description, Function<Ctx, FaultRecord> start,
                            Function<Ctx, FaultRecord> stop) {
        FAULTS.put(name, new Fault(name, description, start, stop));
    }

    /** Nemesis names with a one-line description each, in a stable order. */
    public static Map<String, String> nemeses() {
        return java.util.Collections.unmodifiableMap(NEMESES);
    }

    /** @throws IllegalArgumentException naming the unknown nemesis and listing the known ones */
    public static void require(String nemesis) {
        if (nemesis == null || !NEMESES.containsKey(nemesis)) {
            throw new IllegalArgumentException("unknown nemesis '" + nemesis + "'; known: "
                    + String.join(", ", NEMESES.keySet()));
        }
    }

    /** The faults a nemesis's cycle chooses from (empty for {@code none}). */
    static List<String> faultsOf(String nemesis) {
        require(nemesis);
        return switch (nemesis) {
            case "none" -> List.of();
            case "mixed" -> new ArrayList<>(FAULTS.keySet());
            default -> List.of(nemesis);
        };
    }

    static Fault fault(String name) {
        Fault f = FAULTS.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown fault '" + name + "'");
        }
        return f;
    }

    private static FaultRecord cutClients(Ctx c) {
        List<String> nodes = c.cluster().nodes();
        nodes.forEach(n -> c.cluster().links().cutClient(n));
        return FaultRecord.process("client-partition", "cut the client links of", nodes);
    }

    private static FaultRecord slowNetwork(Ctx c) {
        for (Link link : c.cluster().links().allLinks()) {
            for (Stream s : Stream.values()) {
                String name = "slow_" + s.name().toLowerCase(java.util.Locale.ROOT);
                if (link.toxics().stream().noneMatch(t -> t.name().equals(name))) {
                    link.addToxic(Toxic.latency(name, s, SLOW_LATENCY.toMillis(), SLOW_JITTER.toMillis()));
                }
            }
        }
        return FaultRecord.process("slow-network", "added " + SLOW_LATENCY.toMillis() + " ms ± "
                + SLOW_JITTER.toMillis() + " ms latency to every link of", c.cluster().nodes());
    }
}
