package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Stream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One accepted client connection and its connection to the upstream server, with a {@link Pipe} each way. Pinned
 * to one proxy thread ({@link Reactor}) from its start to its close: everything here runs on that thread only.
 *
 * <p>The upstream connection is opened at once, except when either stream is black-holed (a timeout toxic applies)
 * as the connection arrives: then the server never sees it, as in a real partition, where the handshake's SYN or
 * SYN-ACK would be lost; the client sees an accepted connection that carries nothing (as with Toxiproxy). Removing
 * that toxic closes the connection (see {@link Stage.Timeout}), so the deferred connect never happens.
 *
 * <p>An upstream that <em>refuses</em> the connect is retried every 10 ms for up to the proxy's upstream retry
 * bound (see {@link FaultProxy#FaultProxy(long, int, java.time.Duration)}), reading nothing from the client
 * meanwhile; only then is the connection closed. The client was accepted before the proxy knew, so closing at the
 * first refusal would turn a refusal the client would have retried into a dead connection.
 */
final class Connection {
    private final ProxyLink link;
    private final Reactor reactor;
    private final long id;
    private final SplittableRandom random;
    private final SocketChannel client;
    private SocketChannel upstream;
    private SelectionKey clientKey;
    private SelectionKey upstreamKey;
    private boolean upstreamConnected;
    /** A refused upstream connect waits for its next attempt (upstream is null meanwhile). */
    private boolean awaitingRetry;
    /** Until when (System.nanoTime) a refused upstream connect is retried. */
    private long retryUntil;
    /** The highest serial of the link's toxics this connection has drawn against (see {@link LinkToxic}). */
    private long toxicsSeen;
    private boolean closed;
    final Pipe up;
    final Pipe down;

    Connection(ProxyLink link, Reactor reactor, long id, SplittableRandom random, SocketChannel client,
               int maxQueued) {
        this.link = link;
        this.reactor = reactor;
        this.id = id;
        this.random = random;
        this.client = client;
        this.up = new Pipe(this, Stream.UPSTREAM, maxQueued);
        this.down = new Pipe(this, Stream.DOWNSTREAM, maxQueued);
    }

    ProxyLink link() {
        return link;
    }

    Reactor reactor() {
        return reactor;
    }

    long id() {
        return id;
    }

    SplittableRandom random() {
        return random;
    }

    boolean isClosed() {
        return closed;
    }

    Pipe pipe(Stream s) {
        return s == Stream.UPSTREAM ? up : down;
    }

    /** Runs {@code action} on this connection's thread at {@code at} (System.nanoTime), unless it closed by then. */
    void schedule(long at, Runnable action) {
        reactor.schedule(at, () -> {
            if (!closed) {
                action.run();
            }
        });
    }

    /** Toxicity draw: whether a toxic applies to this connection. */
    private boolean draw(double toxicity) {
        return toxicity >= 1.0 || (toxicity > 0.0 && random.nextDouble() < toxicity);
    }

    /**
     * Registers the client with this connection's selector, applies the link's toxics (each drawn against its
     * toxicity) and connects upstream.
     */
    void start(long now) {
        try {
            client.configureBlocking(false);
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            clientKey = client.register(reactor.selector(), 0, this);
            syncToxics(link.toxicSnapshot(), now);
            retryUntil = now + link.upstreamRetryNanos();
            if (!closed && !up.blackholed() && !down.blackholed()) {
                connectUpstream(now);
            }
        } catch (IOException e) {
            close("could not start: " + e.getMessage());
            return;
        }
        updateInterest();
    }

    /** The connection's thread stopped before it could start it: close the accepted socket. */
    void abandon() {
        closed = true;
        closeChannel(client, false);
        link.connectionAbandoned();
    }

    /**
     * Brings this connection's stages in line with the link's toxics: stages of removed toxics go (a removed
     * black hole closes the connection, see {@link Stage.Timeout}), toxics added since the last call are drawn
     * against their toxicity and, if they apply, appended in the link's order. Idempotent.
     */
    void syncToxics(List<LinkToxic> current, long now) {
        if (closed) {
            return;
        }
        up.removeStagesNotIn(current);
        down.removeStagesNotIn(current);
        if (closed) {
            return;
        }
        long seen = toxicsSeen;
        for (LinkToxic t : current) {
            if (t.serial() > seen) {
                if (draw(t.toxic().toxicity())) {
                    pipe(t.toxic().stream()).addStage(t, now);
                }
                toxicsSeen = Math.max(toxicsSeen, t.serial());
            }
        }
        pump();
    }

    /** Releases a tap's stall on both streams; held bytes flow on in order. */
    void releaseStalls(long now) {
        if (closed) {
            return;
        }
        up.releaseStall(now);
        down.releaseStall(now);
        pump();
    }

    /**
     * After a refused connect: schedules another attempt if the retry bound allows it. Returns false when it does
     * not (the caller closes the connection).
     */
    private boolean retryUpstream(long now) {
        if (now + FaultProxy.UPSTREAM_RETRY_GAP_NANOS > retryUntil) {
            return false;
        }
        closeChannel(upstream, false);
        upstream = null;
        upstreamKey = null;
        awaitingRetry = true;
        schedule(now + FaultProxy.UPSTREAM_RETRY_GAP_NANOS, () -> {
            awaitingRetry = false;
            if (up.blackholed() || down.blackholed()) {
                // A black hole arrived meanwhile: the connect is deferred, as for a connection accepted in one.
                updateInterest();
                return;
            }
            try {
                connectUpstream(System.nanoTime());
            } catch (IOException e) {
                close("connect to upstream " + link.upstreamAddress() + " failed: " + e.getMessage());
                return;
            }
            updateInterest();
        });
        return true;
    }

    /** Starts a connect to the upstream; a refusal, reported at once or when the connect completes, is retried. */
    private void connectUpstream(long now) throws IOException {
        upstream = SocketChannel.open();
        upstream.configureBlocking(false);
        upstream.setOption(StandardSocketOptions.TCP_NODELAY, true);
        try {
            upstreamConnected = upstream.connect(link.upstreamAddress());
        } catch (ConnectException e) {
            if (!retryUpstream(now)) {
                close("connect to upstream " + link.upstreamAddress() + " failed: " + e.getMessage());
            }
            return;
        }
        upstreamKey = upstream.register(reactor.selector(), 0, this);
    }

    /** Handles readiness of either socket. */
    void ready(SelectionKey key, ByteBuffer scratch) {
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        try {
            if (key == upstreamKey && key.isConnectable()) {
                upstream.finishConnect();
                upstreamConnected = true;
            }
            if (key == clientKey && key.isReadable() && up.wantsRead()) {
                if (!up.read(client, upstreamConnected ? upstream : null, scratch, now)) {
                    return;
                }
            }
            if (key == upstreamKey && upstreamConnected && key.isReadable() && down.wantsRead()) {
                if (!down.read(upstream, client, scratch, now)) {
                    return;
                }
            }
        } catch (IOException e) {
            // A reset or refusal from either side: pass the abortive close on.
            if (key == upstreamKey && !upstreamConnected) {
                if (e instanceof ConnectException && retryUpstream(now)) {
                    updateInterest();
                    return;
                }
                close("connect to upstream " + link.upstreamAddress() + " failed: " + e.getMessage());
            } else {
                reset("I/O error: " + e.getMessage());
            }
            return;
        }
        pump();
    }

    /** Writes what is due both ways, closes when both directions ended, and refreshes interest. */
    void pump() {
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        try {
            up.flush(upstreamConnected ? upstream : null, now);
            if (!closed) {
                down.flush(client, now);
            }
        } catch (IOException e) {
            reset("write failed: " + e.getMessage());
            return;
        }
        if (closed) {
            return;
        }
        if (up.finished() && down.finished()) {
            close("both sides closed");
            return;
        }
        if (up.sourceEnded() && upstream == null && !awaitingRetry) {
            close("client closed while the link was black-holed");
            return;
        }
        updateInterest();
    }

    private void updateInterest() {
        if (closed) {
            return;
        }
        int clientOps = 0;
        // No reading from the client while the upstream connect is under way (or waits for a retry: the client's
        // bytes stay in its socket as they would before a connect succeeded); while it is deferred (a black hole)
        // the client's bytes are read and dropped, or held until the heal closes the connection.
        if (up.wantsRead() && !awaitingRetry && (upstreamConnected || upstream == null)) {
            clientOps |= SelectionKey.OP_READ;
        }
        if (down.wantsWrite()) {
            clientOps |= SelectionKey.OP_WRITE;
        }
        setOps(clientKey, clientOps);
        if (upstreamKey != null) {
            int upOps;
            if (!upstreamConnected) {
                upOps = SelectionKey.OP_CONNECT;
            } else {
                upOps = (down.wantsRead() ? SelectionKey.OP_READ : 0) | (up.wantsWrite() ? SelectionKey.OP_WRITE : 0);
            }
            setOps(upstreamKey, upOps);
        }
    }

    private static void setOps(SelectionKey key, int ops) {
        if (key != null && key.isValid() && key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /** Orderly close of both sockets (FIN). */
    void close(String why) {
        shutdown(false, why);
    }

    /** Abortive close of both sockets (RST, by SO_LINGER 0). */
    void reset(String why) {
        shutdown(true, why);
    }

    private void shutdown(boolean abort, String why) {
        if (closed) {
            return;
        }
        closed = true;
        FaultProxy.LOG.debug("link {} connection {} {}: {}", link.name(), id, abort ? "reset" : "closed", why);
        // Bytes first, then the close: a reader that sees the connection closed sees its final counts.
        link.countDropped(up.queuedBytes() + down.queuedBytes());
        closeChannel(client, abort);
        if (upstream != null) {
            closeChannel(upstream, abort);
        }
        link.connectionClosed(this);
        StreamTap tap = link.tap();
        if (tap != null) {
            try {
                synchronized (link.tapLock) {
                    tap.onClosed(link.name(), id);
                }
            } catch (RuntimeException e) {
                FaultProxy.LOG.warn("tap on link {} failed on close of connection {}", link.name(), id, e);
            }
        }
    }

    private static void closeChannel(SocketChannel ch, boolean abort) {
        try {
            if (abort && ch.isOpen()) {
                ch.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
        } catch (ClosedChannelException ignored) {
            // already closed
        } catch (IOException | UnsupportedOperationException e) {
            FaultProxy.LOG.debug("could not set SO_LINGER 0", e);
        }
        try {
            ch.close();
        } catch (IOException e) {
            FaultProxy.LOG.debug("close failed", e);
        }
    }
}
