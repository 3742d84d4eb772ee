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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A link of the embedded {@link FaultProxy}.
 *
 * <p>Threads: the listening socket belongs to the link's <em>home</em> proxy thread, each connection to the proxy
 * thread it is pinned to (see {@link FaultProxy}). A public method changes the link's shared state (toxics, tap,
 * enabled) and then has every proxy thread apply the change to its own connections; called from any other thread,
 * it returns once all of them have, so a fault is in effect when the call returns. Called from a proxy thread (a
 * tap or a timer), it applies the change at once to that thread's connections (so a tap that cuts its own
 * connection's link sees it cut before its next byte) and hands the rest to the other threads without waiting for
 * them: a proxy thread never waits for another.
 *
 * <p>Stats: a connection's byte counts are added before the connection is counted closed, and {@link #stats()}
 * reads the connection counts first; so once {@code stats().openConnections()} is 0, the byte counts include every
 * byte of every connection closed so far, and stay put until a new connection carries bytes.
 */
public final class ProxyLink implements Link {
    /** How long enabling a link keeps retrying to bind its address. */
    public static final long REBIND_PATIENCE_MILLIS = 3_000;

    private final FaultProxy proxy;
    private final Reactor home;
    private final String name;
    private final InetSocketAddress upstream;
    private final InetSocketAddress listen;

    // Home-thread state.
    private ServerSocketChannel server;

    /** The connections pinned to each reactor, by reactor index; each set is touched by its reactor only. */
    private final List<Set<Connection>> connectionsByReactor;

    /** Guards toxicList and serial; never held while waiting. */
    private final Object toxicLock = new Object();
    private final List<LinkToxic> toxicList = new ArrayList<>();
    private long serial;

    // Snapshots readable from any thread.
    private volatile boolean enabled;
    private volatile List<LinkToxic> toxicSnapshot = List.of();
    private volatile StreamTap tap;
    private volatile long upstreamRetryNanos;
    /** Held while a tap of this link is called, so that one tap's calls never overlap, whatever the threads. */
    final Object tapLock = new Object();

    private final LongAdder bytesUp = new LongAdder();
    private final LongAdder bytesDown = new LongAdder();
    private final LongAdder bytesDropped = new LongAdder();
    /** Connections closed because the link was disabled while they were open. */
    private final LongAdder connectionsCut = new LongAdder();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong open = new AtomicLong();

    /** Binds the listen address; home thread only. */
    ProxyLink(FaultProxy proxy, Reactor home, String name, InetSocketAddress listen, InetSocketAddress upstream) {
        this.proxy = proxy;
        this.home = home;
        this.name = name;
        this.upstream = upstream;
        List<Set<Connection>> sets = new ArrayList<>();
        for (int i = 0; i < proxy.reactors().size(); i++) {
            sets.add(new LinkedHashSet<>());
        }
        this.connectionsByReactor = List.copyOf(sets);
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
    public void upstreamRetry(Duration retry) {
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
            ch.register(home.selector(), SelectionKey.OP_ACCEPT, this);
            return ch;
        } catch (IOException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // the bind error is the one to report
                }
            }
            throw new UncheckedIOException("link '" + name + "': cannot listen on "
                    + address.getAddress().getHostAddress() + ":" + address.getPort() + ": " + e.getMessage(), e);
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
        proxy.requireRunning();
        if (enable) {
            enableWithRetry();
            return;
        }
        control(() -> {
            if (server != null) {
                closeListener();
                home.flushCloses();
            }
        }, this::closeConnectionsOn);
    }

    /**
     * Binds the listen address again. While the link was disabled its port was free, and the kernel may have
     * lent it to an outgoing connection as its local port; such a connection usually ends soon, so a failed bind
     * is retried (waiting in the caller's thread, never a proxy thread's) for up to {@link #REBIND_PATIENCE_MILLIS}.
     * From a proxy thread it is one attempt, whose failure is logged.
     */
    private void enableWithRetry() {
        if (proxy.currentReactor() != null) {
            home.execute(new Reactor.Task() {
                @Override
                public void run() {
                    try {
                        rebind();
                    } catch (UncheckedIOException e) {
                        FaultProxy.LOG.warn("{}", e.getMessage());
                    }
                }

                @Override
                public void cancel() {
                }
            });
            return;
        }
        long deadline = System.nanoTime() + REBIND_PATIENCE_MILLIS * 1_000_000L;
        while (true) {
            try {
                home.call(() -> {
                    rebind();
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

    private void rebind() {
        if (server == null) {
            server = bind(listen);
            enabled = true;
        }
    }

    @Override
    public List<Toxic> toxics() {
        return toxicSnapshot.stream().map(LinkToxic::toxic).toList();
    }

    @Override
    public void addToxic(Toxic toxic) {
        proxy.requireRunning();
        synchronized (toxicLock) {
            for (LinkToxic t : toxicList) {
                if (t.toxic().name().equals(toxic.name())) {
                    throw new IllegalArgumentException("link '" + name + "' already has a toxic named '"
                            + toxic.name() + "'");
                }
            }
            toxicList.add(new LinkToxic(toxic, ++serial));
            toxicSnapshot = List.copyOf(toxicList);
        }
        control(null, this::syncToxicsOn);
    }

    @Override
    public boolean removeToxic(String toxicName) {
        proxy.requireRunning();
        synchronized (toxicLock) {
            if (!toxicList.removeIf(t -> t.toxic().name().equals(toxicName))) {
                return false;
            }
            toxicSnapshot = List.copyOf(toxicList);
        }
        control(null, this::syncToxicsOn);
        return true;
    }

    /** The toxics as set now, with their serials; any thread. */
    List<LinkToxic> toxicSnapshot() {
        return toxicSnapshot;
    }

    /**
     * Counters since the link was created. The connection counts are read before the byte counts, so a snapshot
     * with {@code openConnections() == 0} has every byte of every connection closed before it (see the class
     * comment): a test can wait for that and then read exact counts.
     */
    @Override
    public LinkStats stats() {
        long openNow = open.get();
        long acceptedNow = accepted.get();
        return new LinkStats(bytesUp.sum(), bytesDown.sum(), bytesDropped.sum(), acceptedNow, openNow,
                connectionsCut.sum());
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
        proxy.requireRunning();
        control(null, r -> {
            long now = System.nanoTime();
            for (Connection c : new ArrayList<>(connectionsOn(r))) {
                c.releaseStalls(now);
            }
        });
    }

    StreamTap tap() {
        return tap;
    }

    @Override
    public String toString() {
        return "ProxyLink[" + name + " " + listen + " -> " + upstream + (enabled ? "" : " disabled") + " toxics="
                + toxics().stream().map(Toxic::name).toList() + "]";
    }

    // ---- applying a change on every proxy thread ----

    /**
     * Runs {@code onHome} on the home thread, then {@code onEach} on every proxy thread for its own connections;
     * {@code onEach} must be idempotent. The per-thread parts are posted from the home part, after it: a
     * connection accepted before a listener closed had its start posted to its thread before the close's
     * per-thread part was, so that part finds it. From a caller thread this waits for every part; from a proxy
     * thread it runs that thread's part at once and waits for nothing.
     *
     * @param onHome null when there is no home part (then the per-thread parts are posted at once)
     */
    private void control(Runnable onHome, Consumer<Reactor> onEach) {
        Reactor current = proxy.currentReactor();
        if (current != null && current != home) {
            onEach.accept(current);
        }
        if (onHome == null) {
            List<CompletableFuture<Void>> parts = postEach(onEach);
            if (current == null) {
                parts.forEach(f -> Reactor.await(f, "the fault proxy threads"));
            }
            return;
        }
        CompletableFuture<List<CompletableFuture<Void>>> homePart = home.submit(() -> {
            onHome.run();
            return postEach(onEach);
        });
        if (current == null) {
            for (CompletableFuture<Void> f : Reactor.await(homePart, "the fault proxy thread of link '" + name + "'")) {
                Reactor.await(f, "the fault proxy threads");
            }
        }
    }

    private List<CompletableFuture<Void>> postEach(Consumer<Reactor> onEach) {
        List<CompletableFuture<Void>> parts = new ArrayList<>();
        for (Reactor r : proxy.reactors()) {
            parts.add(r.submit(() -> {
                onEach.accept(r);
                r.flushCloses();
                return null;
            }));
        }
        return parts;
    }

    private Set<Connection> connectionsOn(Reactor r) {
        return connectionsByReactor.get(r.index());
    }

    private void closeConnectionsOn(Reactor r) {
        for (Connection c : new ArrayList<>(connectionsOn(r))) {
            connectionsCut.increment();
            c.close("link disabled");
        }
    }

    private void syncToxicsOn(Reactor r) {
        List<LinkToxic> current = toxicSnapshot;
        long now = System.nanoTime();
        for (Connection c : new ArrayList<>(connectionsOn(r))) {
            c.syncToxics(current, now);
        }
    }

    // ---- proxy-thread side ----

    /** Accepts every pending connection and hands each to the proxy thread it is pinned to. Home thread only. */
    void acceptReady() {
        while (server != null) {
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
            long index = accepted.incrementAndGet();
            open.incrementAndGet();
            Reactor owner = proxy.ownerForNewConnection();
            Connection c = new Connection(this, owner, proxy.nextConnectionId(),
                    proxy.connectionRandom(name, index), ch, proxy.maxQueuedBytes());
            Reactor.Task start = new Reactor.Task() {
                @Override
                public void run() {
                    connectionsOn(owner).add(c);
                    c.start(System.nanoTime());
                }

                @Override
                public void cancel() {
                    c.abandon();
                }
            };
            if (owner == home) {
                start.run();
            } else {
                owner.execute(start);
            }
        }
    }

    /** A connection ended (its thread): counted closed after its bytes were counted. */
    void connectionClosed(Connection c) {
        if (connectionsOn(c.reactor()).remove(c)) {
            open.decrementAndGet();
        }
    }

    /** A connection that never started (its thread had stopped) was closed. */
    void connectionAbandoned() {
        open.decrementAndGet();
    }

    void countDelivered(Stream stream, long n) {
        (stream == Stream.UPSTREAM ? bytesUp : bytesDown).add(n);
    }

    void countDropped(long n) {
        if (n > 0) {
            bytesDropped.add(n);
        }
    }

    /** Closes the listening socket; home thread only. */
    void closeListener() {
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                FaultProxy.LOG.debug("link {}: closing the listener failed", name, e);
            }
            server = null;
        }
        enabled = false;
    }

    /** Closes listener and connections for good (the link was removed). */
    void shutdown() {
        control(() -> {
            closeListener();
            home.flushCloses();
        }, r -> {
            for (Connection c : new ArrayList<>(connectionsOn(r))) {
                c.close("link removed");
            }
        });
    }
}
