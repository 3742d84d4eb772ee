package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.zab.ZabProtocol;
import io.zkchaos.nemesis.frame.FrameTaps;
import io.zkchaos.harness.cluster.lazyfs.LazyFsMount;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.harness.cluster.ClusterNotReadyException;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
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
 * Start with {@link #start(ClusterConfig)}; it reaps orphans of dead harnesses first (see {@link Reaper}), and
 * returns once a quorum serves. Every server dies with the harness: {@link #close()}, a JVM shutdown
 * hook for clusters still open, and the {@link Reaper} for a harness that was SIGKILLed.
 */
public final class LocalCluster implements Cluster {

    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
    private static final Set<LocalCluster> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK = new AtomicBoolean();
    private static final Duration FLW_TIMEOUT = Duration.ofMillis(500);

    private final ClusterConfig config;
    private final ServerKind kind;
    private final String runId;
    private final List<NodeLayout> layouts;
    private final Map<String, ServerProcess> processes;
    private final LinkNetwork network;
    private final PeerRouting routing;
    private final FrameTaps frames;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Each node's data directory on the lazy file system, when {@link ClusterConfig#lazyFs()}. */
    private final Map<String, LazyFsMount> mounts = new ConcurrentHashMap<>();

    private LocalCluster(ClusterConfig config, ServerKind kind, String runId, List<NodeLayout> layouts,
                         Map<String, ServerProcess> processes, LinkNetwork network, PeerRouting routing,
                         FrameTaps frames) {
        this.config = config;
        this.kind = kind;
        this.runId = runId;
        this.layouts = layouts;
        this.processes = processes;
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
     * @throws io.zkchaos.harness.cluster.local.VersionResolutionException if the version cannot be resolved
     * @throws ClusterNotReadyException                           if no quorum serves in time
     */
    public static LocalCluster start(ClusterConfig config, ZooKeeperResolver resolver) {
        Path run = config.runDirectory();
        Path runsRoot = run.getParent();
        Reaper.reapLeftovers(runsRoot != null ? runsRoot : run);
        ServerKind kind = ServerKind.of(config, resolver);
        String runId = run.getFileName() + "-" + UUID.randomUUID().toString().substring(0, 8);
        Owner owner = Owner.current();
        try {
            Files.createDirectories(run);
            Files.writeString(run.resolve("run.properties"), "run=" + runId + "\nowner=" + owner
                    + "\nversion=" + config.version() + "\nsystem=" + kind.describe() + "\nnodes=" + config.nodes()
                    + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create run directory " + run, e);
        }

        Addresses addresses = Addresses.of(config.baseAddress(), config.nodes());
        Ports ports = new Ports();
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

        Map<String, ServerProcess> processes = new LinkedHashMap<>();
        for (NodeLayout n : layouts) {
            kind.writeFiles(config, n, layouts, routing);
            processes.put(n.name(), new ServerProcess(n.name(), n.dir(), kind.command(config, n, runId, owner),
                    runId));
        }
        LocalCluster cluster = new LocalCluster(config, kind, runId, List.copyOf(layouts), processes, network,
                routing, frames);
        registerForShutdown(cluster);
        try {
            if (config.lazyFs()) {
                cluster.mountDataDirectories(owner);
            }
            processes.values().forEach(ServerProcess::start);
            cluster.awaitQuorum(config.startTimeout(), true);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Puts every node's {@code data/} on the lazy file system (its files move to {@code data.disk/}). */
    private void mountDataDirectories(Owner owner) {
        for (NodeLayout n : layouts) {
            mounts.put(n.name(), LazyFsMount.mount(n.dir().resolve("data"), List.of(Reaper.RUN_MARKER + runId,
                    Reaper.OWNER_MARKER + owner), n.dir().resolve("lazyfs.log"), Duration.ofSeconds(30)));
        }
    }

    private static void registerForShutdown(LocalCluster cluster) {
        OPEN.add(cluster);
        if (HOOK.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (LocalCluster c : OPEN) {
                    c.close();
                }
            }, "zkchaos-cluster-shutdown"));
        }
    }

    @Override
    public ClusterConfig config() {
        return config;
    }

    /** The run id carried by every server's command line ({@code -Dzkchaos.run=}). */
    public String runId() {
        return runId;
    }

    @Override
    public String connectString() {
        return layouts.stream().map(n -> hostPort(routing.clientAddress(n.id()))).collect(Collectors.joining(","));
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
    public NodeState state(String node) {
        return process(node).state();
    }

    /** The pid of the node's process, or -1 when it is down. */
    public long pid(String node) {
        return process(node).pid();
    }

    @Override
    public NodeStatus status(String node) {
        NodeLayout n = layout(node);
        NodeState s = process(node).state();
        if (s == NodeState.DOWN) {
            return new NodeStatus(node, Mode.UNREACHABLE, -1, "down");
        }
        if (s == NodeState.PAUSED) {
            return new NodeStatus(node, Mode.UNREACHABLE, -1, "paused");
        }
        return kind.status(node, n, FLW_TIMEOUT);
    }

    /** Every node's status, asked in parallel. */
    public Map<String, NodeStatus> statuses() {
        Map<String, NodeStatus> out = new LinkedHashMap<>();
        List<java.util.concurrent.CompletableFuture<NodeStatus>> fs = nodes().stream()
                .map(n -> java.util.concurrent.CompletableFuture.supplyAsync(() -> status(n))).toList();
        for (int i = 0; i < fs.size(); i++) {
            out.put(nodes().get(i), fs.get(i).join());
        }
        return out;
    }

    @Override
    public Optional<String> leader() {
        return leaderOf(statuses());
    }

    private static Optional<String> leaderOf(Map<String, NodeStatus> statuses) {
        return statuses.values().stream()
                .filter(s -> s.mode() == Mode.LEADER || s.mode() == Mode.STANDALONE)
                .max(Comparator.comparingLong(NodeStatus::epoch))
                .map(NodeStatus::node);
    }

    @Override
    public void awaitQuorum(Duration bound) {
        awaitQuorum(bound, false);
    }

    /**
     * @param failOnExit stop waiting as soon as a server process has exited by itself (at start-up nothing the
     *                   harness did can explain that, and waiting longer cannot help)
     */
    private void awaitQuorum(Duration bound, boolean failOnExit) {
        long deadline = System.nanoTime() + bound.toNanos();
        Map<String, NodeStatus> last;
        while (true) {
            last = statuses();
            if (quorumServes(last)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                break;
            }
            if (failOnExit && processes.values().stream().anyMatch(p -> p.lastExitCode() != null)) {
                break;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for a quorum", e);
            }
        }
        // Name a node that exited, else the first that should serve but does not, with its log.
        Map<String, NodeStatus> seen = last;
        NodeStatus culprit = seen.values().stream().filter(s -> process(s.node()).lastExitCode() != null)
                .findFirst().orElseGet(() -> seen.values().stream().filter(s -> !s.mode().serving()).findFirst()
                        .orElse(seen.values().iterator().next()));
        ServerProcess p = process(culprit.node());
        Integer exit = p.lastExitCode();
        boolean exited = exit != null && failOnExit;
        throw new ClusterNotReadyException("no quorum served " + (exited ? "(" + culprit.node()
                + " exited during start-up)" : "within " + bound.toMillis() + " ms") + ": expected "
                + (config.nodes() == 1 ? "n1 to serve standalone" : "one leader and at least "
                + (config.quorumSize() - 1) + " followers among " + nodes())
                + "; saw " + last.values().stream().map(s -> s.node() + "=" + s.mode()
                        + (s.error() == null ? "" : " (" + s.error() + ")")).collect(Collectors.joining(", "))
                + ". " + culprit.node() + " is " + p.state() + (exit == null ? "" : ", exited with code " + exit)
                + "; last lines of " + p.logFile() + ":\n" + p.logTail(30));
    }

    private boolean quorumServes(Map<String, NodeStatus> statuses) {
        if (config.nodes() == 1) {
            return statuses.values().iterator().next().mode() == Mode.STANDALONE;
        }
        Optional<String> leader = leaderOf(statuses);
        if (leader.isEmpty()) {
            return false;
        }
        long leaders = statuses.values().stream().filter(s -> s.mode() == Mode.LEADER).count();
        long followers = statuses.values().stream().filter(s -> s.mode() == Mode.FOLLOWER).count();
        return leaders == 1 && 1 + followers >= config.quorumSize();
    }

    @Override
    public void start(String node) {
        process(node).start();
    }

    @Override
    public void stop(String node) {
        process(node).stop();
    }

    @Override
    public void kill(String node) {
        process(node).kill();
    }

    /**
     * SIGKILLs the node and drops what it wrote but did not fsync, in every file of its data directory.
     *
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#lazyFs()}
     */
    @Override
    public void killLosingUnsyncedWrites(String node) {
        ServerProcess p = process(node);
        LazyFsMount m = mounts.get(node);
        if (m == null) {
            throw new UnsupportedOperationException("cannot drop " + node + "'s unsynced writes: the data "
                    + "directories are not on the lazy file system (start the cluster with lazyFs, --lazyfs)");
        }
        p.kill();
        m.loseUnsynced();
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

    @Override
    public String summary() {
        return config.lazyFs() ? "data directories on the lazy file system (writes held until fsync)" : "";
    }

    @Override
    public void pause(String node) {
        process(node).pause();
    }

    @Override
    public void resume(String node) {
        process(node).resume();
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
        return process(node).logFile();
    }

    @Override
    public Path runDirectory() {
        return config.runDirectory();
    }

    /** Where each node lives (addresses, ports, directory). */
    List<NodeLayout> layouts() {
        return layouts;
    }

    /** Every proxy listen address (empty with direct links), e.g. to check none is left bound after close. */
    public List<InetSocketAddress> proxyListenAddresses() {
        return routing instanceof ProxyNetwork p ? p.listenAddresses() : List.of();
    }

    /** The last lines of a node's log. */
    public String logTail(String node, int lines) {
        return process(node).logTail(lines);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            network.heal();
        } catch (RuntimeException e) {
            LOG.warn("healing the network while closing: {}", e.toString());
        }
        for (ServerProcess p : processes.values()) {
            try {
                p.retire();
            } catch (RuntimeException e) {
                LOG.warn("killing {} while closing: {}", p.name(), e.toString());
            }
        }
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
        OPEN.remove(this);
    }

    private ServerProcess process(String node) {
        ServerProcess p = processes.get(node);
        if (p == null) {
            throw new IllegalArgumentException("unknown node '" + node + "': nodes are " + nodes());
        }
        return p;
    }

    private NodeLayout layout(String node) {
        process(node);
        return layouts.get(Integer.parseInt(node.substring(1)) - 1);
    }
}
