package io.zkchaos.harness.cluster;

import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.harness.process.ExitStatus;
import io.zkchaos.harness.process.ProcessControl;
import io.zkchaos.nemesis.NemesisDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happened to a cluster's server processes, as {@link ServerEvent}s: every start, every exit (by the nemesis, by
 * the harness, or by itself) and every move of a server's clock. Each backend tells it what it does and sees (the
 * local and ssh backends through their processes' {@link ProcessControl} changes, {@link #processChanged}; the docker
 * backend by its containers); a run {@link #record records} the events into its {@code servers.jsonl}.
 *
 * <p>Who: a first start, a stop and the close are the harness's; every other start and kill is the nemesis' (the
 * {@link io.zkchaos.nemesis.NodeControl} the nemesis acts through is the only way to them), with the fault it was
 * applying on that thread ({@link #nemesis}); an exit nobody asked for has {@code by} null, the end of the server's
 * log, and what the nemesis was doing then.
 *
 * <p>An exit by itself is seen when the backend next looks: once recording, the watch asks the backend to look every
 * {@link #POLL_EVERY} ({@code poll}, on one daemon thread, until {@link #close()}), and a backend looks before every
 * action too, so an exit is recorded before the restart that follows it.
 *
 * <p>Events told before {@link #record} (the cluster's first start, while the history's clock has not begun) are kept
 * and written when recording begins, with their own times: before the history's start, their {@code timeNanos} is
 * negative. Thread-safe; events are written in the order they were told. A sink that fails is logged, never thrown
 * at the backend's action.
 */
public final class ServerWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerWatch.class);

    /** How often a recording watch asks the backend to look for servers that ended by themselves. */
    public static final Duration POLL_EVERY = Duration.ofMillis(200);
    /** How many of a server's last log lines an exit by itself carries. */
    public static final int LAST_LINES = 30;
    /** How many events are kept before recording begins (a cluster that is never recorded keeps no more). */
    static final int KEPT_BEFORE_RECORDING = 1000;

    /** A watch of nothing (a cluster whose processes are not watched); records nothing. */
    public static ServerWatch none() {
        return new ServerWatch(() -> { });
    }

    /** An event told before recording, with the moment it was seen on this JVM's monotonic clock. */
    private record Seen(ServerEvent event, long nanoTime) {
    }

    private final Runnable poll;
    private final List<Seen> kept = new ArrayList<>();
    private Consumer<ServerEvent> sink;
    private LongSupplier clock;
    private volatile Supplier<String> acting = () -> null;
    private volatile Supplier<String> doing = () -> null;
    private ScheduledExecutorService poller;
    private boolean closed;

    /**
     * @param poll looks at every server and tells this watch of any that ended by itself; called on the watch's
     *             thread every {@link #POLL_EVERY} while recording, never concurrently with itself
     */
    public ServerWatch(Runnable poll) {
        this.poll = poll;
    }

    /**
     * Writes every event from now on to {@code sink} (and the ones told before, first), stamped with {@code clock}
     * (ns on the history's clock: the recorder's {@code elapsedNanos}), and starts looking for exits every
     * {@link #POLL_EVERY}. Once per watch.
     *
     * @throws IllegalStateException when already recording, or closed
     */
    public void record(Consumer<ServerEvent> sink, LongSupplier clock) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the server watch is closed: its cluster is closed");
            }
            if (this.sink != null) {
                throw new IllegalStateException("the server watch records already");
            }
            this.sink = sink;
            this.clock = clock;
            long nowNanos = System.nanoTime();
            long nowClock = clock.getAsLong();
            for (Seen s : kept) {
                write(withTime(s.event(), nowClock - (nowNanos - s.nanoTime())));
            }
            kept.clear();
            poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "server-watch");
                t.setDaemon(true);
                return t;
            });
            poller.scheduleWithFixedDelay(this::pollOnce, 0, POLL_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * What the nemesis is doing, for the events: {@code acting} names the fault the calling thread applies now (null
     * when it applies none), {@code doing} what is in force (for an exit by itself; null when nothing is).
     */
    public void nemesis(Supplier<String> acting, Supplier<String> doing) {
        this.acting = acting;
        this.doing = doing;
    }

    /** {@link #nemesis(Supplier, Supplier)} from a run's driver: its fault on this thread, its faults in force. */
    public void nemesis(NemesisDriver driver) {
        nemesis(driver::acting, () -> driver.activeFaults().isEmpty() ? null
                : String.join(", ", driver.activeFaults()));
    }

    /**
     * A server process under a {@link ProcessControl} started or ended: the local and ssh backends' one way in.
     *
     * @param lastLines the end of its log, asked only for an end by itself
     */
    public void processChanged(String node, ProcessControl.Change change, Supplier<String> lastLines) {
        switch (change.cause()) {
            case STARTED -> started(node, ServerEvent.BY_HARNESS);
            case RESTARTED -> started(node, ServerEvent.BY_NEMESIS);
            case KILLED -> exited(node, ServerEvent.BY_NEMESIS, change.exitCode(), null);
            case STOPPED, RETIRED -> exited(node, ServerEvent.BY_HARNESS, change.exitCode(), null);
            case ENDED -> exited(node, null, change.exitCode(), lastLines);
            default -> throw new IllegalArgumentException("unknown cause " + change.cause());
        }
    }

    /** {@code node}'s server started, by the nemesis (with the fault it applies) or the harness. */
    public void started(String node, String by) {
        tell(new ServerEvent(node, ServerEvent.Kind.STARTED, 0, System.currentTimeMillis(), by, fault(by), null,
                null, List.of(), null, null));
    }

    /**
     * {@code node}'s server ended: by the nemesis (with the fault it applies), by the harness, or by itself ({@code by}
     * null: then with the end of its log and what the nemesis was doing).
     *
     * @param exitCode  its exit code (128 + N when signal N ended it), or null when unknown
     * @param lastLines the end of its log, asked only when it ended by itself; null: none
     */
    public void exited(String node, String by, Integer exitCode, Supplier<String> lastLines) {
        List<String> lines = List.of();
        String nemesisDoing = null;
        if (by == null) {
            lines = lastLines == null ? List.of() : lines(lastLines.get());
            nemesisDoing = ask(doing);
        }
        tell(new ServerEvent(node, ServerEvent.Kind.EXITED, 0, System.currentTimeMillis(), by, fault(by), exitCode,
                ExitStatus.signal(exitCode), lines, nemesisDoing, null));
    }

    /** The nemesis moved these servers' clocks to these offsets (zero: reset); a CLOCK event each. */
    public void clockMoved(Map<String, Duration> offsets) {
        long now = System.currentTimeMillis();
        String fault = fault(ServerEvent.BY_NEMESIS);
        offsets.forEach((node, offset) -> tell(new ServerEvent(node, ServerEvent.Kind.CLOCK, 0, now,
                ServerEvent.BY_NEMESIS, fault, null, null, List.of(), null, offset.toMillis())));
    }

    /** Stops looking for exits (its cluster closes); events told later (the close's) are still written. */
    @Override
    public void close() {
        ScheduledExecutorService p;
        synchronized (this) {
            closed = true;
            p = poller;
            poller = null;
        }
        if (p == null) {
            return;
        }
        p.shutdownNow();
        try {
            if (!p.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("the server watch's poll did not end within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pollOnce() {
        try {
            poll.run();
        } catch (RuntimeException e) {
            LOG.warn("looking for servers that ended: {}", e.toString());
        }
    }

    private synchronized void tell(ServerEvent event) {
        if (sink == null) {
            if (kept.size() < KEPT_BEFORE_RECORDING) {
                kept.add(new Seen(event, System.nanoTime()));
            }
            return;
        }
        write(withTime(event, clock.getAsLong()));
    }

    private void write(ServerEvent event) {
        try {
            sink.accept(event);
        } catch (RuntimeException e) {
            LOG.warn("cannot record {}: {}", event, e.toString());
        }
    }

    /** The fault the nemesis applies on this thread, for an event by the nemesis; else null. */
    private String fault(String by) {
        return ServerEvent.BY_NEMESIS.equals(by) ? ask(acting) : null;
    }

    private static String ask(Supplier<String> s) {
        try {
            return s.get();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static List<String> lines(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        List<String> all = Arrays.asList(text.split("\n"));
        return List.copyOf(all.subList(Math.max(0, all.size() - LAST_LINES), all.size()));
    }

    private static ServerEvent withTime(ServerEvent e, long timeNanos) {
        return new ServerEvent(e.node(), e.kind(), timeNanos, e.epochMillis(), e.by(), e.fault(), e.exitCode(),
                e.signal(), e.lastLines(), e.nemesis(), e.clockOffsetMillis());
    }
}
