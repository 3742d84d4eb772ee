package io.zkchaos.harness.cluster.local;

import io.zkchaos.fle.net.FreePorts;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ClusterNotReadyException;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.lazyfs.LazyFsMount;
import io.zkchaos.harness.cluster.lazyfs.Mounts;
import io.zkchaos.harness.cluster.server.NodeLayout;
import io.zkchaos.harness.cluster.server.NodeProcesses;
import io.zkchaos.harness.cluster.server.PeerRouting;
import io.zkchaos.harness.cluster.server.ProcessCluster;
import io.zkchaos.harness.cluster.server.ServerFiles;
import io.zkchaos.harness.cluster.server.ServerKind;
import io.zkchaos.harness.cluster.zab.ZabProtocol;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.harness.process.JvmProcess;
import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.harness.process.ProcessControl;
import io.zkchaos.harness.process.ProcessMarkers;
import io.zkchaos.harness.process.Reaper;
import io.zkchaos.harness.process.ShutdownRegistry;
import io.zkchaos.nemesis.ClockControl;
import io.zkchaos.nemesis.DataReplacement;
import io.zkchaos.nemesis.DiskControl;
import io.zkchaos.nemesis.DiskFault;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.PowerFailure;
import io.zkchaos.nemesis.frame.FrameTaps;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local backend: every server a separate JVM — {@code QuorumPeerMain} from the jars Maven resolved for the
 * configured version, or the project's own fle node ({@link ServerKind}: what differs between the two) — on its own
 * loopback address with its own ports, data directory, config and log, all under the run directory:
 * <pre>
 * &lt;run&gt;/run.properties          run id and owner
 * &lt;run&gt;/n1/zoo.cfg (or node.cfg), hosts, logback.xml, data/, tmp/, server.log, server.pid
 * </pre>
 * Start with {@link #start(ClusterConfig)}; it reaps orphans of dead harnesses first ({@link #reapLeftovers}), and
 * returns once a quorum serves. Every server is a {@link JvmProcess} under the shared {@link ProcessCluster} body and
 * dies with the harness: {@link #close()}, the {@link ShutdownRegistry} for clusters still open, and the
 * {@link Reaper} for a harness that was SIGKILLed.
 */
public final class LocalCluster extends ProcessCluster<JvmProcess>
        implements PowerFailure, DataReplacement, DiskControl, ClockControl {

    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
    private static final Duration FLW_TIMEOUT = Duration.ofMillis(500);

    private final ServerKind kind;
    private final LinkNetwork network;
    private final PeerRouting routing;
    private final FrameTaps frames;
    /** Each node's data directory on the lazy file system, when {@link ClusterConfig#lazyFs()}. */
    private final Map<String, LazyFsMount> mounts = new ConcurrentHashMap<>();
    /** Each node whose disk fails now, with its faults in the order they began (on its lazy file system). */
    private final Map<String, List<DiskFault>> diskFaults = new ConcurrentHashMap<>();
    /** The lazy file system's counters of each node whose disk fails now, when its first fault began. */
    private final Map<String, Map<String, Long>> diskCountsAtFault = new ConcurrentHashMap<>();
    /** Waits until the servers have read their clocks' control files ({@link ProcessClock#awaitApplied}). */
    private volatile Runnable clockWait = ProcessClock::awaitApplied;

    private LocalCluster(ClusterConfig config, ServerKind kind, String runId, NodeProcesses<JvmProcess> processes,
                         LinkNetwork network, PeerRouting routing, FrameTaps frames) {
        super(config, runId, processes);
        this.kind = kind;
        this.network = network;
        this.routing = routing;
        this.frames = frames;
    }

    /** Starts with the server jars resolved by {@link ZooKeeperResolver#fromEnvironment()}. */
    public static LocalCluster start(ClusterConfig config) {
        return start(config, ZooKeeperResolver.fromEnvironment());
    }

    /**
     * Resolves the configured version, writes every file, starts every server and waits (up to
     * {@link ClusterConfig#startTimeout()}) until a quorum serves. On any failure everything started is stopped.
     *
     * @throws io.zkchaos.harness.cluster.zookeeper.VersionResolutionException if the version cannot be resolved
     * @throws ClusterNotReadyException if no quorum serves in time
     */
    public static LocalCluster start(ClusterConfig config, ZooKeeperResolver resolver) {
        Path run = config.runDirectory();
        Path runsRoot = run.getParent();
        reapLeftovers(runsRoot != null ? runsRoot : run);
        ServerKind kind = ServerKind.of(config, resolver);
        String runId = ProcessMarkers.newRun(run, "version=" + config.version(), "system=" + kind.describe(),
                "nodes=" + config.nodes());

        Addresses addresses = Addresses.of(config.baseAddress(), config.nodes());
        FreePorts ports = new FreePorts();
        List<NodeLayout> layouts = new ArrayList<>();
        for (int i = 1; i <= config.nodes(); i++) {
            String address = addresses.node(i);
            List<String> peerAddresses = new ArrayList<>(List.of(address));
            if (config.proxied()) {
                for (int from = 1; from <= config.nodes(); from++) {
                    if (from != i) {
                        peerAddresses.add(addresses.link(from, i));
                    }
                }
            }
            layouts.add(new NodeLayout("n" + i, i, address, ports.freeOn(List.of(address)),
                    ports.freeOn(peerAddresses), ports.freeOn(peerAddresses), run.resolve("n" + i)));
        }
        LinkNetwork network;
        PeerRouting routing;
        FrameTaps frames = null;
        if (config.proxied()) {
            List<Integer> clientProxyPorts = layouts.stream()
                    .map(n -> ports.freeOn(List.of(n.address()))).toList();
            ProxyNetwork proxied = new ProxyNetwork(new FaultProxy(config.seed()), layouts, addresses,
                    clientProxyPorts);
            network = proxied.links();
            routing = proxied;
            if (config.nodes() > 1 && config.system() == SystemUnderTest.ZOOKEEPER) {
                // before any server starts: a decoder must see every quorum connection from its first byte (the fle
                // nodes speak their own protocol: no ZooKeeper framing to decode there)
                try {
                    frames = FrameTaps.install(network, config.nodeNames(), new ZabProtocol());
                } catch (RuntimeException e) {
                    proxied.close();
                    throw e;
                }
            }
        } else {
            DirectNetwork direct = new DirectNetwork(layouts);
            network = direct;
            routing = direct;
        }

        NodeProcesses<JvmProcess> processes = new NodeProcesses<>();
        for (NodeLayout n : layouts) {
            kind.writeFiles(config, n, layouts, routing);
            processes.add(n, kind.process(config, n, runId));
        }
        return launch(new LocalCluster(config, kind, runId, processes, network, routing, frames), cluster -> {
            if (config.lazyFs()) {
                cluster.mountDataDirectories();
            }
        });
    }

    /**
     * Ends what killed harnesses left under {@code root} and on the machine: their server and client processes
     * ({@link Reaper#reapLeftovers}), then, unless {@value Reaper#SWEEP_PROPERTY} is false, their lazy file systems
     * ({@link Mounts#sweepOrphans}). Logs what it ends; never throws.
     */
    static void reapLeftovers(Path root) {
        Reaper.reapLeftovers(root);
        if (Reaper.sweepEnabled()) {
            try {
                Mounts.sweepOrphans(id -> true);
            } catch (RuntimeException e) {
                LOG.warn("could not sweep for orphaned lazy file systems: {}", e.toString());
            }
        }
    }

    /** Puts every node's {@code data/} on the lazy file system (its files move to {@code data.disk/}). */
    private void mountDataDirectories() {
        for (NodeLayout n : layouts()) {
            mounts.put(n.name(), LazyFsMount.mount(n.dir().resolve("data"), ProcessMarkers.arguments(runId()),
                    n.dir().resolve("lazyfs.log"), Duration.ofSeconds(30)));
        }
    }

    @Override
    public String connectString(String node) {
        return hostPort(routing.clientAddress(layout(node).id()));
    }

    private static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /**
     * A connect string naming the node's own client port, bypassing the fault network: for the harness's own
     * reads (final state, comparisons), never for workload clients.
     */
    public String directConnectString(String node) {
        return hostPort(layout(node).clientAddress());
    }

    @Override
    protected NodeStatus askStatus(String node) {
        return kind.status(node, layout(node), FLW_TIMEOUT);
    }

    @Override
    protected String logName(String node) {
        return process(node).process().logFile().toString();
    }

    /**
     * SIGKILLs the node and drops what it wrote but did not fsync, in every file of its data directory.
     *
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#lazyFs()}
     */
    @Override
    public void killLosingUnsyncedWrites(String node) {
        ProcessControl<JvmProcess> p = process(node);
        LazyFsMount m = mount(node, "drop " + node + "'s unsynced writes");
        p.kill();
        m.loseUnsynced();
    }

    /**
     * SIGKILLs the node and empties its data directory but for its {@code myid}: what an operator who re-imaged the
     * host leaves. On the lazy file system the files go through the mount (what it held unsynced goes with them).
     *
     * @throws UnsupportedOperationException for the fle nodes (only ZooKeeper servers' data directories are emptied)
     */
    @Override
    public void replaceDisk(String node) {
        ServerFiles.emptyDataDirectory(killForNewDisk(node).dir().resolve("data"));
    }

    /**
     * SIGKILLs the node, then keeps a seeded prefix of what each of its files had not fsynced and drops the rest.
     *
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#lazyFs()}
     */
    @Override
    public String killTearingUnsyncedWrites(String node, long seed) {
        ProcessControl<JvmProcess> p = process(node);
        LazyFsMount m = mount(node, "tear " + node + "'s unsynced writes");
        p.kill();
        return m.tearUnsynced(seed).toString();
    }

    /**
     * Makes the node's data directory fail through its lazy file system's control file; the server meets it at its
     * next write or fsync.
     *
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#lazyFs()}
     */
    @Override
    public void injectDiskFault(String node, DiskFault fault) {
        LazyFsMount m = mount(node, "make " + node + "'s disk fail");
        if (fault instanceof DiskFault.WriteErrors) {
            m.failWrites();
        } else if (fault instanceof DiskFault.FsyncErrors) {
            m.failFsyncs();
        } else if (fault instanceof DiskFault.Full) {
            m.fill();
        } else if (fault instanceof DiskFault.SlowFsync s) {
            m.slowFsyncs(s.least(), s.most(), s.seed());
        } else {
            throw new IllegalArgumentException("unknown disk fault " + fault);
        }
        diskFaults.compute(node, (n, before) -> {
            if (before == null) {
                diskCountsAtFault.put(node, m.counters()); // the window of the faults begins here
            }
            List<DiskFault> now = before == null ? new ArrayList<>() : new ArrayList<>(before);
            now.add(fault);
            return List.copyOf(now);
        });
    }

    /** Clears every fault of the node's lazy file system (asked even when none is known to hold: it is idempotent). */
    @Override
    public void repairDisk(String node) {
        mount(node, "repair " + node + "'s disk").clearFaults();
        diskFaults.remove(node);
        diskCountsAtFault.remove(node);
    }

    /** The lazy file system's counters now, less those when the node's disk began to fail; empty when it does not. */
    @Override
    public Optional<Map<String, Long>> diskCountsSinceFault(String node) {
        Map<String, Long> then = diskCountsAtFault.get(node);
        LazyFsMount m = mounts.get(node);
        if (then == null || m == null) {
            return Optional.empty();
        }
        Map<String, Long> delta = new LinkedHashMap<>();
        m.counters().forEach((k, v) -> delta.put(k, v - then.getOrDefault(k, 0L)));
        return Optional.of(delta);
    }

    /**
     * The node's process as the operating system shows it: gone when its last incarnation has exited (or none was
     * started), stopped when {@code /proc/<pid>/stat} says so (state {@code T}), running otherwise.
     */
    @Override
    public Optional<NodeState> processSeen(String node) {
        Process p;
        try {
            p = process(node).process().process();
        } catch (IllegalStateException neverStarted) {
            return Optional.of(NodeState.DOWN);
        }
        if (!p.isAlive()) {
            return Optional.of(NodeState.DOWN);
        }
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            // pid (comm) state ...: the state follows the last ')' (a command may hold spaces and parentheses)
            char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
            return Optional.of(state == 'T' || state == 't' ? NodeState.PAUSED : NodeState.RUNNING);
        } catch (java.io.IOException | RuntimeException e) {
            return p.isAlive() ? Optional.empty() : Optional.of(NodeState.DOWN);
        }
    }

    /** ZooKeeper servers' clocks, read from the line each logs for a {@code srvr} (the fle nodes log none). */
    @Override
    public Optional<io.zkchaos.nemesis.ClockReading> readClock(String node) {
        if (config.system() != SystemUnderTest.ZOOKEEPER) {
            return Optional.empty();
        }
        return io.zkchaos.harness.cluster.ClockReadBack.read(layout(node).clientAddress(), logFile(node),
                Duration.ofSeconds(3));
    }

    @Override
    public Map<String, List<DiskFault>> diskFaults() {
        return Map.copyOf(diskFaults);
    }

    private LazyFsMount mount(String node, String what) {
        process(node);
        LazyFsMount m = mounts.get(node);
        if (m == null) {
            throw new UnsupportedOperationException("cannot " + what + ": the data directories are not on the lazy "
                    + "file system (start the cluster with lazyFs, --lazyfs)");
        }
        return m;
    }

    /** Writes back every node's unsynced writes, when the data directories are on the lazy file system. */
    @Override
    public void writeBack() {
        mounts.values().forEach(LazyFsMount::syncAll);
    }

    /** The node's data directory on the lazy file system, when the cluster has one (for its counters). */
    public Optional<LazyFsMount> lazyFsMount(String node) {
        process(node);
        return Optional.ofNullable(mounts.get(node));
    }

    /** One node's clock: {@link #setClockOffsets} with one entry. */
    @Override
    public void setClockOffset(String node, Duration offset) {
        setClockOffsets(Map.of(node, offset));
    }

    /**
     * Moves the nodes' wall clocks through their {@link ProcessClock}s (libfaketime's control files): writes every
     * file, then waits once until the servers have read them, so that a skew of every server takes one wait.
     *
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#clocks()}
     */
    @Override
    public void setClockOffsets(Map<String, Duration> offsets) {
        requireMovableClocks(offsets.keySet(), "the machine's clock");
        Map<ProcessClock, Duration> clocks = new LinkedHashMap<>();
        offsets.forEach((node, offset) -> clocks.put(ProcessClock.in(layout(node).dir(), "the servers'"), offset));
        ProcessClock.setAll(clocks, clockWait);
        clocksMoved(offsets);
    }

    /** Replaces the wait after a clock change (a test counts the waits; the wait it passes still has to wait). */
    void clockWait(Runnable wait) {
        this.clockWait = wait;
    }

    @Override
    public Map<String, Duration> clockOffsets() {
        return movedClocks();
    }

    @Override
    public String summary() {
        List<String> parts = new ArrayList<>();
        if (config.lazyFs()) {
            parts.add("data directories on the lazy file system (writes held until fsync)");
        }
        if (config.clocks()) {
            parts.add("servers' wall clocks movable (libfaketime preloaded, " + ProcessClock.library().orElse(null)
                    + ")");
        }
        return String.join("; ", parts);
    }

    @Override
    public LinkNetwork links() {
        return network;
    }

    @Override
    public Optional<FrameTaps> frames() {
        return Optional.ofNullable(frames);
    }

    @Override
    public Path logFile(String node) {
        return process(node).process().logFile();
    }

    /** Every proxy listen address (empty with direct links), e.g. to check none is left bound after close. */
    public List<InetSocketAddress> proxyListenAddresses() {
        return routing instanceof ProxyNetwork p ? p.listenAddresses() : List.of();
    }

    /** The last lines of a node's log. */
    @Override
    public String logTail(String node, int lines) {
        return process(node).process().logTail(lines);
    }

    /** Closes the frame taps, unmounts the lazy file systems and closes the proxies. */
    @Override
    protected void closeRest() {
        if (frames != null) {
            frames.close();
        }
        for (LazyFsMount m : mounts.values()) {
            try {
                m.close();
            } catch (RuntimeException e) {
                LOG.warn("unmounting {} while closing: {}", m, e.toString());
            }
        }
        if (routing instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing the network: {}", e.toString());
            }
        }
    }
}
