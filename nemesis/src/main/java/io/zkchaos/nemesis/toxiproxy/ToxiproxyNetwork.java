package io.zkchaos.nemesis.toxiproxy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Network;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Network} of the proxies one Toxiproxy serves, through the Toxiproxy Java client: each link a
 * {@link ToxiproxyLink}. Hand its links to {@link io.zkchaos.nemesis.net.NodeLinks} and every cut, grudge and
 * partition shape works on Toxiproxy as on the embedded proxy. Works against Toxiproxy and against the project's
 * {@link ToxiproxyServer} alike.
 *
 * <p>It knows the links it created; {@link #healAll()} is Toxiproxy's {@code POST /reset} (every proxy of that
 * Toxiproxy). {@link #close()} deletes the proxies it created, so that a Toxiproxy shared with others keeps nothing
 * of this network; it does not stop Toxiproxy.
 */
public final class ToxiproxyNetwork implements Network {

    private static final Logger LOG = LoggerFactory.getLogger(ToxiproxyNetwork.class);

    private final ToxiproxyClient client;
    private final String api;
    private final Map<String, ToxiproxyLink> links = new LinkedHashMap<>();
    private boolean closed;

    /**
     * @param host the host of Toxiproxy's HTTP API, as this process reaches it
     * @param port its port
     */
    public ToxiproxyNetwork(String host, int port) {
        this.client = new ToxiproxyClient(host, port);
        this.api = host + ":" + port;
    }

    /** The client, for what the {@link Network} interface does not cover. */
    public ToxiproxyClient client() {
        return client;
    }

    /** What Toxiproxy answers at {@code /version}. */
    public String version() {
        try {
            return client.version();
        } catch (IOException e) {
            throw new UncheckedIOException("Toxiproxy at " + api + " does not answer /version: " + e.getMessage(), e);
        }
    }

    /**
     * Creates a Toxiproxy proxy. The addresses are as Toxiproxy sees them (inside its container, they are that
     * container's addresses and its network's); they need not be reachable from this process.
     *
     * @throws UncheckedIOException naming the link and Toxiproxy's answer when it refuses (a name taken, an address
     *                              it cannot listen on)
     */
    @Override
    public synchronized ToxiproxyLink createLink(String name, InetSocketAddress listen, InetSocketAddress upstream) {
        requireOpen();
        try {
            Proxy p = client.createProxy(name, hostPort(listen), hostPort(upstream));
            ToxiproxyLink link = new ToxiproxyLink(client, p, parse(p.getListen(), listen), upstream);
            links.put(name, link);
            return link;
        } catch (IOException e) {
            throw new UncheckedIOException("Toxiproxy at " + api + " refused link '" + name + "' (" + hostPort(listen)
                    + " -> " + hostPort(upstream) + "): " + e.getMessage(), e);
        }
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
        ToxiproxyLink l = links.remove(name);
        if (l == null) {
            return false;
        }
        try {
            l.proxy().delete();
        } catch (IOException e) {
            throw new UncheckedIOException("Toxiproxy at " + api + ": cannot delete '" + name + "': "
                    + e.getMessage(), e);
        }
        return true;
    }

    /** Toxiproxy's reset: every proxy enabled, every toxic removed, in one call. */
    @Override
    public synchronized void healAll() {
        requireOpen();
        try {
            client.reset();
        } catch (IOException e) {
            throw new UncheckedIOException("Toxiproxy at " + api + ": reset failed: " + e.getMessage(), e);
        }
        links.values().forEach(ToxiproxyLink::healed);
    }

    /**
     * Where Toxiproxy's state differs from what this network's links believe they set (one request): each line
     * names a link and what differs. Empty when they agree, as they must while this network is the only client
     * changing its proxies.
     */
    public synchronized List<String> divergences() {
        List<String> out = new ArrayList<>();
        Map<String, Proxy> actual = new LinkedHashMap<>();
        try {
            for (Proxy p : client.getProxies()) {
                actual.put(p.getName(), p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Toxiproxy at " + api + " does not list its proxies: " + e.getMessage(), e);
        }
        for (ToxiproxyLink l : links.values()) {
            Proxy p = actual.get(l.name());
            if (p == null) {
                out.add(l.name() + ": missing in Toxiproxy");
                continue;
            }
            if (p.isEnabled() != l.enabled()) {
                out.add(l.name() + ": enabled " + p.isEnabled() + " in Toxiproxy, " + l.enabled() + " here");
            }
            List<String> there = l.fetchToxics().stream().map(t -> t.name() + "=" + t).sorted().toList();
            List<String> here = l.toxics().stream().map(t -> t.name() + "=" + t).sorted().toList();
            if (!there.equals(here)) {
                out.add(l.name() + ": toxics " + there + " in Toxiproxy, " + here + " here");
            }
        }
        return out;
    }

    /** Deletes every proxy this network created (best effort, logged). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ToxiproxyLink l : new ArrayList<>(links.values())) {
            try {
                l.proxy().delete();
            } catch (IOException e) {
                LOG.debug("deleting Toxiproxy proxy {} at {}: {}", l.name(), api, e.toString());
            }
        }
        links.clear();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the Toxiproxy network at " + api + " is closed");
        }
    }

    static String hostPort(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** Toxiproxy's {@code host:port} answer as an address; a host name stays unresolved (it is Toxiproxy's view). */
    static InetSocketAddress parse(String hostPort, InetSocketAddress fallback) {
        int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
        if (colon < 0) {
            return fallback;
        }
        String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
        try {
            int port = Integer.parseInt(hostPort.substring(colon + 1));
            if (host.isEmpty()) {
                host = "0.0.0.0";
            }
            // An IP literal is parsed without any lookup; a name is left for whoever can resolve it.
            return host.matches("[0-9.]+") || host.contains(":") ? new InetSocketAddress(host, port)
                    : InetSocketAddress.createUnresolved(host, port);
        } catch (IllegalArgumentException e) {
            return fallback;
        }
    }
}
