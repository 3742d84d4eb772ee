package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkStats;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A link of the embedded {@link FaultProxy}. Its mutable state lives on the proxy thread; the public methods hand
 * their work to that thread and return once it is done, so a fault is in effect when the call returns.
 */
public final class ProxyLink implements Link {
    private final FaultProxy proxy;
    private final String name;
    private final InetSocketAddress upstream;
    private final InetSocketAddress listen;

    // Proxy-thread state.
    private ServerSocketChannel server;
    private final List<Toxic> toxicList = new ArrayList<>();
    private final Set<Connection> connections = new LinkedHashSet<>();

    // Snapshots readable from any thread.
    private volatile boolean enabled;
    private volatile List<Toxic> toxics = List.of();
    private volatile StreamTap tap;
    private volatile long upstreamRetryNanos;

    private final AtomicLong bytesUp = new AtomicLong();
    private final AtomicLong bytesDown = new AtomicLong();
    private final AtomicLong bytesDropped = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong open = new AtomicLong();

    /** Binds the listen address; proxy thread only. */
    ProxyLink(FaultProxy proxy, String name, InetSocketAddress listen, InetSocketAddress upstream) {
        this.proxy = proxy;
        this.name = name;
        this.upstream = upstream;
        this.server = bind(listen);
        this.listen = (InetSocketAddress) localAddress(server);
        this.enabled = true;
        this.upstreamRetryNanos = proxy.upstreamRetryNanos();
    }

    /**
     * How long a connection accepted by this link keeps retrying a refusing upstream before it is closed (the
     * proxy's setting until changed; see {@link FaultProxy#FaultProxy(long, int, java.time.Duration)}). Applies
     * to connections accepted afterwards. Zero closes at the first refusal: right for clients that treat a closed
     * connection like a refusal and move on (a ZooKeeper client tries its next server), where holding would only
     * delay them.
     */
    public void upstreamRetry(java.time.Duration retry) {
        if (retry == null || retry.isNegative()) {
            throw new IllegalArgumentException("link '" + name + "': upstream retry must be zero or positive, was "
                    + retry);
        }
        upstreamRetryNanos = retry.toNanos();
    }

    long upstreamRetryNanos() {
        return upstreamRetryNanos;
    }

    private static java.net.SocketAddress localAddress(ServerSocketChannel ch) {
        try {
            return ch.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ServerSocketChannel bind(InetSocketAddress address) {
        ServerSocketChannel ch = null;
        try {
            ch = ServerSocketChannel.open();
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.bind(address, 128);
            ch.configureBlocking(false);
            ch.register(proxy.selector(), SelectionKey.OP_ACCEPT, this);
            return ch;
        } catch (IOException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // the bind error is the one to report
                }
            }
            throw new UncheckedIOException("link '" + name + "': cannot listen on " + address.getAddress().getHostAddress()
                    + ":" + address.getPort() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return name;
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
        return enabled;
    }

    @Override
    public void setEnabled(boolean enable) {
        if (enable) {
            enableWithRetry();
            return;
        }
        proxy.onLoop(() -> {
            if (server != null) {
                closeServer();
                closeAll("link disabled");
                enabled = false;
                proxy.flushCloses();
            }
            return null;
        });
    }

    /**
     * Binds the listen address again. While the link was disabled its port was free, and the kernel may have
     * lent it to an outgoing connection as its local port; such a connection usually ends soon, so a failed bind
     * is retried (waiting in the caller's thread, not the proxy's) for up to {@link #REBIND_PATIENCE_MILLIS}.
     */
    private void enableWithRetry() {
        long deadline = System.nanoTime() + REBIND_PATIENCE_MILLIS * 1_000_000L;
        while (true) {
            try {
                proxy.onLoop(() -> {
                    if (server == null) {
                        server = bind(listen);
                        enabled = true;
                    }
                    return null;
                });
                return;
            } catch (UncheckedIOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                FaultProxy.LOG.info("{}; retrying", e.getMessage());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while re-enabling link '" + name + "'", ie);
            }
        }
    }

    /** How long enabling a link keeps retrying to bind its address. */
    public static final long REBIND_PATIENCE_MILLIS = 3_000;

    @Override
    public List<Toxic> toxics() {
        return toxics;
    }

    @Override
    public void addToxic(Toxic toxic) {
        proxy.onLoop(() -> {
            for (Toxic t : toxicList) {
                if (t.name().equals(toxic.name())) {
                    throw new IllegalArgumentException("link '" + name + "' already has a toxic named '"
                            + toxic.name() + "'");
                }
            }
            toxicList.add(toxic);
            toxics = List.copyOf(toxicList);
            long now = System.nanoTime();
            for (Connection c : new ArrayList<>(connections)) {
                c.toxicAdded(toxic, now);
                c.pump();
            }
            proxy.flushCloses();
            return null;
        });
    }

    @Override
    public boolean removeToxic(String toxicName) {
        return proxy.onLoop(() -> {
            Toxic found = null;
            for (Toxic t : toxicList) {
                if (t.name().equals(toxicName)) {
                    found = t;
                }
            }
            if (found == null) {
                return false;
            }
            toxicList.remove(found);
            toxics = List.copyOf(toxicList);
            for (Connection c : new ArrayList<>(connections)) {
                c.toxicRemoved(found);
            }
            proxy.flushCloses();
            return true;
        });
    }

    @Override
    public LinkStats stats() {
        return new LinkStats(bytesUp.get(), bytesDown.get(), bytesDropped.get(), accepted.get(), open.get());
    }

    /**
     * Sets the observer of the bytes passing this link (null for none). It sees connections' bytes from the next
     * read on; see {@link StreamTap} for its contract.
     */
    public void setTap(StreamTap newTap) {
        this.tap = newTap;
    }

    /**
     * Releases every stream a tap stalled ({@link TapContext.Halt#STALL}) on this link: the held bytes flow on in
     * order, and reading resumes.
     */
    public void releaseStalls() {
        proxy.onLoop(() -> {
            long now = System.nanoTime();
            for (Connection c : new ArrayList<>(connections)) {
                c.up.releaseStall(now);
                c.down.releaseStall(now);
                c.pump();
            }
            return null;
        });
    }

    StreamTap tap() {
        return tap;
    }

    @Override
    public String toString() {
        return "ProxyLink[" + name + " " + listen + " -> " + upstream + (enabled ? "" : " disabled") + " toxics="
                + toxics.stream().map(Toxic::name).toList() + "]";
    }

    // ---- proxy-thread side ----

    /** Accepts every pending connection. */
    void acceptReady() {
        if (server == null) {
            return;
        }
        while (true) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                FaultProxy.LOG.warn("link {}: accept failed", name, e);
                return;
            }
            if (ch == null) {
                return;
            }
            accepted.incrementAndGet();
            open.incrementAndGet();
            Connection c = new Connection(proxy, this, proxy.nextConnectionId(), ch, proxy.maxQueuedBytes());
            connections.add(c);
            try {
                c.start(toxicList, System.nanoTime());
            } catch (IOException e) {
                c.close("could not start: " + e.getMessage());
            }
        }
    }

    void connectionClosed(Connection c) {
        if (connections.remove(c)) {
            open.decrementAndGet();
        }
    }

    void countDelivered(Stream stream, long n) {
        (stream == Stream.UPSTREAM ? bytesUp : bytesDown).addAndGet(n);
    }

    void countDropped(long n) {
        if (n > 0) {
            bytesDropped.addAndGet(n);
        }
    }

    private void closeServer() {
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                FaultProxy.LOG.debug("link {}: closing the listener failed", name, e);
            }
            server = null;
        }
    }

    private void closeAll(String why) {
        for (Connection c : new ArrayList<>(connections)) {
            c.close(why);
        }
    }

    /** Closes listener and connections for good; proxy thread only. */
    void shutdown() {
        closeServer();
        closeAll("link removed");
        enabled = false;
    }
}
