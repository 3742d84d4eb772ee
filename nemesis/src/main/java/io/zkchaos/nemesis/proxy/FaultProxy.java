package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Network;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded fault proxy: a {@link Network} of TCP links on loopback, served by a few non-blocking selector
 * threads (Java NIO). Each link listens on its own address and forwards every connection to its upstream, through
 * the toxics set on it (see {@link io.zkchaos.nemesis.net.ToxicType} for their semantics).
 *
 * <p>Threads: {@code threads} selector threads (default: half the cores, {@link #DEFAULT_THREADS}). A link's
 * listening socket lives on one of them (links are dealt out in turn); each connection it accepts is pinned to one
 * thread (connections are dealt out in turn over all threads) and both its sockets, both its streams, its toxics,
 * its timers and its tap calls stay on that thread for its whole life. So a stream's bytes keep their order and a
 * connection's state has a single owner, while busy connections spread over the cores.
 *
 * <p>Buffers are bounded: each direction of a connection holds at most {@code maxQueuedBytes}; when that is full
 * the proxy stops reading from the sender, so TCP flow control pushes back. Timed toxics never sleep: chunks carry
 * release times and the selector wakes for the next one (millisecond resolution).
 *
 * <p>Randomness (toxicity draws, jitter, slice sizes): each connection draws from its own generator, seeded from
 * the proxy's seed, the link's name and the connection's accept number on that link, so its draws do not depend on
 * other connections or on how threads interleave.
 *
 * <p>Lifecycle: RUNNING from construction to {@link #close()}, then CLOSED; close leaves no thread, listening port or
 * connection behind, and link methods then throw {@link IllegalStateException}.
 */
public final class FaultProxy implements Network {
    static final Logger LOG = LoggerFactory.getLogger(FaultProxy.class);

    /** Prefix of the proxy threads' names: {@code zkchaos-fault-proxy-<proxy>-<thread>}. */
    public static final String THREAD_PREFIX = "zkchaos-fault-proxy-";
    /** Default bound on bytes queued in one direction of one connection. */
    public static final int DEFAULT_MAX_QUEUED_BYTES = 256 * 1024;
    /**
     * Default for how long an accepted connection waits for an upstream that refuses: see
     * {@link #FaultProxy(long, int, Duration)}.
     */
    public static final Duration DEFAULT_UPSTREAM_RETRY = Duration.ofMillis(500);
    /**
     * System property that lets links listen on and forward to any address, not only loopback: set (to
     * {@code true}) only by a proxy that serves a container network, such as the Toxiproxy-compatible server in its
     * own container ({@code io.zkchaos.nemesis.toxiproxy.ToxiproxyMain}).
     */
    public static final String ANY_ADDRESS_PROPERTY = "zkchaos.proxy.anyAddress";

    /**
     * Default number of selector threads: the system property {@code zkchaos.proxy.threads} if set, else half the
     * cores the JVM sees (at least one). Why not one per core: the proxy shares the machine with the servers and
     * clients it relays for, and a ZooKeeper ensemble's traffic keeps one proxy thread a few percent busy, so a
     * second thread finds no work that one thread could not do; it only splits the ready connections, so each
     * thread handles fewer messages per wake-up. Measured on 2 cores with a 3-node ensemble
     * ({@code ./zkchaos bench cluster}), 2 threads spent 30-60% more proxy CPU per pipelined getData or setData
     * than 1. More threads pay off for bulk traffic on cores that would otherwise idle (see docs/fault-proxy.md).
     */
    public static final int DEFAULT_THREADS = Math.max(1, Integer.getInteger("zkchaos.proxy.threads",
            Runtime.getRuntime().availableProcessors() / 2));
    /** Gap between two connect attempts to a refusing upstream. */
    static final long UPSTREAM_RETRY_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private enum State { RUNNING, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    private final List<Reactor> reactors;
    private final long seed;
    private final int maxQueuedBytes;
    private final long upstreamRetryNanos;
    /** Links by name, in creation order. */
    private final Map<String, ProxyLink> links = new LinkedHashMap<>();
    /** Names of links being created (bound outside the lock). */
    private final Set<String> reserved = new HashSet<>();
    private final AtomicInteger nextHome = new AtomicInteger();
    private final AtomicInteger nextOwner = new AtomicInteger();
    private final AtomicLong connectionSeq = new AtomicLong();

    /** A proxy with the given seed, the default buffer bound, upstream retry and thread count. */
    public FaultProxy(long seed) {
        this(seed, DEFAULT_MAX_QUEUED_BYTES);
    }

    /** A proxy with the given seed and buffer bound, and the default upstream retry and thread count. */
    public FaultProxy(long seed, int maxQueuedBytes) {
        this(seed, maxQueuedBytes, DEFAULT_UPSTREAM_RETRY);
    }

    /**
     * A proxy with the default thread count ({@link #DEFAULT_THREADS}).
     *
     * @param seed           seeds every random choice the proxy makes
     * @param maxQueuedBytes bound on the bytes held per direction of a connection, at least 1024
     * @param upstreamRetry  how long an accepted connection whose upstream <em>refuses</em> keeps retrying the
     *                       upstream (every 10 ms, reading nothing from the client meanwhile) before the proxy
     *                       closes it; zero closes it at the first refusal. A proxy accepts before it knows whether
     *                       the upstream will, so it cannot pass a refusal on as one: a client that would have
     *                       retried a refused connect (ZooKeeper's follower connecting to a leader that binds its
     *                       port a few ms later) sees a connection that dies instead, and gives up. Holding the
     *                       connection for a short bound makes it succeed as it would have directly; a client of an
     *                       upstream that stays down sees its connection closed after the bound instead of at once.
     */
    public FaultProxy(long seed, int maxQueuedBytes, Duration upstreamRetry) {
        this(seed, maxQueuedBytes, upstreamRetry, DEFAULT_THREADS);
    }

    /**
     * As {@link #FaultProxy(long, int, Duration)}, with {@code threads} selector threads (at least 1). More threads
     * than cores buys nothing; one thread relays everything on one core.
     */
    public FaultProxy(long seed, int maxQueuedBytes, Duration upstreamRetry, int threads) {
        if (maxQueuedBytes < 1024) {
            throw new IllegalArgumentException("maxQueuedBytes must be at least 1024, was " + maxQueuedBytes);
        }
        if (upstreamRetry == null || upstreamRetry.isNegative()) {
            throw new IllegalArgumentException("upstreamRetry must be zero or positive, was " + upstreamRetry);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
        this.seed = seed;
        this.maxQueuedBytes = maxQueuedBytes;
        this.upstreamRetryNanos = upstreamRetry.toNanos();
        int instance = INSTANCES.incrementAndGet();
        int scratch = Math.min(maxQueuedBytes, 64 * 1024);
        Reactor[] rs = new Reactor[threads];
        for (int i = 0; i < threads; i++) {
            rs[i] = new Reactor(this, i, THREAD_PREFIX + instance + "-" + (i + 1), scratch);
        }
        this.reactors = List.of(rs);
        reactors.forEach(Reactor::start);
    }

    /** The number of selector threads. */
    public int threads() {
        return reactors.size();
    }

    @Override
    public ProxyLink createLink(String name, InetSocketAddress listen, InetSocketAddress upstream) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("link name must not be blank");
        }
        checkLoopback("listen", name, listen);
        checkLoopback("upstream", name, upstream);
        requireRunning();
        synchronized (links) {
            if (links.containsKey(name) || !reserved.add(name)) {
                throw new IllegalArgumentException("a link named '" + name + "' already exists");
            }
        }
        ProxyLink link = null;
        try {
            // Called from a proxy thread (a tap), the link lives there: a proxy thread never waits for another.
            Reactor home = reactors.stream().filter(Reactor::inLoop).findFirst()
                    .orElseGet(() -> reactors.get(Math.floorMod(nextHome.getAndIncrement(), reactors.size())));
            link = home.call(() -> new ProxyLink(this, home, name, listen, upstream));
            return link;
        } finally {
            synchronized (links) {
                reserved.remove(name);
                if (link != null) {
                    links.put(name, link);
                }
            }
        }
    }

    private static void checkLoopback(String what, String name, InetSocketAddress a) {
        if (a == null) {
            throw new IllegalArgumentException("link '" + name + "': " + what + " address is missing");
        }
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("link '" + name + "': " + what + " address " + a + " is unresolved");
        }
        if (!a.getAddress().isLoopbackAddress() && !Boolean.getBoolean(ANY_ADDRESS_PROPERTY)) {
            throw new IllegalArgumentException("link '" + name + "': " + what + " address " + a
                    + " is not a loopback address; the embedded proxy only serves 127.0.0.0/8 and ::1");
        }
    }

    @Override
    public Optional<Link> link(String name) {
        synchronized (links) {
            return Optional.ofNullable(links.get(name));
        }
    }

    @Override
    public List<Link> links() {
        synchronized (links) {
            return List.copyOf(links.values());
        }
    }

    @Override
    public boolean removeLink(String name) {
        requireRunning();
        ProxyLink link;
        synchronized (links) {
            link = links.remove(name);
        }
        if (link == null) {
            return false;
        }
        link.shutdown();
        return true;
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return state.get() == State.CLOSED;
    }

    /**
     * Closes every link and connection and stops the proxy threads, waiting for them (bounded: 10 s each).
     * Idempotent. Called from a proxy thread (a tap), it waits for none: each thread closes what it owns as it
     * stops, and one of them may be waiting for the tap lock the caller holds.
     */
    @Override
    public void close() {
        if (!state.compareAndSet(State.RUNNING, State.CLOSED)) {
            return;
        }
        reactors.forEach(Reactor::wakeup);
        synchronized (links) {
            links.clear();
        }
        if (currentReactor() != null) {
            return;
        }
        for (Reactor r : reactors) {
            if (!r.join(TimeUnit.SECONDS.toMillis(Reactor.CALL_TIMEOUT_SECONDS))) {
                LOG.warn("fault proxy thread {} did not stop within {} s", r.threadName(),
                        Reactor.CALL_TIMEOUT_SECONDS);
            }
        }
    }

    // ---- for the proxy's own classes ----

    boolean isRunning() {
        return state.get() == State.RUNNING;
    }

    void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException("the fault proxy is closed");
        }
    }

    /** A proxy thread failed: the whole proxy closes (each thread closes what it owns). */
    void failed() {
        state.set(State.CLOSED);
        reactors.forEach(Reactor::wakeup);
    }

    List<Reactor> reactors() {
        return reactors;
    }

    /** The reactor that the next accepted connection is pinned to: connections are dealt out in turn. */
    Reactor ownerForNewConnection() {
        return reactors.get(Math.floorMod(nextOwner.getAndIncrement(), reactors.size()));
    }

    /** The reactor whose thread is the caller's, or null for any other thread. */
    Reactor currentReactor() {
        for (Reactor r : reactors) {
            if (r.inLoop()) {
                return r;
            }
        }
        return null;
    }

    int maxQueuedBytes() {
        return maxQueuedBytes;
    }

    long upstreamRetryNanos() {
        return upstreamRetryNanos;
    }

    long nextConnectionId() {
        return connectionSeq.incrementAndGet();
    }

    /** The random generator of the {@code index}-th connection accepted by link {@code name}. */
    SplittableRandom connectionRandom(String name, long index) {
        long h = seed;
        h = h * 0x9E3779B97F4A7C15L + name.hashCode();
        h = h * 0x9E3779B97F4A7C15L + index;
        return new SplittableRandom(h);
    }
}
