package io.zkchaos.nemesis.toxiproxy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import eu.rekawek.toxiproxy.model.ToxicList;
import eu.rekawek.toxiproxy.model.toxic.Bandwidth;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import eu.rekawek.toxiproxy.model.toxic.LimitData;
import eu.rekawek.toxiproxy.model.toxic.ResetPeer;
import eu.rekawek.toxiproxy.model.toxic.Slicer;
import eu.rekawek.toxiproxy.model.toxic.Timeout;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkStats;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Link} that is a Toxiproxy proxy, driven through the Toxiproxy Java client: enabling and disabling are
 * Toxiproxy's, and every {@link Toxic} becomes the Toxiproxy toxic of the same name, type, stream, toxicity and
 * attributes. It works against Toxiproxy itself and against the project's {@link ToxiproxyServer}. Every read asks
 * the server, so what it answers is what the proxy holds.
 *
 * <p>The client creates a toxic with toxicity 1 and its first attributes, then sets the others one call each
 * (latency's jitter, slicer's size_variation, a toxicity below 1): for a moment in between the toxic applies with
 * the values set so far. Toxiproxy keeps no byte counters, so {@link #stats()} is all zeros.
 */
public final class ToxiproxyLink implements Link {

    private final ToxiproxyClient client;
    private final Proxy proxy;
    private final InetSocketAddress listen;
    private final InetSocketAddress upstream;

    /**
     * @param client   the client of the Toxiproxy API that serves the proxy
     * @param proxy    the client's proxy
     * @param listen   where the proxy listens (as Toxiproxy answered it)
     * @param upstream where it forwards
     */
    ToxiproxyLink(ToxiproxyClient client, Proxy proxy, InetSocketAddress listen, InetSocketAddress upstream) {
        this.client = client;
        this.proxy = proxy;
        this.listen = listen;
        this.upstream = upstream;
    }

    /** The Toxiproxy client's proxy, for what the {@link Link} interface does not cover. */
    public Proxy proxy() {
        return proxy;
    }

    @Override
    public String name() {
        return proxy.getName();
    }

    @Override
    public InetSocketAddress listenAddress() {
        return listen;
    }

    @Override
    public InetSocketAddress upstreamAddress() {
        return upstream;
    }

    @Override
    public boolean enabled() {
        try {
            // The client's Proxy holds what the last answer about it said; ask the server for the present state.
            return client.getProxy(name()).isEnabled();
        } catch (IOException e) {
            throw failure("read the state of", e);
        }
    }

    @Override
    public void setEnabled(boolean enabled) {
        try {
            if (enabled) {
                proxy.enable();
            } else {
                proxy.disable();
            }
        } catch (IOException e) {
            throw failure(enabled ? "enable" : "disable", e);
        }
    }

    @Override
    public List<Toxic> toxics() {
        try {
            List<Toxic> out = new ArrayList<>();
            for (eu.rekawek.toxiproxy.model.Toxic t : proxy.toxics().getAll()) {
                Toxic mine = fromClient(t);
                if (mine != null) {
                    out.add(mine);
                }
            }
            return out;
        } catch (IOException e) {
            throw failure("list the toxics of", e);
        }
    }

    @Override
    public void addToxic(Toxic toxic) {
        ToxicList list = proxy.toxics();
        ToxicDirection d = toxic.stream() == Stream.UPSTREAM ? ToxicDirection.UPSTREAM : ToxicDirection.DOWNSTREAM;
        String n = toxic.name();
        try {
            if (toxics().stream().anyMatch(t -> t.name().equals(n))) {
                throw new IllegalArgumentException("link '" + name() + "' already has a toxic named '" + n + "'");
            }
            eu.rekawek.toxiproxy.model.Toxic created = switch (toxic.type()) {
                case LATENCY -> {
                    Latency l = list.latency(n, d, toxic.attribute("latency"));
                    if (toxic.attribute("jitter") != 0) {
                        l.setJitter(toxic.attribute("jitter"));
                    }
                    yield l;
                }
                case BANDWIDTH -> list.bandwidth(n, d, toxic.attribute("rate"));
                case SLICER -> {
                    Slicer s = list.slicer(n, d, toxic.attribute("average_size"), toxic.attribute("delay"));
                    if (toxic.attribute("size_variation") != 0) {
                        s.setSizeVariation(toxic.attribute("size_variation"));
                    }
                    yield s;
                }
                case TIMEOUT -> list.timeout(n, d, toxic.attribute("timeout"));
                case RESET_PEER -> list.resetPeer(n, d, toxic.attribute("timeout"));
                case LIMIT_DATA -> list.limitData(n, d, toxic.attribute("bytes"));
            };
            if (toxic.toxicity() != 1.0) {
                created.setToxicity((float) toxic.toxicity());
            }
        } catch (IOException e) {
            throw failure("add toxic '" + n + "' to", e);
        }
    }

    @Override
    public boolean removeToxic(String toxicName) {
        try {
            for (eu.rekawek.toxiproxy.model.Toxic t : proxy.toxics().getAll()) {
                if (t.getName().equals(toxicName)) {
                    t.remove();
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw failure("remove toxic '" + toxicName + "' from", e);
        }
    }

    /** Removes every toxic (also those of types this interface does not model, such as slow_close), then enables. */
    @Override
    public void heal() {
        try {
            for (eu.rekawek.toxiproxy.model.Toxic t : proxy.toxics().getAll()) {
                t.remove();
            }
        } catch (IOException e) {
            throw failure("heal", e);
        }
        setEnabled(true);
    }

    /** Toxiproxy has no byte counters: always zeros. */
    @Override
    public LinkStats stats() {
        return new LinkStats(0, 0, 0, 0, 0);
    }

    /** The client's toxic as ours; null for a type ours does not model (slow_close). */
    static Toxic fromClient(eu.rekawek.toxiproxy.model.Toxic t) {
        Stream s = t.getStream() == ToxicDirection.UPSTREAM ? Stream.UPSTREAM : Stream.DOWNSTREAM;
        Toxic mine;
        if (t instanceof Latency l) {
            mine = Toxic.latency(t.getName(), s, l.getLatency(), l.getJitter());
        } else if (t instanceof Bandwidth b) {
            mine = Toxic.bandwidth(t.getName(), s, b.getRate());
        } else if (t instanceof Slicer sl) {
            mine = Toxic.slicer(t.getName(), s, sl.getAverageSize(), sl.getSizeVariation(), sl.getDelay());
        } else if (t instanceof Timeout to) {
            mine = Toxic.timeout(t.getName(), s, to.getTimeout());
        } else if (t instanceof ResetPeer r) {
            mine = Toxic.resetPeer(t.getName(), s, r.getTimeout());
        } else if (t instanceof LimitData ld) {
            mine = Toxic.limitData(t.getName(), s, ld.getBytes());
        } else {
            return null;
        }
        return mine.withToxicity(t.getToxicity());
    }

    private UncheckedIOException failure(String what, IOException e) {
        return new UncheckedIOException("Toxiproxy: cannot " + what + " proxy '" + name() + "': " + e.getMessage(),
                e);
    }

    @Override
    public String toString() {
        return "toxiproxy link " + name() + " " + listen + " -> " + upstream;
    }
}
