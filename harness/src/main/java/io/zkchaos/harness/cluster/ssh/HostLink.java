package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.cluster.ssh.FirewallRule.Chain;
import io.zkchaos.harness.cluster.ssh.FirewallRule.Verdict;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkStats;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.nemesis.net.ToxicType;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One directed link of an ensemble on hosts — the TCP connections one node opens to a port of another, or the
 * clients' to a node — with its faults made by the hosts' own kernels, as Jepsen makes them: no proxy stands between
 * the ends, so {@link #listenAddress()} is the server's own address. Each stream of the link is matched by one rule on
 * the host that receives it ({@link End}): a peer's bytes by their source address and the server's port, the clients'
 * (who come from the harness's machine, where zk-chaos makes no faults) by the server's port on every interface but
 * loopback, coming in for the upstream and going out for the downstream.
 *
 * <ul>
 *   <li>disabled ({@link io.zkchaos.nemesis.net.CutMode#REFUSE}): both streams are reset ({@code REJECT --reject-with
 *       tcp-reset}): new connections are refused, open ones reset as soon as either end sends;</li>
 *   <li>{@code timeout} with timeout 0 (the black hole): the stream's packets are dropped;</li>
 *   <li>{@code reset_peer} with timeout 0: the stream's packets are answered with a reset;</li>
 *   <li>{@code latency} and {@code bandwidth}: {@code tc netem} and {@code tbf} on the sending host
 *       ({@link HostShaper}), where its kernel has them; refused, naming the host, where it has not;</li>
 *   <li>the others ({@code slicer}, {@code limit_data}, a {@code timeout} or {@code reset_peer} after a delay, a toxicity
 *       below 1) cannot be made on a host and are refused saying why.</li>
 * </ul>
 *
 * <p>Unlike the proxy, a healed black hole loses nothing: TCP sends again what was dropped. There are no byte counters:
 * {@link #stats()} is all zeros. Thread-safe; every change has reached the hosts when it returns (or when the
 * {@link HostNetwork#batch} it is part of ends).
 */
final class HostLink implements Link {

    private final String name;
    private final HostNetwork network;
    private final InetSocketAddress server;
    private final Map<Stream, End> ends;
    private boolean enabled = true;
    private final List<Toxic> toxics = new ArrayList<>();

    /**
     * Where one stream is matched.
     *
     * @param receiver    the node whose host holds its rule
     * @param chain       whether the rule sees the packets coming in or going out
     * @param source      the sender's address, or null for the clients (any address but loopback)
     * @param port        the server's port
     * @param destination whether the port is the packets' destination (upstream) or source (downstream)
     * @param sender      the node whose host sends the stream (where it is shaped), or null for the clients
     */
    record End(String receiver, Chain chain, String source, int port, boolean destination, String sender) {

        FirewallRule rule(Verdict verdict) {
            return new FirewallRule(receiver, chain, source, port, destination, verdict);
        }
    }

    HostLink(String name, HostNetwork network, InetSocketAddress server, Map<Stream, End> ends) {
        this.name = name;
        this.network = network;
        this.server = server;
        this.ends = Map.copyOf(ends);
    }

    /** The link node {@code from} (at {@code fromAddress}) opens to port {@code port} of node {@code to}. */
    static HostLink peer(String name, HostNetwork network, String from, String fromAddress, String to,
                         String toAddress, int port) {
        return new HostLink(name, network, new InetSocketAddress(toAddress, port), Map.of(
                Stream.UPSTREAM, new End(to, Chain.IN, fromAddress, port, true, from),
                Stream.DOWNSTREAM, new End(from, Chain.IN, toAddress, port, false, to)));
    }

    /** The link clients open to port {@code port} of node {@code node}. */
    static HostLink client(String name, HostNetwork network, String node, String address, int port) {
        return new HostLink(name, network, new InetSocketAddress(address, port), Map.of(
                Stream.UPSTREAM, new End(node, Chain.IN, null, port, true, null),
                Stream.DOWNSTREAM, new End(node, Chain.OUT, null, port, false, node)));
    }

    @Override
    public String name() {
        return name;
    }

    /** The server's own address: nothing listens in between. */
    @Override
    public InetSocketAddress listenAddress() {
        return server;
    }

    @Override
    public InetSocketAddress upstreamAddress() {
        return server;
    }

    /** Where each stream is matched. */
    Map<Stream, End> ends() {
        return ends;
    }

    @Override
    public boolean enabled() {
        synchronized (network) {
            return enabled;
        }
    }

    @Override
    public void setEnabled(boolean on) {
        synchronized (network) {
            if (enabled == on) {
                return;
            }
            enabled = on;
            network.changed(this);
        }
    }

    @Override
    public List<Toxic> toxics() {
        synchronized (network) {
            return List.copyOf(toxics);
        }
    }

    /**
     * @throws UnsupportedOperationException naming why when a host cannot make it (see the class comment)
     */
    @Override
    public void addToxic(Toxic toxic) {
        synchronized (network) {
            if (toxics.stream().anyMatch(t -> t.name().equals(toxic.name()))) {
                throw new IllegalArgumentException("link " + name + " has a toxic named " + toxic.name() + " already");
            }
            requireMakeable(toxic);
            toxics.add(toxic);
            network.changed(this);
        }
    }

    @Override
    public boolean removeToxic(String toxicName) {
        synchronized (network) {
            boolean removed = toxics.removeIf(t -> t.name().equals(toxicName));
            if (removed) {
                network.changed(this);
            }
            return removed;
        }
    }

    /** Enables the link and removes every toxic in one change. */
    @Override
    public void heal() {
        synchronized (network) {
            if (enabled && toxics.isEmpty()) {
                return;
            }
            enabled = true;
            toxics.clear();
            network.changed(this);
        }
    }

    /** The hosts' firewall rules are not read back for counts: this link's faults are not measured. */
    @Override
    public boolean counts() {
        return false;
    }

    /** No byte counters on hosts: all zeros. */
    @Override
    public LinkStats stats() {
        return new LinkStats(0, 0, 0, 0, 0);
    }

    /** The firewall rules this link asks of the hosts now. */
    List<FirewallRule> rules() {
        synchronized (network) {
            List<FirewallRule> rules = new ArrayList<>();
            for (Stream s : Stream.values()) {
                verdict(s).ifPresent(v -> rules.add(ends.get(s).rule(v)));
            }
            return rules;
        }
    }

    /** What happens to the stream's packets: reset when disabled, else as its cutting toxic says. */
    private Optional<Verdict> verdict(Stream s) {
        if (!enabled) {
            return Optional.of(Verdict.RESET);
        }
        for (Toxic t : toxics) {
            if (t.stream() == s && t.type() == ToxicType.TIMEOUT) {
                return Optional.of(Verdict.DROP);
            }
        }
        for (Toxic t : toxics) {
            if (t.stream() == s && t.type() == ToxicType.RESET_PEER) {
                return Optional.of(Verdict.RESET);
            }
        }
        return Optional.empty();
    }

    /** The shaping toxics (latency, bandwidth) of one stream, in the order they were added. */
    List<Toxic> shaping(Stream s) {
        synchronized (network) {
            return toxics.stream().filter(t -> t.stream() == s && HostShaper.shapes(t.type())).toList();
        }
    }

    private void requireMakeable(Toxic t) {
        String refusal = "link " + name + ": a " + t.type().wireName() + " toxic ";
        if (t.toxicity() < 1.0) {
            throw new UnsupportedOperationException(refusal + "on a share of the connections (toxicity "
                    + t.toxicity() + ") cannot be made on hosts: iptables and tc act on packets, not connections");
        }
        switch (t.type()) {
            case TIMEOUT, RESET_PEER -> {
                if (t.attribute("timeout") != 0) {
                    throw new UnsupportedOperationException(refusal + "that acts " + t.attribute("timeout")
                            + " ms later cannot be made on hosts: iptables drops or resets packets as they pass "
                            + "(use timeout 0)");
                }
            }
            case LATENCY, BANDWIDTH -> {
                End end = ends.get(t.stream());
                if (end.sender() == null) {
                    throw new UnsupportedOperationException(refusal + "on the " + t.stream().wireName() + " stream "
                            + "cannot be made on hosts: those bytes leave the harness's own machine, where zk-chaos "
                            + "shapes no traffic (put it on the downstream)");
                }
                network.requireShaping(end.sender(), t, name);
            }
            case SLICER, LIMIT_DATA -> throw new UnsupportedOperationException(refusal + "cannot be made on hosts: "
                    + "it rewrites a TCP stream, which only a proxy between the ends can (the local and docker "
                    + "backends have one)");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
