package io.zkchaos.harness.cluster.server;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.QuorumWait;
import io.zkchaos.harness.cluster.ServerWatch;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.process.ManagedProcess;
import io.zkchaos.harness.process.MovedClocks;
import io.zkchaos.harness.process.ProcessControl;
import io.zkchaos.harness.process.ShutdownRegistry;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.net.LinkNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body every backend of servers shares: one {@link ManagedProcess} per node under its {@link ProcessControl}
 * ({@link NodeProcesses}), so that start, stop, kill, pause and resume, the node states, the servers' exits seen by
 * the {@link ServerWatch}, the explanation of a node that did not serve, the start-up wait and the close are written
 * once. A backend says how a server process is made (a {@code JvmProcess} on this machine, a {@code RemoteProcess}
 * over ssh, a container) and what it alone has: how the node is asked {@code srvr}, its links, its own close.
 *
 * <p>What only some backends can do (disks, clocks) stays theirs; the helpers here ({@link #killForNewDisk},
 * {@link #requireMovableClocks}, {@link #clocksMoved}) keep the shared half of it in one place.
 *
 * @param <P> the kind of server process
 */
public abstract class ProcessCluster<P extends ManagedProcess> implements Cluster {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);

    protected final ClusterConfig config;
    private final String runId;
    protected final NodeProcesses<P> processes;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Each node whose wall clock is moved now, with its offset (for the backends that move clocks). */
    private final MovedClocks<String> clockOffsets = new MovedClocks<>();

    /**
     * @param processes the nodes' processes, filled before {@link #launch} starts them (by the constructor's caller or
     *                  the set-up step)
     */
    protected ProcessCluster(ClusterConfig config, String runId, NodeProcesses<P> processes) {
        this.config = config;
        this.runId = runId;
        this.processes = processes;
    }

    /**
     * Registers {@code cluster} for closing at shutdown, runs {@code setUp} on it, starts every server and waits (up
     * to {@link ClusterConfig#startTimeout()}) until a quorum serves; on any failure closes it and rethrows.
     *
     * @throws io.zkchaos.harness.cluster.ClusterNotReadyException if no quorum serves in time
     */
    protected static <C extends ProcessCluster<?>> C launch(C cluster, Consumer<? super C> setUp) {
        ShutdownRegistry.register(cluster);
        try {
            setUp.accept(cluster);
            cluster.startServers();
            QuorumWait.await(cluster, cluster.config.startTimeout(), cluster.processes::exitedNode,
                    cluster::explain);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts every server (in node order; a backend whose starts are slow may start them at once). */
    protected void startServers() {
        processes.startAll();
    }

    @Override
    public ClusterConfig config() {
        return config;
    }

    /** The run id every server of this cluster carries (on its command line, its labels, its run directory). */
    public String runId() {
        return runId;
    }

    @Override
    public Path runDirectory() {
        return config.runDirectory();
    }

    @Override
    public ServerWatch servers() {
        return processes.watch();
    }

    @Override
    public String connectString() {
        return processes.names().stream().map(this::connectString).collect(Collectors.joining(","));
    }

    @Override
    public NodeState state(String node) {
        return processes.state(node);
    }

    /** The pid of the node's server (on its host, or the engine's), or -1 when it is down. */
    public long pid(String node) {
        return processes.pid(node);
    }

    /** Down or paused: unreachable, without asking; otherwise what the server answers ({@link #askStatus}). */
    @Override
    public NodeStatus status(String node) {
        return processes.unreachableStatus(node).orElseGet(() -> askStatus(node));
    }

    /** What the running server answers to {@code srvr}, or why it does not (never throws). */
    protected abstract NodeStatus askStatus(String node);

    @Override
    public void awaitQuorum(Duration bound) {
        QuorumWait.await(this, bound, Optional::empty, this::explain);
    }

    /** For a node that did not serve: where it runs, its state, exit code and the end of its log. */
    protected final String explain(String node) {
        return processes.explain(node, where(node), logName(node));
    }

    /** Where the node runs, for {@link #explain}: {@code " on <host>"}; empty on this machine. */
    protected String where(String node) {
        return "";
    }

    /** The name of the node's log for {@link #explain} (a path, or words). */
    protected abstract String logName(String node);

    @Override
    public void start(String node) {
        processes.start(node);
    }

    @Override
    public void stop(String node) {
        processes.stop(node);
    }

    @Override
    public void kill(String node) {
        processes.kill(node);
    }

    @Override
    public void pause(String node) {
        processes.pause(node);
    }

    @Override
    public void resume(String node) {
        processes.resume(node);
    }

    /**
     * Heals the links, kills every server for good, then lets the backend release the rest
     * ({@link #closeRest}); each step is tried whatever the previous one did. Idempotent.
     */
    @Override
    public final void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            LinkNetwork links = links();
            if (links != null) {
                links.heal();
            }
        } catch (RuntimeException e) {
            LOG.warn("healing the network while closing: {}", e.toString());
        }
        processes.retireAll("its cluster is closed", LOG);
        try {
            closeRest();
        } finally {
            ShutdownRegistry.unregister(this);
        }
    }

    /** What the backend releases once every server is gone (logs to save, proxies, mounts, hosts); must not throw. */
    protected abstract void closeRest();

    /** Whether {@link #close()} has begun. */
    protected final boolean closed() {
        return closed.get();
    }

    /** The node's process under its control; refuses an unknown node, naming the nodes. */
    protected final ProcessControl<P> process(String node) {
        return processes.get(node);
    }

    /** Where the node lives. */
    protected final NodeLayout layout(String node) {
        return processes.layout(node);
    }

    /** Where each node lives (address, ports, directory), in node order. */
    public final List<NodeLayout> layouts() {
        return processes.layouts();
    }

    // ---- the shared half of what only some backends do

    /**
     * SIGKILLs a ZooKeeper server whose data directory is to be emptied (a replaced disk); the caller empties it.
     *
     * @throws UnsupportedOperationException for the fle nodes (only ZooKeeper servers' data directories are emptied)
     */
    protected final NodeLayout killForNewDisk(String node) {
        ProcessControl<P> p = process(node);
        if (config.system() != SystemUnderTest.ZOOKEEPER) {
            throw new UnsupportedOperationException("cannot empty " + node + "'s data directory: only ZooKeeper "
                    + "servers' are emptied");
        }
        p.kill();
        return layout(node);
    }

    /**
     * Refuses unknown nodes, and every node when the servers were started on unmovable clocks.
     *
     * @param clocks whose clocks the servers run on otherwise, for the error ({@code the machine's clock})
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#clocks()}
     */
    protected final void requireMovableClocks(Set<String> nodes, String clocks) {
        nodes.forEach(this::process);
        if (!config.clocks() && !nodes.isEmpty()) {
            throw new UnsupportedOperationException("cannot move the clocks of " + nodes + ": the servers were "
                    + "started on " + clocks + " (start the cluster with clocks(true); a clock nemesis does)");
        }
    }

    /** Records clocks that have moved: what {@link #movedClocks()} says, and the servers' watch. */
    protected final void clocksMoved(Map<String, Duration> offsets) {
        clockOffsets.record(offsets);
        processes.watch().clockMoved(offsets);
    }

    /** Each node whose clock is moved now, with its offset; empty when every clock is true. */
    protected final Map<String, Duration> movedClocks() {
        return clockOffsets.offsets();
    }
}
