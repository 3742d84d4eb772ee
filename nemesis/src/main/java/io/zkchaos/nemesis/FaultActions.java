package io.zkchaos.nemesis;

import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.nemesis.partition.Partition;
import io.zkchaos.nemesis.partition.Partitions;

/**
 * The fault actions, imperative: partition shapes applied to the links of a {@link NemesisTarget}, and process
 * faults on its nodes. Every method acts, then returns what it did as a {@link FaultRecord}. Random choices come from
 * the target's {@link Random}, so a seeded schedule repeats. The named {@link Fault}s of {@link Faults} are built
 * from these; tests and library users call them directly.
 *
 * <p>Partition shapes are those of {@link Partitions} (Jepsen's): isolate one node; halves (a minority of the first
 * ⌊n/2⌋ nodes in name order against the rest); random halves (the same over a shuffle); bridge (two halves that
 * share one node, which hears both); majorities ring (nodes on a shuffled ring, each hearing the majority-sized
 * window around it, so every node sees a majority and no two see the same one). A new partition replaces the
 * previous one.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class FaultActions {

    private final NodeControl cluster;
    private final LinkNetwork links;
    private final Random random;

    public FaultActions(NemesisTarget target) {
        this.cluster = target.nodes();
        this.links = target.links();
        this.random = target.random();
    }

    // ---- partitions (shapes from io.zkchaos.nemesis.partition.Partitions) ----

    /** Cuts the current leader off from every other node. */
    public FaultRecord isolateLeader() {
        return apply("isolate-leader", Partitions.isolate(cluster.nodes(), requireLeader()));
    }

    /** Cuts a random node off from every other node. */
    public FaultRecord isolateRandom() {
        return apply("isolate-random", Partitions.isolateRandom(cluster.nodes(), random));
    }

    /** Cuts {@code node} off from every other node. */
    public FaultRecord isolate(String node) {
        return apply("isolate", Partitions.isolate(cluster.nodes(), node));
    }

    /** The first ⌊n/2⌋ nodes (by name) against the rest. */
    public FaultRecord halves() {
        return apply("halves", Partitions.halves(cluster.nodes()));
    }

    /** A random minority against the rest. */
    public FaultRecord randomHalves() {
        return apply("random-halves", Partitions.randomHalves(cluster.nodes(), random));
    }

    /** Two halves that do not hear each other, both hearing one bridge node. */
    public FaultRecord bridge() {
        return apply("bridge", Partitions.bridge(cluster.nodes(), random));
    }

    /**
     * Nodes on a shuffled ring; each hears the window of a majority of nodes around itself. With 3 nodes the
     * grudge is one-way.
     */
    public FaultRecord majoritiesRing() {
        return apply("majorities-ring", Partitions.majoritiesRing(cluster.nodes(), random));
    }

    /** Heals every link (peers and clients, cuts and toxics). */
    public FaultRecord heal() {
        links.heal();
        return FaultRecord.partition("heal", Partitions.heal(cluster.nodes()));
    }

    /** Cuts {@code node}'s client link: its clients are disconnected and cannot reconnect to it. */
    public FaultRecord cutClient(String node) {
        links.cutClient(node);
        return FaultRecord.process("cut-client", "cut the client link of", List.of(node));
    }

    /** Heals {@code node}'s client link. */
    public FaultRecord healClient(String node) {
        links.healClient(node);
        return FaultRecord.process("heal-client", "heal the client link of", List.of(node));
    }

    /** Cuts every client link: clients reach no server (sessions expire if that outlasts their timeout). */
    public FaultRecord cutAllClients() {
        List<String> nodes = cluster.nodes();
        nodes.forEach(links::cutClient);
        return FaultRecord.process("client-partition", "cut the client links of", nodes);
    }

    /**
     * Adds latency with jitter to both streams of every link (toxics named {@code slow_upstream},
     * {@code slow_downstream}); {@link #heal()} removes it.
     */
    public FaultRecord slowNetwork(Duration latency, Duration jitter) {
        for (Link link : links.allLinks()) {
            for (Stream s : Stream.values()) {
                String name = "slow_" + s.name().toLowerCase(Locale.ROOT);
                if (link.toxics().stream().noneMatch(t -> t.name().equals(name))) {
                    link.addToxic(Toxic.latency(name, s, latency.toMillis(), jitter.toMillis()));
                }
            }
        }
        return FaultRecord.process("slow-network", "added " + latency.toMillis() + " ms ± " + jitter.toMillis()
                + " ms latency to every link of", cluster.nodes());
    }

    private FaultRecord apply(String fault, Partition partition) {
        links.apply(partition);
        return FaultRecord.partition(fault, partition);
    }

    // ---- processes ----

    /** SIGKILLs the leader. */
    public FaultRecord killLeader() {
        return onEach("kill-leader", "kill", List.of(requireLeader()), cluster::kill);
    }

    /** SIGKILLs a random running node. */
    public FaultRecord killRandom() {
        return onEach("kill-random", "kill", List.of(pick(running())), cluster::kill);
    }

    /** SIGKILLs a random majority of the nodes (those already down count towards it). */
    public FaultRecord killMajority() {
        List<String> chosen = new ArrayList<>(shuffled().subList(0, cluster.quorumSize()));
        Collections.sort(chosen);
        return onEach("kill-majority", "kill", chosen, cluster::kill);
    }

    /**
     * SIGKILLs every running node, one right after the other in a seeded order: the whole ensemble loses power, so
     * whatever no node had written out yet is gone (a node that acknowledged a write it had not written loses it).
     */
    public FaultRecord killAll() {
        List<String> order = shuffled().stream().filter(n -> cluster.state(n) != NodeState.DOWN).toList();
        return onEach("kill-all", "kill", order, cluster::kill);
    }

    /** SIGSTOPs the leader. */
    public FaultRecord pauseLeader() {
        return onEach("pause-leader", "pause", List.of(requireLeader()), cluster::pause);
    }

    /** SIGSTOPs a random running node. */
    public FaultRecord pauseRandom() {
        return onEach("pause-random", "pause", List.of(pick(running())), cluster::pause);
    }

    /** SIGSTOPs a random majority of the running nodes. */
    public FaultRecord pauseMajority() {
        List<String> r = running();
        Collections.shuffle(r, random);
        List<String> chosen = new ArrayList<>(r.subList(0, Math.min(r.size(), cluster.quorumSize())));
        Collections.sort(chosen);
        return onEach("pause-majority", "pause", chosen, cluster::pause);
    }

    /** SIGCONTs every paused node. */
    public FaultRecord resumeAll() {
        List<String> paused = cluster.nodes().stream().filter(n -> cluster.state(n) == NodeState.PAUSED).toList();
        return onEach("resume", "resume", paused, cluster::resume);
    }

    /** Starts every node that is down, on its data. */
    public FaultRecord restartDown() {
        List<String> down = cluster.nodes().stream().filter(n -> cluster.state(n) == NodeState.DOWN).toList();
        return onEach("restart", "restart", down, cluster::start);
    }

    /** Kills and starts {@code node} again on its data. */
    public FaultRecord restart(String node) {
        return onEach("restart", "restart", List.of(node), cluster::restart);
    }

    // ---- helpers ----

    /** Does {@code action} to each of {@code nodes}, in order, and records it as process fault {@code fault}. */
    private static FaultRecord onEach(String fault, String verb, List<String> nodes, Consumer<String> action) {
        nodes.forEach(action);
        return FaultRecord.process(fault, verb, nodes);
    }

    private String requireLeader() {
        return cluster.leader().orElseThrow(() -> new IllegalStateException(
                "no node leads now (nodes " + cluster.nodes() + "): cannot aim a fault at the leader"));
    }

    private List<String> running() {
        List<String> r = new ArrayList<>(cluster.nodes().stream()
                .filter(n -> cluster.state(n) == NodeState.RUNNING).toList());
        if (r.isEmpty()) {
            throw new IllegalStateException("no node is running");
        }
        return r;
    }

    private String pick(List<String> from) {
        return from.get(random.nextInt(from.size()));
    }

    private List<String> shuffled() {
        List<String> l = new ArrayList<>(cluster.nodes());
        Collections.shuffle(l, random);
        return l;
    }

}
