package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ClusterNotReadyException;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.harness.process.Libfaketime;
import io.zkchaos.harness.cluster.server.DirectRouting;
import io.zkchaos.harness.cluster.server.NodeLayout;
import io.zkchaos.harness.cluster.server.NodeProcesses;
import io.zkchaos.harness.cluster.server.PeerRouting;
import io.zkchaos.harness.cluster.server.ProcessCluster;
import io.zkchaos.harness.cluster.server.ServerKind;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.harness.process.JvmProcess;
import io.zkchaos.harness.process.ProcessControl;
import io.zkchaos.harness.process.ProcessMarkers;
import io.zkchaos.harness.process.ShutdownRegistry;
import io.zkchaos.nemesis.ClockControl;
import io.zkchaos.nemesis.DataReplacement;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.nemesis.net.NodeLinks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ensemble on hosts reached over SSH, as Jepsen runs a database: node {@code n<i>} on the i-th host of the hosts
 * file, each server a JVM the harness starts there from what it brought ({@link Artifacts}: the hosts need only a JRE),
 * with its files in a directory of its own:
 * <pre>
 * &lt;remote dir&gt;/lib/&lt;hash&gt;-&lt;jar&gt;                       the jars, kept for later runs
 * &lt;remote dir&gt;/runs/&lt;run&gt;/run.properties            the run's marks (who made it)
 * &lt;remote dir&gt;/runs/&lt;run&gt;/n1/zoo.cfg, hosts, data/, tmp/, server.log, clock (when clocks move)
 * </pre>
 * Its servers listen on the host's own address with the usual ports ({@value #CLIENT_PORT}, {@value #QUORUM_PORT},
 * {@value #ELECTION_PORT}); clients reach them directly, and the harness asks them {@code srvr} through the host
 * itself ({@link HostSession#ask}), so that it still sees a server whose clients are cut off.
 *
 * <p>Faults are the hosts' own: kill, pause and resume are {@code kill -KILL/-STOP/-CONT} by pid ({@link RemoteProcess}
 * under a {@link ProcessControl}); the links are {@link HostLink}s — iptables rules in the run's chains and traffic
 * control — handed to {@link NodeLinks}, so every cut, partition and grudge is made as on the other backends. A replaced
 * disk is a SIGKILL and the data directory emptied but for {@code myid} on the host ({@link #replaceDisk}). With
 * {@link ClusterConfig#clocks()} every server starts with the host's libfaketime preloaded, reading its offset from
 * {@code clock} in its directory ({@link Libfaketime}; a host without the library fails the start, naming it), which
 * {@link #setClockOffset} rewrites. There are no protocol taps (no proxy sees the bytes): the faults at a protocol
 * moment cannot act here.
 *
 * <p>A start first ends what killed harnesses of this machine left on the hosts ({@link HostReaper}); {@link #close()}
 * heals, kills every server, copies each server's log into the local run directory ({@code <run>/n1/server.log}),
 * removes the run's chains, shaping and directory from the hosts and disconnects. The {@link ShutdownRegistry} closes a
 * cluster still open when the harness is terminated.
 */
public final class SshCluster extends ProcessCluster<RemoteProcess> implements DataReplacement, ClockControl {

    private static final Logger LOG = LoggerFactory.getLogger(SshCluster.class);
    /** Every server's client, quorum and election port, on its host's own address. */
    public static final int CLIENT_PORT = 2181;
    public static final int QUORUM_PORT = 2888;
    public static final int ELECTION_PORT = 3888;
    /** How long a server may take to answer {@code srvr} through its host. */
    private static final Duration FLW_TIMEOUT = Duration.ofSeconds(2);

    private final SshSettings settings;
    private final ServerKind kind;
    private final RemoteMarkers marks;
    private final SshHosts hosts;
    private final Map<String, Host> prepared = new ConcurrentHashMap<>();
    private HostNetwork network;
    private NodeLinks links;

    /** What the harness learned of a host and set up there before its server starts. */
    private record Host(HostSession session, String base, String harnessAddress, String hostName,
                        HostShaper shaper, String faketime) {
        String runDirectory(String runId) {
            return base + "/runs/" + runId;
        }
    }

    private SshCluster(ClusterConfig config, SshSettings settings, ServerKind kind, String runId, SshHosts hosts) {
        super(config, runId, new NodeProcesses<>());
        this.settings = settings;
        this.kind = kind;
        this.marks = RemoteMarkers.current(runId);
        this.hosts = hosts;
    }

    /** Starts with the server jars resolved by {@link ZooKeeperResolver#fromEnvironment()}. */
    public static SshCluster start(ClusterConfig config, SshSettings settings) {
        return start(config, settings, ZooKeeperResolver.fromEnvironment());
    }

    /**
     * Connects to the hosts, ends what killed harnesses left there, checks each host (a JRE, iptables, root, and
     * libfaketime when clocks move), brings
     * the servers' jars and files, installs the run's chains, starts every server and waits (up to
     * {@link ClusterConfig#startTimeout()}) until a quorum serves. On any failure everything started is undone.
     *
     * @throws IllegalArgumentException  for what the ssh backend cannot do (the lazy file system), or too few hosts
     * @throws IllegalStateException     naming the host that cannot be reached or lacks what the backend needs
     * @throws ClusterNotReadyException if no quorum serves in time, with the tail of a server's log
     */
    public static SshCluster start(ClusterConfig config, SshSettings settings, ZooKeeperResolver resolver) {
        if (config.lazyFs()) {
            throw new IllegalArgumentException("lazyfs: the ssh backend keeps the data directories on the hosts' own "
                    + "file systems; the lazy file system is the local backend's");
        }
        ServerKind kind = ServerKind.of(config, resolver);
        String runId = ProcessMarkers.newRun(config.runDirectory(), "backend=ssh", "version=" + config.version(),
                "system=" + kind.describe(), "nodes=" + config.nodes(), "hosts=" + settings.hosts().stream()
                        .limit(config.nodes()).map(SshHost::name).collect(Collectors.joining(",")));
        SshHosts hosts = SshHosts.connect(settings, config.nodes());
        return launch(new SshCluster(config, settings, kind, runId, hosts), SshCluster::setUp);
    }

    /**
     * Readies every host, in parallel and in three commands each (a command costs a shell's start-up, seconds on a
     * busy host): what the host has and what killed harnesses left there; ending that and bringing the jars it lacks;
     * the nodes' files and the run's chains.
     */
    private void setUp() {
        long t0 = System.nanoTime();
        Artifacts jars = Artifacts.of(kind.launch(config, layout("n1", "127.0.0.1", "/")).classpath());
        onEveryHost(s -> {
            prepared.put(s.node(), prepare(s, jars));
            return null;
        });
        LOG.info("hosts ready, jars in place after {} ms", (System.nanoTime() - t0) / 1_000_000);
        List<NodeLayout> layouts = new ArrayList<>();
        for (HostSession s : hosts.sessions().values()) {
            layouts.add(layout(s.node(), s.address(), prepared.get(s.node()).runDirectory(runId()) + "/"
                    + s.node()));
        }
        PeerRouting routing = new DirectRouting(layouts) {
            @Override
            public Optional<String> machineName(int id) {
                return Optional.of(prepared.get("n" + id).hostName());
            }
        };
        Map<String, HostFirewall> firewalls = new ConcurrentHashMap<>();
        onEveryHost(s -> {
            NodeLayout n = layouts.get(Integer.parseInt(s.node().substring(1)) - 1);
            HostFirewall f = new HostFirewall(s, marks);
            Map<String, String> files = new LinkedHashMap<>(kind.files(config, n, layouts, routing));
            if (config.clocks()) {
                files.put(Libfaketime.CONTROL_FILE, Libfaketime.controlLine(Duration.ZERO)); // the true time at start
            }
            s.exec("sh -s", (filesScript(s, n, files) + s.asRoot(f.installCommand())
                    + "\n").getBytes(StandardCharsets.UTF_8), HostSession.COMMAND_TIMEOUT)
                    .require(s, "writing the files of " + n.name() + " and the run's iptables chains");
            firewalls.put(s.node(), f);
            return null;
        });
        LOG.info("files and chains in place after {} ms", (System.nanoTime() - t0) / 1_000_000);
        Map<String, HostShaper> shapers = new LinkedHashMap<>();
        Map<String, String> harness = new LinkedHashMap<>();
        prepared.forEach((node, h) -> {
            shapers.put(node, h.shaper());
            harness.put(node, h.harnessAddress());
        });
        network = new HostNetwork(firewalls, shapers, harness);
        Map<String, Link> clientLinks = new LinkedHashMap<>();
        Map<String, List<Link>> peerLinks = new LinkedHashMap<>();
        for (NodeLayout to : layouts) {
            clientLinks.put(to.name(), network.addClientLink("client-" + to.name(), to.name(), to.address(),
                    to.clientPort()));
            for (NodeLayout from : layouts) {
                if (from.id() != to.id()) {
                    String prefix = from.name() + "-" + to.name();
                    peerLinks.put(NodeLinks.pair(from.name(), to.name()), List.of(
                            network.addPeerLink(prefix + "-quorum", from.name(), from.address(), to.name(),
                                    to.address(), to.quorumPort()),
                            network.addPeerLink(prefix + "-election", from.name(), from.address(), to.name(),
                                    to.address(), to.electionPort())));
                }
            }
        }
        links = new NodeLinks(network, config.nodeNames(), clientLinks, peerLinks);
        for (NodeLayout n : layouts) {
            ServerKind.Launch l = kind.launch(config, n);
            List<String> command = NodeCommands.withEnvironment(environment(n), JvmProcess.commandLine(settings.java(),
                    marks.arguments(), ServerKind.ROLE, l.jvmOptions(), n.dir(), String.join(":",
                            jars.paths(prepared.get(n.name()).base() + "/lib")), l.mainClass(), l.args()));
            processes.add(n, new RemoteProcess(n.name(), hosts.session(n.name()), n.dir().toString(), ServerKind.ROLE,
                    command));
        }
    }

    /** What the node's server starts with beside the host's environment: libfaketime, when clocks move. */
    private Map<String, String> environment(NodeLayout n) {
        return config.clocks() ? Libfaketime.environment(prepared.get(n.name()).faketime(), clockFile(n)) : Map.of();
    }

    private static String clockFile(NodeLayout n) {
        return n.dir().resolve(Libfaketime.CONTROL_FILE).toString();
    }

    private static NodeLayout layout(String node, String address, String dir) {
        return new NodeLayout(node, Integer.parseInt(node.substring(1)), address, CLIENT_PORT, QUORUM_PORT,
                ELECTION_PORT, Path.of(dir));
    }

    /**
     * Readies one host in two commands: the first learns its remote directory, host name, the harness's address as
     * it sees it, whether it has a JRE, iptables and root, which jars it has, what killed harnesses of this machine
     * left ({@link HostReaper#survey}) and what its kernel can shape ({@link HostShaper#probeScript}); the second ends
     * those leftovers and brings the jars it lacks.
     */
    private Host prepare(HostSession s, Artifacts jars) {
        long t0 = System.nanoTime();
        HostFacts facts = HostFacts.look(s, settings);
        List<String> problems = facts.problems(settings, config.clocks());
        if (!problems.isEmpty()) {
            throw new IllegalStateException(s.describe() + ": " + String.join("; ", problems));
        }
        HostReaper.Plan leftovers = HostReaper.plan(facts.sections(), RemoteMarkers::orphaned);
        List<Artifacts.Jar> missing = jars.missing(facts.jars());
        long t1 = System.nanoTime();
        if (!leftovers.commands().isEmpty() || !missing.isEmpty()) {
            String act = (leftovers.commands().isEmpty() ? "" : s.asRoot("sh -c " + Shell.quote(leftovers.script()))
                    + " < /dev/null && ") + (missing.isEmpty() ? "true" : Artifacts.unpack(facts.base() + "/lib"));
            s.exec(act, missing.isEmpty() ? new byte[0] : Artifacts.tar(missing), HostSession.COMMAND_TIMEOUT)
                    .require(s, "ending what killed harnesses left and bringing " + missing.size() + " jar(s)");
        }
        leftovers.ended().forEach(e -> LOG.warn("ended on {}, left by a killed harness: {}", s.describe(), e));
        HostShaper shaper = HostShaper.of(s, facts.sections().getOrDefault("tc", List.of()));
        LOG.info("{}: looked in {} ms, {} thing(s) ended and {} jar(s) sent in {} ms; traffic control: {}",
                s.describe(), (t1 - t0) / 1_000_000, leftovers.ended().size(), missing.size(),
                (System.nanoTime() - t1) / 1_000_000, shaper.describe());
        return new Host(s, facts.base(), facts.harness(), facts.hostName(), shaper, facts.faketime());
    }

    /** The script that writes the run's marks and a node's directories and files (each a quoted here-document). */
    private String filesScript(HostSession s, NodeLayout n, Map<String, String> files) {
        String end = "ZKCHAOS_" + UUID.randomUUID().toString().replace("-", "");
        StringBuilder script = new StringBuilder("set -e\n");
        String runDir = prepared.get(s.node()).runDirectory(runId());
        script.append("mkdir -p ").append(Shell.quote(runDir)).append('\n');
        script.append("cat > ").append(Shell.quote(runDir + "/run.properties")).append(" <<'").append(end)
                .append("'\n").append(marks.words().replace(' ', '\n')).append('\n').append(end).append('\n');
        for (String d : ServerKind.DIRECTORIES) {
            script.append("mkdir -p ").append(Shell.quote(n.dir().resolve(d).toString())).append('\n');
        }
        files.forEach((path, content) -> {
            Path file = n.dir().resolve(path);
            script.append("mkdir -p ").append(Shell.quote(file.getParent().toString())).append('\n');
            script.append("cat > ").append(Shell.quote(file.toString())).append(" <<'").append(end).append("'\n")
                    .append(content.endsWith("\n") ? content : content + "\n").append(end).append('\n');
        });
        return script.toString();
    }

    /** Runs {@code step} on every host in parallel; fails naming every host where it failed. */
    private <T> Map<String, T> onEveryHost(Function<HostSession, T> step) {
        return onHostsOf(hosts.sessions().keySet(), step);
    }

    /** Runs {@code step} on the host of each of {@code nodes} in parallel; fails naming every host where it failed. */
    private <T> Map<String, T> onHostsOf(Collection<String> nodes, Function<HostSession, T> step) {
        Map<String, CompletableFuture<T>> running = new LinkedHashMap<>();
        for (String node : nodes) {
            HostSession s = hosts.session(node);
            running.put(node, CompletableFuture.supplyAsync(() -> step.apply(s)));
        }
        Map<String, T> out = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        running.forEach((node, f) -> {
            try {
                out.put(node, f.join());
            } catch (CompletionException e) {
                failures.add(e.getCause() == null ? e.toString() : e.getCause().getMessage());
            }
        });
        if (!failures.isEmpty()) {
            throw new IllegalStateException(String.join("; ", failures));
        }
        return out;
    }

    /** The hosts and how they are reached. */
    public SshSettings settings() {
        return settings;
    }

    /** The SSH connection to {@code node}'s host, for checks on it. */
    public HostSession host(String node) {
        return hosts.session(node);
    }

    @Override
    public String connectString(String node) {
        NodeLayout n = layout(node);
        return n.address() + ":" + n.clientPort();
    }

    /** {@code srvr} asked through the node's host, so that a server whose clients are cut off still answers. */
    @Override
    protected NodeStatus askStatus(String node) {
        try {
            return FourLetterWords.parseSrvr(node, hosts.session(node).ask(CLIENT_PORT, "srvr", FLW_TIMEOUT));
        } catch (IOException | RuntimeException e) {
            return new NodeStatus(node, Mode.UNREACHABLE, -1, e.toString());
        }
    }

    @Override
    protected String where(String node) {
        return " on " + hosts.session(node).describe();
    }

    @Override
    protected String logName(String node) {
        return process(node).process().logPath();
    }

    @Override
    public LinkNetwork links() {
        return links;
    }

    /**
     * SIGKILLs the node and empties its data directory on its host but for its {@code myid}
     * ({@link NodeCommands#emptyData}): what an operator who re-imaged the host leaves.
     *
     * @throws UnsupportedOperationException for the fle nodes (only ZooKeeper servers' data directories are emptied)
     * @throws IllegalStateException         naming the host when the directory cannot be emptied
     */
    @Override
    public void replaceDisk(String node) {
        NodeLayout n = killForNewDisk(node);
        HostSession s = hosts.session(node);
        s.exec(NodeCommands.emptyData(n.dir().resolve("data").toString()))
                .require(s, "emptying the data directory of " + node);
    }

    /**
     * Moves the node's wall clock: rewrites libfaketime's control file in its directory on its host (a temporary file
     * moved into place, so the library never reads half a line), then waits until the server has read it
     * ({@link Libfaketime#APPLIED_WITHIN}).
     *
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#clocks()}
     */
    @Override
    public void setClockOffset(String node, Duration offset) {
        setClockOffsets(Map.of(node, offset));
    }

    /**
     * Moves several nodes' wall clocks at once: every control file rewritten (in parallel, one command per host),
     * then one wait for them all.
     *
     * @throws UnsupportedOperationException when the cluster was not started with {@link ClusterConfig#clocks()}
     * @throws IllegalStateException         naming each host where the file could not be written
     */
    @Override
    public void setClockOffsets(Map<String, Duration> offsets) {
        requireMovableClocks(offsets.keySet(), "their hosts' clocks"); // before any clock moves
        if (offsets.isEmpty()) {
            return;
        }
        onHostsOf(offsets.keySet(), s -> {
            s.write(clockFile(layout(s.node())), Libfaketime.controlLine(offsets.get(s.node()))
                    .getBytes(StandardCharsets.UTF_8));
            return null;
        });
        Libfaketime.awaitApplied();
        clocksMoved(offsets);
    }

    @Override
    public Map<String, Duration> clockOffsets() {
        return movedClocks();
    }

    /**
     * Where what the hosts' firewalls hold differs from what the links set (empty when all agree): per host, the
     * rules missing and those too many.
     */
    public List<String> firewallDivergences() {
        return network.divergences();
    }

    /** One line per node: which host runs it, what its kernel can shape, and its libfaketime when clocks move. */
    @Override
    public String summary() {
        return "hosts: " + layouts().stream().map(n -> n.name() + " " + hosts.session(n.name()).host().name()
                + (hosts.session(n.name()).host().name().equals(n.address()) ? "" : " (" + n.address() + ")"))
                .collect(Collectors.joining(", ")) + "; traffic control: " + prepared.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + " " + e.getValue().shaper().describe()).collect(Collectors.joining("; "))
                + (config.clocks() ? "; servers' wall clocks movable (libfaketime preloaded: " + prepared.entrySet()
                        .stream().sorted(Map.Entry.comparingByKey())
                        .map(e -> e.getKey() + " " + e.getValue().faketime()).collect(Collectors.joining(", ")) + ")"
                        : "");
    }

    /** The node's server log, copied from its host into the local run directory ({@code <run>/n1/server.log}). */
    @Override
    public Path logFile(String node) {
        Path file = runDirectory().resolve(node).resolve("server.log");
        if (!closed()) {
            fetchLog(node, file);
        }
        return file;
    }

    private void fetchLog(String node, Path file) {
        ProcessControl<RemoteProcess> p = process(node);
        try {
            HostSession.Result r = hosts.session(node).exec("cat " + Shell.quote(p.process().logPath()));
            Files.createDirectories(file.getParent());
            Files.writeString(file, r.ok() ? r.out() : "(no log on " + hosts.session(node).describe() + ": "
                    + r.err().strip() + ")\n", StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot copy the log of {} to {}: {}", node, file, e.toString());
        }
    }

    /**
     * Once every server is gone: copies their logs here, removes the run's chains, shaping and directory from the
     * hosts and disconnects; each step is tried whatever the previous one did.
     */
    @Override
    protected void closeRest() {
        for (String node : processes.names()) {
            fetchLog(node, runDirectory().resolve(node).resolve("server.log"));
        }
        if (links != null) {
            links.close();
        }
        for (Host h : prepared.values()) {
            try {
                h.session().exec("rm -rf " + Shell.quote(h.runDirectory(runId())));
            } catch (RuntimeException e) {
                LOG.warn("removing the run directory on {}: {}", h.session().describe(), e.toString());
            }
        }
        hosts.close();
    }
}
