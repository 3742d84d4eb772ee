package io.zkchaos.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Faults over the nodes of a {@link Cluster}: partition shapes applied to its links, and process faults. Every
 * method acts, then returns what it did as a {@link FaultRecord}. Random choices come from the {@link Random}
 * given at construction, so a seeded schedule repeats.
 *
 * <p>Partition shapes (Jepsen's): isolate one node; halves (a minority of the first ⌊n/2⌋ nodes in name order
 * against the rest); random halves (the same over a shuffle); bridge (two halves that share one node, which hears
 * both); majorities ring (nodes on a shuffled ring, each hearing the majority-sized window of its neighbours, so
 * every node sees a majority and no two see the same one). A new partition replaces the previous one.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class ClusterFaults {

    private final Cluster cluster;
    private final Random random;

    public ClusterFaults(Cluster cluster, Random random) {
        this.cluster = cluster;
        this.random = random;
    }

    // ---- partitions ----

    /** Cuts the current leader off from every other node. */
    public FaultRecord isolateLeader() {
        return isolate("isolate-leader", requireLeader());
    }

    /** Cuts a random node off from every other node. */
    public FaultRecord isolateRandom() {
        return isolate("isolate-random", pick(cluster.nodes()));
    }

    /** Cuts {@code node} off from every other node. */
    public FaultRecord isolate(String node) {
        return isolate("isolate", node);
    }

    private FaultRecord isolate(String fault, String node) {
        List<String> rest = new ArrayList<>(cluster.nodes());
        if (!rest.remove(node)) {
            throw new IllegalArgumentException("unknown node '" + node + "': nodes are " + cluster.nodes());
        }
        return components(fault, List.of(List.of(node), rest));
    }

    /** The first ⌊n/2⌋ nodes (by name) against the rest. */
    public FaultRecord halves() {
        return halves("halves", cluster.nodes());
    }

    /** A random minority against the rest. */
    public FaultRecord randomHalves() {
        return halves("random-halves", shuffled());
    }

    private FaultRecord halves(String fault, List<String> order) {
        int cut = order.size() / 2;
        return components(fault, List.of(sorted(order.subList(0, cut)), sorted(order.subList(cut, order.size()))));
    }

    /** Two halves that do not hear each other, both hearing one bridge node. */
    public FaultRecord bridge() {
        List<String> order = shuffled();
        int n = order.size();
        if (n < 3) {
            throw new IllegalStateException("a bridge needs at least 3 nodes, the cluster has " + n);
        }
        int mid = n / 2;
        String bridge = order.get(mid);
        List<String> left = order.subList(0, mid);
        List<String> right = order.subList(mid + 1, n);
        SortedMap<String, SortedSet<String>> grudge = emptyGrudge();
        left.forEach(a -> grudge.get(a).addAll(right));
        right.forEach(b -> grudge.get(b).addAll(left));
        List<String> g1 = new ArrayList<>(left);
        g1.add(bridge);
        List<String> g2 = new ArrayList<>(right);
        g2.add(bridge);
        return apply("bridge", List.of(sorted(g1), sorted(g2)), grudge);
    }

    /**
     * Nodes on a shuffled ring; each hears the window of a majority of nodes around itself. With 3 nodes the
     * grudge is one-way (each node hears itself and its successor).
     */
    public FaultRecord majoritiesRing() {
        List<String> ring = shuffled();
        int n = ring.size();
        if (n < 3) {
            throw new IllegalStateException("a majorities ring needs at least 3 nodes, the cluster has " + n);
        }
        int m = n / 2 + 1;
        int before = (m - 1) / 2;
        SortedMap<String, SortedSet<String>> grudge = emptyGrudge();
        List<List<String>> groups = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            List<String> heard = new ArrayList<>();
            for (int k = -before; k < m - before; k++) {
                heard.add(ring.get(Math.floorMod(p + k, n)));
            }
            groups.add(sorted(heard));
            for (String other : ring) {
                if (!heard.contains(other)) {
                    grudge.get(ring.get(p)).add(other);
                }
            }
        }
        return apply("majorities-ring", groups, grudge);
    }

    /** Heals every link (peers and clients, cuts and toxics). */
    public FaultRecord heal() {
        cluster.links().heal();
        return FaultRecord.partition("heal", List.of(cluster.nodes()), emptyGrudge());
    }

    /** Cuts {@code node}'s client link: its clients are disconnected and cannot reconnect to it. */
    public FaultRecord cutClient(String node) {
        cluster.links().cutClient(node);
        return FaultRecord.process("cut-client", List.of(node));
    }

    /** Heals {@code node}'s client link. */
    public FaultRecord healClient(String node) {
        cluster.links().healClient(node);
        return FaultRecord.process("heal-client", List.of(node));
    }

    private FaultRecord components(String fault, List<List<String>> components) {
        SortedMap<String, SortedSet<String>> grudge = emptyGrudge();
        for (List<String> c : components) {
            for (String to : c) {
                for (List<String> other : components) {
                    if (other != c) {
                        grudge.get(to).addAll(other);
                    }
                }
            }
        }
        return apply(fault, components, grudge);
    }

    private FaultRecord apply(String fault, List<List<String>> groups, SortedMap<String, SortedSet<String>> grudge) {
        cluster.links().applyGrudge(grudge);
        return FaultRecord.partition(fault, groups, grudge);
    }

    // ---- processes ----

    /** SIGKILLs the leader. */
    public FaultRecord killLeader() {
        String l = requireLeader();
        cluster.kill(l);
        return FaultRecord.process("kill-leader", List.of(l));
    }

    /** SIGKILLs a random running node. */
    public FaultRecord killRandom() {
        String n = pick(running());
        cluster.kill(n);
        return FaultRecord.process("kill-random", List.of(n));
    }

    /** SIGKILLs a random majority of the nodes (those already down count towards it). */
    public FaultRecord killMajority() {
        List<String> chosen = sorted(shuffled().subList(0, cluster.config().quorumSize()));
        chosen.forEach(cluster::kill);
        return FaultRecord.process("kill-majority", chosen);
    }

    /** SIGSTOPs the leader. */
    public FaultRecord pauseLeader() {
        String l = requireLeader();
        cluster.pause(l);
        return FaultRecord.process("pause-leader", List.of(l));
    }

    /** SIGSTOPs a random running node. */
    public FaultRecord pauseRandom() {
        String n = pick(running());
        cluster.pause(n);
        return FaultRecord.process("pause-random", List.of(n));
    }

    /** SIGSTOPs a random majority of the running nodes. */
    public FaultRecord pauseMajority() {
        List<String> r = running();
        Collections.shuffle(r, random);
        List<String> chosen = sorted(r.subList(0, Math.min(r.size(), cluster.config().quorumSize())));
        chosen.forEach(cluster::pause);
        return FaultRecord.process("pause-majority", chosen);
    }

    /** SIGCONTs every paused node. */
    public FaultRecord resumeAll() {
        List<String> paused = cluster.nodes().stream().filter(n -> cluster.state(n) == NodeState.PAUSED).toList();
        paused.forEach(cluster::resume);
        return FaultRecord.process("resume", paused);
    }

    /** Starts every node that is down, on its data. */
    public FaultRecord restartDown() {
        List<String> down = cluster.nodes().stream().filter(n -> cluster.state(n) == NodeState.DOWN).toList();
        down.forEach(cluster::start);
        return FaultRecord.process("restart", down);
    }

    /** Kills and starts {@code node} again on its data. */
    public FaultRecord restart(String node) {
        cluster.restart(node);
        return FaultRecord.process("restart", List.of(node));
    }

    // ---- helpers ----

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

    private static List<String> sorted(List<String> l) {
        List<String> s = new ArrayList<>(l);
        Collections.sort(s);
        return s;
    }

    private SortedMap<String, SortedSet<String>> emptyGrudge() {
        SortedMap<String, SortedSet<String>> g = new TreeMap<>();
        cluster.nodes().forEach(n -> g.put(n, new TreeSet<>()));
        return g;
    }
}
