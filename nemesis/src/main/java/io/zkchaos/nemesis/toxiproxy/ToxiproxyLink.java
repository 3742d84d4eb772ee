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
 * attributes. It works against Toxiproxy itself and against the project's {@link ToxiproxyServer}.
 *
 * <p>Reads ({@link #enabled()}, {@link #toxics()}) answer from what this link last wrote and Toxiproxy confirmed,
 * without a request: partitions read every link's state before they change it, and on a loaded machine each request
 * to a container costs tens of milliseconds. So this link must be the only client that changes its proxy (its
 * {@link ToxiproxyNetwork} checks that with {@link ToxiproxyNetwork#divergences()}).
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
    /** What Toxiproxy holds, as this link last set it: enabled state and toxics (ours, and the client's handles). */
    private boolean enabled = true;
    private final java.util.LinkedHashMap<String, Toxic> toxics = new java.util.LinkedHashMap<>();
    private final java.util.Map<String, eu.rekawek.toxiproxy.model.Toxic> handles = new java.util.HashMap<>();

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
    public synchronized boolean enabled() {
        return enabled;
    }

    @Override
    public synchronized void setEnabled(boolean enable) {
        try {
            if (enable) {
                proxy.enable();
            } else {
                proxy.disable();
            }
            enabled = proxy.isEnabled();
        } catch (IOException e) {
            throw failure(enable ? "enable" : "disable", e);
        }
    }

    @Override
    public synchronized List<Toxic> toxics() {
        return List.copyOf(toxics.values());
    }

    /** What Toxiproxy itself holds now (one request): the toxics of the types this interface models. */
    public List<Toxic> fetchToxics() {
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

    /** Toxiproxy was reset (every proxy enabled, every toxic removed): so is this link's view. */
    synchronized void healed() {
        enabled = true;
        toxics.clear();
        handles.clear();
    }

    @Override
    public synchronized void addToxic(Toxic toxic) {
        ToxicList list = proxy.toxics();
        ToxicDirection d = toxic.stream() == Stream.UPSTREAM ? ToxicDirection.UPSTREAM : ToxicDirection.DOWNSTREAM;
        String n = toxic.name();
        try {
            if (toxics.containsKey(n)) {
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
            Toxic confirmed = fromClient(created);
            toxics.put(n, confirmed != null ? confirmed : toxic);
            handles.put(n, created);
        } catch (IOException e) {
            throw failure("add toxic '" + n + "' to", e);
        }
    }

    @Override
    public synchronized boolean removeToxic(String toxicName) {
        eu.rekawek.toxiproxy.model.Toxic handle = handles.get(toxicName);
        if (handle == null) {
            return false;
        }
        try {
            handle.remove();
        } catch (IOException e) {
            throw failure("remove toxic '" + toxicName + "' from", e);
        }
        handles.remove(toxicName);
        toxics.remove(toxicName);
        return true;
    }

    /** Removes every toxic this link added, then enables it. */
    @Override
    public synchronized void heal() {
        for (String n : List.copyOf(handles.keySet())) {
            removeToxic(n);
        }
        if (!enabled) {
            setEnabled(true);
        }
    }

    /** Toxiproxy keeps no counters: its links' faults are not measured. */
    @Override
    public boolean counts() {
        return false;
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
