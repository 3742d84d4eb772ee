package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Network;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded fault proxy: a {@link Network} of TCP links on loopback, all served by one non-blocking selector
 * thread (Java NIO). Each link listens on its own address and forwards every connection to its upstream, through
 * the toxics set on it (see {@link io.zkchaos.nemesis.net.ToxicType} for their semantics).
 *
 * <p>Buffers are bounded: each direction of a connection holds at most {@code maxQueuedBytes}; when that is full
 * the proxy stops reading from the sender, so TCP flow control pushes back. Timed toxics never sleep: chunks carry
 * release times and the selector wakes for the next one (millisecond resolution).
 *
 * <p>Randomness (toxicity draws, jitter, slice sizes) comes from one {@link Random} seeded at construction.
 * Lifecycle: RUNNING from construction to {@link #close()}, then CLOSED; close leaves no thread, listening port or
 * connection behind, and link methods then throw {@link IllegalStateException}.
 */
public final class FaultProxy implements Network {
    static final Logger LOG = LoggerFactory.getLogger(FaultProxy.class);

    /** Prefix of the proxy thread's name. */
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
    /** Gap between two connect attempts to a refusing upstream. */
    static final long UPSTREAM_RETRY_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long CALL_TIMEOUT_SECONDS = 10;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private enum State { RUNNING, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Task<?>> tasks = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final Random random;
    private final int maxQueuedBytes;
    private final long upstreamRetryNanos;
    private final ByteBuffer scratch;
    /** Links by name, in creation order; written on the proxy thread, read under its own lock. */
    private final Map<String, ProxyLink> links = new LinkedHashMap<>();
    private long timerSeq;
    private long connectionSeq;
    private boolean closesPending;
    /** True while selected keys or timers are being handled. */
    private boolean dispatching;

    /** A proxy with the given seed, the default buffer bound and the default upstream retry. */
    public FaultProxy(long seed) {
        this(seed, DEFAULT_MAX_QUEUED_BYTES);
    }

    /** A proxy with the given seed and buffer bound, and the default upstream retry. */
    public FaultProxy(long seed, int maxQueuedBytes) {
        this(seed, maxQueuedBytes, DEFAULT_UPSTREAM_RETRY);
    }

    /**
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
        if (maxQueuedBytes < 1024) {
            throw new IllegalArgumentException("maxQueuedBytes must be at least 1024, was " + maxQueuedBytes);
        }
        if (upstreamRetry == null || upstreamRetry.isNegative()) {
            throw new IllegalArgumentException("upstreamRetry must be zero or positive, was " + upstreamRetry);
        }
        this.random = new Random(seed);
        this.maxQueuedBytes = maxQueuedBytes;
        this.upstreamRetryNanos = upstreamRetry.toNanos();
        this.scratch = ByteBuffer.allocateDirect(Math.min(maxQueuedBytes, 64 * 1024));
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        this.thread = new Thread(this::loop, THREAD_PREFIX + INSTANCES.incrementAndGet());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    @Override
    public ProxyLink createLink(String name, InetSocketAddress listen, InetSocketAddress upstream) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("link name must not be blank");
        }
        checkLoopback("listen", name, listen);
        checkLoopback("upstream", name, upstream);
        return onLoop(() -> {
            synchronized (links) {
                if (links.containsKey(name)) {
                    throw new IllegalArgumentException("a link named '" + name + "' already exists");
                }
            }
            ProxyLink link = new ProxyLink(this, name, listen, upstream);
            synchronized (links) {
                links.put(name, link);
            }
            return link;
        });
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

    /** The embedded link of that name, with its extras (taps). */
    public Optional<ProxyLink> proxyLink(String name) {
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
        return onLoop(() -> {
            ProxyLink link;
            synchronized (links) {
                link = links.remove(name);
            }
            if (link == null) {
                return false;
            }
            link.shutdown();
            flushCloses();
            return true;
        });
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return state.get() == State.CLOSED;
    }

    /**
     * Closes every link and connection and stops the proxy thread, waiting for it (bounded: 10 s). Idempotent.
     */
    @Override
    public void close() {
        if (!state.compareAndSet(State.RUNNING, State.CLOSED)) {
            return;
        }
        selector.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(CALL_TIMEOUT_SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.warn("fault proxy thread {} did not stop within {} s", thread.getName(), CALL_TIMEOUT_SECONDS);
            }
        }
    }

    // ---- the proxy thread ----

    Selector selector() {
        return selector;
    }

    Random random() {
        return random;
    }

    int maxQueuedBytes() {
        return maxQueuedBytes;
    }

    long upstreamRetryNanos() {
        return upstreamRetryNanos;
    }

    long nextConnectionId() {
        return ++connectionSeq;
    }

    /** Toxicity draw: whether a toxic applies to a connection. */
    boolean draw(double toxicity) {
        return toxicity >= 1.0 || (toxicity > 0.0 && random.nextDouble() < toxicity);
    }

    /** Runs {@code action} on the proxy thread at {@code atNanos} (System.nanoTime) or soon after. */
    void schedule(long atNanos, Runnable action) {
        timers.add(new Timer(atNanos, ++timerSeq, action));
    }

    /**
     * Channels closed while registered are only really closed when the selector next deregisters them; a control
     * call does that before it returns, so that "disabled" means the port refuses at once. While keys are being
     * dispatched (a tap or timer calling a link method) it is left to the loop's next turn.
     */
    void flushCloses() {
        if (dispatching) {
            closesPending = true;
            return;
        }
        try {
            selector.selectNow(); // ready keys it finds stay in the selected set for the loop to handle
        } catch (IOException e) {
            throw new UncheckedIOException("fault proxy selector failed", e);
        }
    }

    /** Runs {@code call} on the proxy thread and returns its result; runs it directly when already there. */
    <T> T onLoop(Callable<T> call) {
        if (Thread.currentThread() == thread) {
            try {
                return call.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        if (state.get() != State.RUNNING) {
            throw new IllegalStateException("the fault proxy is closed");
        }
        Task<T> task = new Task<>(call);
        tasks.add(task);
        selector.wakeup();
        if (state.get() != State.RUNNING) {
            // close() raced with us: the loop may have drained the queue already.
            task.future.completeExceptionally(new IllegalStateException("the fault proxy is closed"));
        }
        try {
            return task.future.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the fault proxy", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the fault proxy thread did not answer within " + CALL_TIMEOUT_SECONDS
                    + " s", e);
        }
    }

    private void loop() {
        try {
            while (state.get() == State.RUNNING) {
                boolean ranTasks = runTasks();
                // After tasks, do not block: a task's selectNow may have left ready keys in the selected set.
                if (ranTasks || closesPending) {
                    closesPending = false;
                    selector.selectNow();
                } else {
                    selector.select(selectTimeoutMillis());
                }
                dispatching = true;
                try {
                    handleSelected();
                    runDueTimers();
                } finally {
                    dispatching = false;
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            LOG.error("fault proxy thread failed; closing every link", e);
            state.set(State.CLOSED);
        } finally {
            shutdownAll();
        }
    }

    private boolean runTasks() {
        boolean any = false;
        Task<?> t;
        while ((t = tasks.poll()) != null) {
            any = true;
            t.run();
        }
        return any;
    }

    private long selectTimeoutMillis() {
        Timer next = timers.peek();
        if (next == null) {
            return 0; // block until an event or a wakeup
        }
        long nanos = next.at - System.nanoTime();
        if (nanos <= 0) {
            return 1; // select(0) would block forever; 1 ms is the smallest wait
        }
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
    }

    private void handleSelected() {
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            if (!key.isValid()) {
                continue;
            }
            Object att = key.attachment();
            if (att instanceof ProxyLink link) {
                if (key.isAcceptable()) {
                    link.acceptReady();
                }
            } else if (att instanceof Connection c) {
                c.ready(key, scratch);
            }
        }
    }

    private void runDueTimers() {
        long now = System.nanoTime();
        while (!timers.isEmpty() && timers.peek().at <= now) {
            Timer t = timers.poll();
            try {
                t.action.run();
            } catch (RuntimeException e) {
                LOG.warn("fault proxy timer failed", e);
            }
        }
    }

    private void shutdownAll() {
        List<ProxyLink> all;
        synchronized (links) {
            all = new ArrayList<>(links.values());
            links.clear();
        }
        for (ProxyLink l : all) {
            try {
                l.shutdown();
            } catch (RuntimeException e) {
                LOG.warn("closing link {} failed", l.name(), e);
            }
        }
        Task<?> t;
        while ((t = tasks.poll()) != null) {
            t.future.completeExceptionally(new IllegalStateException("the fault proxy is closed"));
        }
        timers.clear();
        try {
            selector.selectNow(); // deregister the closed channels so their sockets really close
            selector.close();
        } catch (IOException e) {
            LOG.debug("closing the selector failed", e);
        }
    }

    private record Timer(long at, long seq, Runnable action) implements Comparable<Timer> {
        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private static final class Task<T> implements Runnable {
        final Callable<T> call;
        final CompletableFuture<T> future = new CompletableFuture<>();

        Task(Callable<T> call) {
            this.call = call;
        }

        @Override
        public void run() {
            try {
                future.complete(call.call());
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        }
    }
}
