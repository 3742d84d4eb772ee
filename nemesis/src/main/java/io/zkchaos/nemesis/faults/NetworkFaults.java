package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.Felt;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.nemesis.partition.Partition;
import io.zkchaos.nemesis.partition.Partitions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The faults of {@link Fault.Family#NETWORK}: partition shapes applied to the target's links, client links cut, and
 * toxics; undone by {@link #heal}. Every start acts, then returns what it did as a {@link FaultRecord} named for the
 * fault being run.
 *
 * <p>Partition shapes are those of {@link Partitions} (Jepsen's): isolate one node; halves (a minority of the first
 * ⌊n/2⌋ nodes in name order against the rest); random halves (the same over a shuffle); bridge (two halves that
 * share one node, which hears both); majorities ring (nodes on a shuffled ring, each hearing the majority-sized
 * window around it, so that every node sees a majority and no two see the same one). A new partition replaces the
 * previous one.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class NetworkFaults {

    private final Acting on;

    /** @param fault the fault being run: the name its records carry */
    public NetworkFaults(NemesisTarget target, String fault) {
        this.on = new Acting(target, fault);
    }

    /** Cuts the current leader off from every other node. */
    public FaultRecord isolateLeader() {
        return apply(Partitions.isolate(on.cluster.nodes(), on.requireLeader()));
    }

    /** Cuts a random node off from every other node. */
    public FaultRecord isolateRandom() {
        return apply(Partitions.isolate(on.cluster.nodes(), on.pick(on.cluster.nodes())));
    }

    /**
     * Cuts the lowest-named follower (a running node that does not lead) off from every other node, black-holing its
     * peer links ({@link CutMode#BLACKHOLE}: connections stay open, nothing passes), so that it learns of the cut
     * only by its own timeout and keeps serving its clients from its last state until then. Its client link is
     * untouched. The cut mode in force before is restored for later cuts.
     */
    public FaultRecord isolateFollower() {
        String leader = on.requireLeader();
        String follower = on.running().stream().filter(n -> !n.equals(leader)).sorted().findFirst()
                .orElseThrow(() -> new IllegalStateException("no running follower (leader " + leader + ")"));
        CutMode before = on.links.cutMode();
        on.links.cutMode(CutMode.BLACKHOLE);
        try {
            return apply(Partitions.isolate(on.cluster.nodes(), follower));
        } finally {
            on.links.cutMode(before);
        }
    }

    /** Cuts {@code node} off from every other node. */
    public FaultRecord isolate(String node) {
        return apply(Partitions.isolate(on.cluster.nodes(), node));
    }

    /** The first ⌊n/2⌋ nodes (by name) against the rest. */
    public FaultRecord halves() {
        return apply(Partitions.halves(on.cluster.nodes()));
    }

    /** A random minority against the rest. */
    public FaultRecord randomHalves() {
        return apply(Partitions.randomHalvesInOrder(on.shuffled()));
    }

    /** Two halves that do not hear each other, both hearing one bridge node. */
    public FaultRecord bridge() {
        return apply(Partitions.bridgeInOrder(on.shuffled()));
    }

    /**
     * Nodes on a shuffled ring; each hears the window of a majority of nodes around itself. With 3 nodes the
     * grudge is one-way.
     */
    public FaultRecord majoritiesRing() {
        return apply(Partitions.majoritiesRingInOrder(on.shuffled()));
    }

    /** Cuts every client link: clients reach no server (sessions expire if that outlasts their timeout). */
    public FaultRecord cutAllClients() {
        List<String> nodes = on.cluster.nodes();
        nodes.forEach(on.links::cutClient);
        return FaultRecord.process(on.fault, "cut the client links of", nodes);
    }

    /** Cuts {@code node}'s client link: its clients are disconnected and cannot reconnect to it. */
    public FaultRecord cutClient(String node) {
        on.links.cutClient(node);
        return FaultRecord.process(on.fault, "cut the client link of", List.of(node));
    }

    /**
     * Adds latency with jitter to both streams of every link (toxics named {@code slow_upstream},
     * {@code slow_downstream}); {@link #heal()} removes it.
     */
    public FaultRecord slowNetwork(Duration latency, Duration jitter) {
        for (Link link : on.links.allLinks()) {
            for (Stream s : Stream.values()) {
                String name = "slow_" + s.name().toLowerCase(Locale.ROOT);
                if (link.toxics().stream().noneMatch(t -> t.name().equals(name))) {
                    link.addToxic(Toxic.latency(name, s, latency.toMillis(), jitter.toMillis()));
                }
            }
        }
        return FaultRecord.process(on.fault, "added " + latency.toMillis() + " ms ± " + jitter.toMillis()
                + " ms latency to every link of", on.cluster.nodes());
    }

    // ---- undoing ----

    /** Heals every link (peers and clients, cuts and toxics): recorded as {@code heal}. */
    public FaultRecord heal() {
        List<Felt> felt = on.links.feltSinceHeal(); // what the fault in force did, before the heal ends it
        on.links.heal();
        return FaultRecord.partition("heal", Partitions.heal(on.cluster.nodes())).withFelt(felt);
    }

    /** Heals {@code node}'s client link: recorded as {@code heal-client}. */
    public FaultRecord healClient(String node) {
        on.links.healClient(node);
        return FaultRecord.process("heal-client", "heal the client link of", List.of(node));
    }

    private FaultRecord apply(Partition partition) {
        on.links.apply(partition);
        return FaultRecord.partition(on.fault, partition);
    }
}
