package io.zkchaos.harness.run;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.ServerObservation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches who leads: asks every server for its own view ({@link Cluster#status}, ZooKeeper's {@code srvr}, straight
 * to the server, not through the fault network) every {@code every}, and appends each change of a server's mode,
 * epoch or process state to the run's {@code cluster.jsonl}, stamped on the history's clock. The report draws the
 * servers' modes from it, and highlights the times two servers said they led.
 *
 * <p>A poll asks the servers one after the other; a paused or down server answers at once (the harness knows), a
 * hung one within the cluster's four-letter-word timeout, so a change is seen within about {@code every} plus that.
 * A change that comes and goes between two polls is not seen.
 *
 * <p>A {@link Listener} may be given every answer as it comes (the {@link LeadershipRecorder} of fle runs). The fle
 * nodes' bug path counts in the answers are added up across restarts ({@link #bugCodePaths()}).
 *
 * <p>One owner thread; {@link #close()} stops it, waits for it, writes every server's last state once more with the
 * time of the end, tells the listener the observation ended, and closes the file. {@code LATENT -> STARTED ->
 * CLOSED}, as the recipes' lifecycles.
 */
public final class LeaderObserver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderObserver.class);

    private enum State { LATENT, STARTED, CLOSED }

    /** Given every answer of every poll, on the observer's thread, then told the observation ended. */
    public interface Listener {
        /** What {@code node} said ({@code status}) and what the harness last did to it ({@code state}). */
        void observed(String node, NodeStatus status, NodeState state);

        /** The observation ended (after the last {@link #observed}); the default does nothing. */
        default void ended() {
        }
    }

    private static final Listener NONE = (node, status, state) -> { };

    private final Cluster cluster;
    private final LongSupplier clock;
    private final ClusterLog.Appender log;
    private final long everyNanos;
    private final Listener listener;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final Map<String, ServerObservation> last = new HashMap<>();
    private final BugPathTally bugPaths = new BugPathTally();
    private Thread thread;

    private LeaderObserver(Cluster cluster, LongSupplier clock, Path file, Duration every, Listener listener) {
        this.cluster = cluster;
        this.clock = clock;
        this.log = ClusterLog.append(file);
        this.everyNanos = every.toNanos();
        this.listener = listener;
    }

    /**
     * Starts observing.
     *
     * @param clock ns on the history's clock (the recorder's {@code elapsedNanos})
     * @param file  the run's {@code cluster.jsonl}
     * @param every how often to ask (the run uses 250 ms)
     */
    public static LeaderObserver start(Cluster cluster, LongSupplier clock, Path file, Duration every) {
        return start(cluster, clock, file, every, NONE);
    }

    /** Starts observing, giving {@code listener} every answer. */
    public static LeaderObserver start(Cluster cluster, LongSupplier clock, Path file, Duration every,
                                       Listener listener) {
        LeaderObserver o = new LeaderObserver(cluster, clock, file, every, listener);
        o.begin();
        return o;
    }

    private void begin() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("already started");
        }
        thread = new Thread(this::loop, "leader-observer");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (state.get() == State.STARTED) {
                long t0 = System.nanoTime();
                pollOnce();
                long wait = everyNanos - (System.nanoTime() - t0);
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks every server once and writes what changed. */
    private void pollOnce() {
        for (String node : cluster.nodes()) {
            if (state.get() != State.STARTED) {
                return;
            }
            try {
                NodeStatus s = cluster.status(node);
                NodeState done = cluster.state(node);
                bugPaths.observed(node, s.bugPaths());
                listener.observed(node, s, done);
                ServerObservation o = new ServerObservation(clock.getAsLong(), node,
                        s.mode().name().toLowerCase(Locale.ROOT), s.epoch(),
                        done.name().toLowerCase(Locale.ROOT), s.error());
                if (!o.sameAs(last.get(node))) {
                    last.put(node, o);
                    log.write(o);
                }
            } catch (RuntimeException e) {
                // An observer that cannot ask must not fail the run; the gap shows in the report as no change.
                LOG.debug("could not observe {}: {}", node, e.toString());
            }
        }
    }

    /**
     * How often each switched-on bug flag's code path ran on the nodes, over every process of every node
     * ({@link BugPathTally}: a lower bound), after asking every node once more now; empty when no node reported
     * counts (ZooKeeper, or the fle nodes' correct build). Call it while the nodes still run, before {@link #close()}.
     */
    public Map<String, Long> bugCodePaths() {
        if (!bugPaths.any()) {
            return Map.of();
        }
        for (String node : cluster.nodes()) {
            try {
                bugPaths.observed(node, cluster.status(node).bugPaths());
            } catch (RuntimeException e) {
                LOG.debug("could not ask {} for its bug path counts: {}", node, e.toString());
            }
        }
        return bugPaths.totals();
    }

    /**
     * Stops observing, writes each server's last state again with the time of the end (so the report knows how long
     * it was observed), and closes the file; idempotent.
     */
    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            listener.ended();
        } catch (RuntimeException e) {
            LOG.warn("the observation's listener failed at its end: {}", e.toString());
        }
        try {
            long now = clock.getAsLong();
            for (String node : cluster.nodes()) {
                ServerObservation o = last.get(node);
                if (o != null) {
                    log.write(new ServerObservation(now, o.node(), o.mode(), o.epoch(), o.state(), o.error()));
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("could not write the end of the observation: {}", e.toString());
        } finally {
            log.close();
        }
    }
}
