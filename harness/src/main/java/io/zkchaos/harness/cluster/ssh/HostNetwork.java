package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Network;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The links of an ensemble on hosts, their faults made on the hosts themselves ({@link HostLink}): iptables rules in
 * the run's chains ({@link HostFirewall}) and traffic control ({@link HostShaper}). What the links set is the whole
 * truth: after every change (or {@link #batch} of changes) each host whose part changed gets its new rules in one
 * step, the hosts in parallel. {@link io.zkchaos.nemesis.net.NodeLinks} applies cuts and grudges on these links exactly
 * as on a proxy's.
 *
 * <p>Thread-safe: changes are made under this network's lock.
 */
final class HostNetwork implements Network {

    private final Map<String, HostFirewall> firewalls;
    private final Map<String, HostShaper> shapers;
    private final Map<String, String> harnessAddresses;
    private final Map<String, HostLink> links = new LinkedHashMap<>();
    private final Set<String> dirty = new LinkedHashSet<>();
    private int batches;
    private boolean closed;

    /**
     * @param firewalls        per node, its host's firewall (the run's chains, installed)
     * @param shapers          per node, what its host can shape
     * @param harnessAddresses per node, the harness's address as its host sees it
     */
    HostNetwork(Map<String, HostFirewall> firewalls, Map<String, HostShaper> shapers,
                Map<String, String> harnessAddresses) {
        this.firewalls = Map.copyOf(firewalls);
        this.shapers = Map.copyOf(shapers);
        this.harnessAddresses = Map.copyOf(harnessAddresses);
    }

    /** Adds the link {@code from} opens to {@code port} of {@code to}. */
    synchronized HostLink addPeerLink(String name, String from, String fromAddress, String to, String toAddress,
                                      int port) {
        return add(HostLink.peer(name, this, from, fromAddress, to, toAddress, port));
    }

    /** Adds the link clients open to {@code port} of {@code node}. */
    synchronized HostLink addClientLink(String name, String node, String address, int port) {
        return add(HostLink.client(name, this, node, address, port));
    }

    private HostLink add(HostLink l) {
        if (links.putIfAbsent(l.name(), l) != null) {
            throw new IllegalArgumentException("link name taken: " + l.name());
        }
        return l;
    }

    /**
     * Not for hosts: their links are the servers' own ports, added by the cluster that knows them.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Link createLink(String name, InetSocketAddress listen, InetSocketAddress upstream) {
        throw new UnsupportedOperationException("links on hosts are the servers' own ports: the ssh cluster adds them");
    }

    @Override
    public synchronized Optional<Link> link(String name) {
        return Optional.ofNullable(links.get(name));
    }

    @Override
    public synchronized List<Link> links() {
        return List.copyOf(links.values());
    }

    @Override
    public synchronized boolean removeLink(String name) {
        HostLink l = links.remove(name);
        if (l != null) {
            changed(l);
        }
        return l != null;
    }

    /** Every change made in {@code changes} reaches the hosts together, once it returns. */
    @Override
    public synchronized void batch(Runnable changes) {
        batches++;
        try {
            changes.run();
        } finally {
            batches--;
        }
        if (batches == 0) {
            flush();
        }
    }

    /** Heals every link, then sends every host its (empty) rules at once. */
    @Override
    public synchronized void healAll() {
        batch(() -> links.values().forEach(HostLink::heal));
    }

    /** A link changed: its hosts get their new rules now, or at the end of the batch. */
    synchronized void changed(HostLink l) {
        for (HostLink.End e : l.ends().values()) {
            dirty.add(e.receiver());
            if (e.sender() != null) {
                dirty.add(e.sender());
            }
        }
        if (batches == 0) {
            flush();
        }
    }

    /**
     * @throws UnsupportedOperationException naming the host and what its kernel answered when it cannot shape a
     *                                       stream with {@code toxic}
     */
    void requireShaping(String sender, Toxic toxic, String link) {
        shapers.get(sender).whyNot(toxic.type()).ifPresent(why -> {
            throw new UnsupportedOperationException("link " + link + ": a " + toxic.type().wireName() + " toxic needs "
                    + why);
        });
    }

    /** Sends each host whose part changed its rules and shaping, the hosts in parallel. */
    private void flush() {
        if (closed || dirty.isEmpty()) {
            dirty.clear();
            return;
        }
        List<String> hosts = new ArrayList<>(dirty);
        dirty.clear();
        Map<String, CompletableFuture<Void>> sending = new LinkedHashMap<>();
        for (String h : hosts) {
            List<FirewallRule> rules = rulesOf(h);
            List<HostShaper.Shaped> shaped = shapedBy(h);
            sending.put(h, CompletableFuture.runAsync(() -> {
                firewalls.get(h).apply(rules);
                shapers.get(h).apply(shaped, harnessAddresses.get(h));
            }));
        }
        List<String> failures = new ArrayList<>();
        sending.forEach((h, f) -> {
            try {
                f.join();
            } catch (CompletionException e) {
                failures.add(e.getCause() == null ? e.toString() : e.getCause().getMessage());
            }
        });
        if (!failures.isEmpty()) {
            throw new IllegalStateException("cannot set the links' faults on every host: " + String.join("; ",
                    failures));
        }
    }

    /** The rules node {@code host}'s host must hold now, in the links' order. */
    synchronized List<FirewallRule> rulesOf(String host) {
        List<FirewallRule> rules = new ArrayList<>();
        for (HostLink l : links.values()) {
            for (FirewallRule r : l.rules()) {
                if (r.host().equals(host)) {
                    rules.add(r);
                }
            }
        }
        return rules;
    }

    /** The streams node {@code host}'s host sends that are shaped now. */
    private List<HostShaper.Shaped> shapedBy(String host) {
        List<HostShaper.Shaped> shaped = new ArrayList<>();
        for (HostLink l : links.values()) {
            for (Stream s : Stream.values()) {
                HostLink.End e = l.ends().get(s);
                List<Toxic> toxics = l.shaping(s);
                if (host.equals(e.sender()) && !toxics.isEmpty()) {
                    // The stream goes to the receiver's address (for a peer), or to the harness (for clients).
                    String destination = e.source() == null ? null : l.ends().get(s == Stream.UPSTREAM ? Stream.DOWNSTREAM
                            : Stream.UPSTREAM).source();
                    shaped.add(new HostShaper.Shaped(destination, e.port(), e.destination(), toxics));
                }
            }
        }
        return shaped;
    }

    /**
     * Where what a host holds differs from what the links set: per host, the rules it should hold and does not, and
     * those it holds and should not (empty when all agree).
     */
    synchronized List<String> divergences() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, HostFirewall> f : firewalls.entrySet()) {
            List<String> want = rulesOf(f.getKey()).stream()
                    .map(r -> r.line(f.getValue().chainName(r.chain()))).toList();
            List<String> have = f.getValue().read();
            List<String> missing = new ArrayList<>(want);
            missing.removeAll(have);
            List<String> extra = new ArrayList<>(have);
            extra.removeAll(want);
            if (!missing.isEmpty() || !extra.isEmpty()) {
                out.add(f.getKey() + ": missing " + missing + ", extra " + extra);
            }
        }
        return out;
    }

    /** Removes the run's chains and shaping from every host; the links are no longer enforced. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<CompletableFuture<Void>> removing = new ArrayList<>();
        for (String h : firewalls.keySet()) {
            removing.add(CompletableFuture.runAsync(() -> {
                shapers.get(h).clear();
                firewalls.get(h).remove();
            }));
        }
        removing.forEach(f -> {
            try {
                f.join();
            } catch (CompletionException e) {
                // logged by the cluster's close; the reaper ends what is left
            }
        });
    }
}
