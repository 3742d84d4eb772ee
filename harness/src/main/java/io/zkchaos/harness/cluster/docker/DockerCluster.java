package io.zkchaos.harness.cluster.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Ports;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ClusterNotReadyException;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.harness.cluster.QuorumWait;
import io.zkchaos.harness.cluster.ServerWatch;
import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.harness.cluster.docker.DockerImages.Image;
import io.zkchaos.harness.cluster.docker.image.ZkEntryPoint;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.harness.process.ProcessMarkers;
import io.zkchaos.harness.process.ShutdownRegistry;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.nemesis.net.NodeLinks;
import io.zkchaos.nemesis.toxiproxy.ToxiproxyNetwork;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.toxiproxy.ToxiproxyContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * An ensemble in containers: N ZooKeeper containers and one Toxiproxy container carrying every link, exactly as the
 * local backend's proxies do: per node a client link, and per ordered pair of nodes a quorum link and an election
 * link, handed to {@link NodeLinks} (the one enforcement path of cuts and grudges) as {@code ToxiproxyLink}s.
 *
 * <p>The layout. Node {@code i} listens on quorum port {@code 2880+i} and election port {@code 3880+i} (and 2181
 * for clients), so that one proxy address can carry the links to every peer. Each node has a network of its own,
 * {@code net_i}, which only it and the proxy join: on {@code net_i} the node is {@code n<i>} and the proxy carries
 * the names of all other nodes. So the name {@code n<j>}, looked up inside node {@code i}, is the proxy's address on
 * {@code net_i}, where the link {@code n<i>-n<j>-quorum} listens on {@code n<j>}'s own port and forwards to
 * {@code n<j>}. Every node's {@code zoo.cfg} names its peers alike ({@code server.j=n<j>:288j:388j}), and the
 * address a node advertises in an election (its own name) leads, in each peer, back through that peer's link: no
 * peer connection can bypass the proxy (the same trick as the local backend's private hosts files; see
 * docs/cluster.md). Addresses on each network are fixed ({@link Subnet}), so a restarted node keeps its own.
 *
 * <p>Nothing assumes the engine is this machine: images are built from a tar sent to the engine, files reach
 * containers through the environment or copies, and this process reaches containers only through published ports
 * (the proxy's client links and API; each node's client port for {@code srvr}), at the engine's host
 * ({@code DOCKER_HOST}, or {@code TESTCONTAINERS_HOST_OVERRIDE}).
 *
 * <p>Kill is {@code docker kill} (SIGKILL of the server, the container's process 1; its data stays in the
 * container), start is {@code docker start}, pause is {@code docker pause} (the cgroup freezer: as SIGSTOP).
 *
 * <p>A container whose server ends by itself is seen by {@code docker inspect} (not running, its exit code): before
 * every action on the node, and every {@link ServerWatch#POLL_EVERY} while a run records ({@link #servers()}). It is
 * down from then on, so that a heal starts it again.
 */
public final class DockerCluster implements Cluster {

    private static final Logger LOG = LoggerFactory.getLogger(DockerCluster.class);
    private static final Duration FLW_TIMEOUT = Duration.ofMillis(500);
    /** The port every node's clients use inside its container. */
    static final int CLIENT_PORT = 2181;
    /** Toxiproxy's first proxied port that Testcontainers publishes: client link of node i listens on 8665+i. */
    static final int FIRST_PROXY_PORT = 8666;

    private final ClusterConfig config;
    private final String runId;
    private final DockerClient client;
    private final Image zookeeperImage;
    private final Image toxiproxyImage;
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final List<Subnet> subnets = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private ToxiproxyContainer proxy;
    private NodeLinks links;
    private ToxiproxyNetwork toxiproxy;
    /** Told of every start and end; it looks for containers that ended by themselves. */
    private final ServerWatch watch = new ServerWatch(this::lookForExits);

    /** One ZooKeeper container and what the harness did to it last. */
    private static final class Node {
        final String name;
        final int id;
        final GenericContainer<?> container;
        NodeState state = NodeState.DOWN;
        InetSocketAddress direct;

        Node(String name, int id, GenericContainer<?> container) {
            this.name = name;
            this.id = id;
            this.container = container;
        }
    }

    private DockerCluster(ClusterConfig config, String runId, DockerClient client, Image zookeeperImage,
                          Image toxiproxyImage) {
        this.config = config;
        this.runId = runId;
        this.client = client;
        this.zookeeperImage = zookeeperImage;
        this.toxiproxyImage = toxiproxyImage;
    }

    /** Starts with the server jars (for a built image) resolved by {@link ZooKeeperResolver#fromEnvironment()}. */
    public static DockerCluster start(ClusterConfig config) {
        return start(config, ZooKeeperResolver.fromEnvironment());
    }

    /**
     * Chooses or builds the images, creates the networks, the proxy and its links, starts every node and waits (up
     * to {@link ClusterConfig#startTimeout()}) until a quorum serves. On any failure everything started is removed.
     *
     * @throws DockerUnavailableException naming what is missing (a setting, the engine, an image)
     * @throws ClusterNotReadyException    if no quorum serves in time, with the tail of a node's log
     */
    public static DockerCluster start(ClusterConfig config, ZooKeeperResolver resolver) {
        if (!config.proxied()) {
            throw new IllegalArgumentException("proxied: the docker backend always runs its links through Toxiproxy");
        }
        DockerClient client = DockerEngine.client();
        Path run = config.runDirectory();
        String runId = ProcessMarkers.newRun(run, "backend=docker", "version=" + config.version(),
                "nodes=" + config.nodes());
        Image zk = DockerImages.zookeeper(client, config.version(), resolver);
        Image tp = DockerImages.toxiproxy(client);
        DockerCluster cluster = new DockerCluster(config, runId, client, zk, tp);
        ShutdownRegistry.register(cluster);
        try {
            cluster.startAll();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void startAll() {
        Map<String, String> labels = DockerReaper.labels(runId);
        String prefix = "zkchaos-" + runId;
        for (String n : nodes()) {
            subnets.add(Subnet.create(client, prefix + "-" + n, labels));
        }
        proxy = new ProxyContainer(toxiproxyImage.name(), subnets)
                .withImagePullPolicy(image -> false)
                .withNetwork(subnets.get(0).network())
                .withNetworkAliases(aliasesOfProxyOn(1).toArray(String[]::new))
                .withCreateContainerCmdModifier(cmd -> cmd.withName(prefix + "-toxiproxy")
                        .withIpv4Address(proxyAddress(1)))
                .withLabels(withRole(labels, "toxiproxy", null));
        proxy.start();
        ToxiproxyNetwork network = new ToxiproxyNetwork(proxy.getHost(), proxy.getControlPort());
        Map<String, Link> clientLinks = new LinkedHashMap<>();
        Map<String, List<Link>> peerLinks = new LinkedHashMap<>();
        for (int j = 1; j <= config.nodes(); j++) {
            String to = "n" + j;
            clientLinks.put(to, network.createLink("client-" + to,
                    new InetSocketAddress("0.0.0.0", FIRST_PROXY_PORT + j - 1),
                    new InetSocketAddress(nodeAddress(j), CLIENT_PORT)));
            for (int i = 1; i <= config.nodes(); i++) {
                if (i == j) {
                    continue;
                }
                String from = "n" + i;
                Link q = network.createLink(from + "-" + to + "-quorum",
                        new InetSocketAddress(proxyAddress(i), quorumPort(j)),
                        new InetSocketAddress(nodeAddress(j), quorumPort(j)));
                Link e = network.createLink(from + "-" + to + "-election",
                        new InetSocketAddress(proxyAddress(i), electionPort(j)),
                        new InetSocketAddress(nodeAddress(j), electionPort(j)));
                peerLinks.put(NodeLinks.pair(from, to), List.of(q, e));
            }
        }
        links = new NodeLinks(network, nodes(), clientLinks, peerLinks);
        toxiproxy = network;

        for (int i = 1; i <= config.nodes(); i++) {
            String name = "n" + i;
            GenericContainer<?> c = zookeeperContainer(i, prefix, labels);
            nodes.put(name, new Node(name, i, c));
            writeConfigCopy(name, zooCfg(i));
        }
        try {
            Startables.deepStart(nodes.values().stream().map(n -> n.container).toList()).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        for (Node n : nodes.values()) {
            synchronized (n) {
                n.state = NodeState.RUNNING;
                n.direct = publishedClientPort(n);
            }
            watch.started(n.name, ServerEvent.BY_HARNESS);
        }
        QuorumWait.await(this, config.startTimeout(), this::exitedNode, this::explain);
    }

    /** The Toxiproxy container, joined to every node's network (with a fixed address and the peers' names). */
    private final class ProxyContainer extends ToxiproxyContainer {
        private final List<Subnet> nets;

        ProxyContainer(String image, List<Subnet> nets) {
            super(DockerImageName.parse(image).asCompatibleSubstituteFor("ghcr.io/shopify/toxiproxy"));
            this.nets = nets;
        }

        @Override
        protected void containerIsCreated(String containerId) {
            for (int i = 2; i <= nets.size(); i++) {
                client.connectToNetworkCmd().withContainerId(containerId).withNetworkId(nets.get(i - 1).network()
                        .getId()).withContainerNetwork(new ContainerNetwork()
                        .withIpamConfig(new ContainerNetwork.Ipam().withIpv4Address(proxyAddress(i)))
                        .withAliases(aliasesOfProxyOn(i))).exec();
            }
        }
    }

    private GenericContainer<?> zookeeperContainer(int i, String prefix, Map<String, String> labels) {
        String name = "n" + i;
        List<String> jvm = new ArrayList<>(config.serverJvmOptions());
        jvm.add("-XX:-UsePerfData");
        jvm.add("-Dzkchaos.node=" + name);
        jvm.add("-Dzookeeper.admin.enableServer=false");
        jvm.add("-Dzookeeper.fastleader.maxNotificationInterval=" + config.maxElectionBackoff().toMillis());
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(zookeeperImage.name()))
                .withImagePullPolicy(image -> false)
                .withNetwork(subnets.get(i - 1).network())
                .withNetworkAliases(name)
                .withExposedPorts(CLIENT_PORT)
                .withLabels(withRole(labels, "zookeeper", name))
                .withCreateContainerCmdModifier(cmd -> cmd.withName(prefix + "-" + name).withHostName(name)
                        .withIpv4Address(nodeAddress(i)))
                .waitingFor(new AbstractWaitStrategy() {
                    @Override
                    protected void waitUntilReady() {
                        // The cluster waits for a quorum of all nodes: one node alone never serves.
                    }
                });
        String cfg = zooCfg(i);
        if (zookeeperImage.official()) {
            // The official image's entry point keeps a zoo.cfg it finds, and writes myid from ZOO_MY_ID. Its /conf (on
            // the server's class path) holds the release's own log configuration: ours replaces it, so that every
            // backend's server log lines carry the date and zone alike.
            c.withCopyToContainer(Transferable.of(cfg), "/conf/zoo.cfg")
                    .withCopyToContainer(Transferable.of(DockerImages.LOGBACK), "/conf/logback.xml")
                    .withCopyToContainer(Transferable.of(DockerImages.LOG4J), "/conf/log4j.properties")
                    .withEnv("ZOO_MY_ID", Integer.toString(i))
                    .withEnv("JVMFLAGS", String.join(" ", jvm));
        } else {
            jvm.add("-Djava.io.tmpdir=/data/tmp");
            jvm.add("-Dlogback.configurationFile=/opt/zk/conf/logback.xml");
            c.withEnv(ZkEntryPoint.CFG_ENV, cfg)
                    .withEnv(ZkEntryPoint.MYID_ENV, Integer.toString(i))
                    .withEnv("JDK_JAVA_OPTIONS", String.join(" ", jvm));
        }
        return c;
    }

    private static Map<String, String> withRole(Map<String, String> labels, String role, String node) {
        Map<String, String> all = new LinkedHashMap<>(labels);
        all.put("io.zkchaos.role", role);
        if (node != null) {
            all.put("io.zkchaos.node", node);
        }
        return all;
    }

    /** Node i's {@code zoo.cfg}: the local backend's settings, with the container layout's names and ports. */
    String zooCfg(int i) {
        Map<String, String> cfg = new LinkedHashMap<>();
        cfg.put("tickTime", Long.toString(config.tickTime().toMillis()));
        cfg.put("initLimit", Integer.toString(config.initLimit()));
        cfg.put("syncLimit", Integer.toString(config.syncLimit()));
        cfg.put("dataDir", "/data");
        cfg.put("clientPort", Integer.toString(CLIENT_PORT));
        cfg.put("minSessionTimeout", Long.toString(config.minSessionTimeout().toMillis()));
        cfg.put("maxSessionTimeout", Long.toString(config.maxSessionTimeout().toMillis()));
        cfg.put("maxClientCnxns", "0");
        cfg.put("4lw.commands.whitelist", "srvr,mntr,ruok,conf,stat,cons");
        cfg.put("admin.enableServer", "false");
        cfg.put("reconfigEnabled", "false");
        cfg.put("quorumListenOnAllIPs", "false");
        cfg.put("multiAddress.enabled", "false");
        cfg.put("autopurge.purgeInterval", "0");
        if (config.nodes() > 1) {
            cfg.put("standaloneEnabled", "false");
            for (int j = 1; j <= config.nodes(); j++) {
                cfg.put("server." + j, "n" + j + ":" + quorumPort(j) + ":" + electionPort(j));
            }
        }
        cfg.putAll(config.extraServerConfig());
        StringBuilder out = new StringBuilder("# generated by zk-chaos for n" + i + " (docker backend)\n");
        cfg.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    static int quorumPort(int node) {
        return 2880 + node;
    }

    static int electionPort(int node) {
        return 3880 + node;
    }

    /** The proxy's fixed address on node i's network. */
    String proxyAddress(int i) {
        return subnets.get(i - 1).host(2);
    }

    /** Node i's fixed address on its network. */
    String nodeAddress(int i) {
        return subnets.get(i - 1).host(3);
    }

    private List<String> aliasesOfProxyOn(int i) {
        List<String> aliases = new ArrayList<>();
        for (int j = 1; j <= config.nodes(); j++) {
            if (j != i) {
                aliases.add("n" + j);
            }
        }
        return aliases;
    }

    private void writeConfigCopy(String node, String cfg) {
        try {
            Path dir = runDirectory().resolve(node);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("zoo.cfg"), cfg, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the files of " + node + " under " + runDirectory(), e);
        }
    }

    /** Where this process reaches the node's own client port: the engine's host and the port it published. */
    private InetSocketAddress publishedClientPort(Node n) {
        InspectContainerResponse info = client.inspectContainerCmd(n.container.getContainerId()).exec();
        Ports.Binding[] b = info.getNetworkSettings().getPorts().getBindings().get(ExposedPort.tcp(CLIENT_PORT));
        if (b == null || b.length == 0) {
            throw new IllegalStateException(n.name + ": the engine published no port for " + CLIENT_PORT);
        }
        return InetSocketAddress.createUnresolved(n.container.getHost(), Integer.parseInt(b[0].getHostPortSpec()));
    }

    // ---------------------------------------------------------------------------------------------- Cluster

    @Override
    public ClusterConfig config() {
        return config;
    }

    /** The run id every container and network of this cluster carries as a label. */
    public String runId() {
        return runId;
    }

    /** One line: the engine and the images in use (official or built here). */
    @Override
    public String summary() {
        return "docker engine " + Optional.ofNullable(System.getenv("DOCKER_HOST")).orElse("on the local socket")
                + "; zookeeper image " + zookeeperImage + "; toxiproxy image " + toxiproxyImage;
    }

    @Override
    public String connectString() {
        return nodes().stream().map(this::connectString).collect(Collectors.joining(","));
    }

    @Override
    public String connectString(String node) {
        int id = node(node).id;
        return proxy.getHost() + ":" + proxy.getMappedPort(FIRST_PROXY_PORT + id - 1);
    }

    /**
     * The node's own client port as published by the engine, bypassing the proxy: for the harness's own reads,
     * never for workload clients. It changes when the node is started again.
     */
    public String directConnectString(String node) {
        Node n = node(node);
        synchronized (n) {
            return n.direct.getHostString() + ":" + n.direct.getPort();
        }
    }

    /** The node's container id. */
    public String containerId(String node) {
        return node(node).container.getContainerId();
    }

    @Override
    public NodeState state(String node) {
        Node n = node(node);
        synchronized (n) {
            return n.state;
        }
    }

    @Override
    public NodeStatus status(String node) {
        Node n = node(node);
        InetSocketAddress direct;
        synchronized (n) {
            if (n.state == NodeState.DOWN) {
                return new NodeStatus(node, Mode.UNREACHABLE, -1, "down");
            }
            if (n.state == NodeState.PAUSED) {
                return new NodeStatus(node, Mode.UNREACHABLE, -1, "paused");
            }
            direct = n.direct;
        }
        return FourLetterWords.srvr(node, new InetSocketAddress(direct.getHostString(), direct.getPort()),
                FLW_TIMEOUT);
    }

    @Override
    public void awaitQuorum(Duration bound) {
        QuorumWait.await(this, bound, Optional::empty, this::explain);
    }

    /** A node whose container is not running (it exited by itself during start-up), if any. */
    private Optional<String> exitedNode() {
        return nodes.values().stream().filter(n -> !running(n)).map(n -> n.name).findFirst();
    }

    /** For a node that did not serve: its container, image, state, exit code and the end of its log. */
    private String explain(String node) {
        Node n = node(node);
        Long exitCode = exitCode(n);
        return node + " (container " + n.container.getContainerId() + ", image " + zookeeperImage.name() + ") is "
                + state(node) + (exitCode == null ? "" : ", exited with code " + exitCode)
                + "; last lines of its log:\n" + logTail(node, 30);
    }

    private boolean running(Node n) {
        try {
            return Boolean.TRUE.equals(client.inspectContainerCmd(n.container.getContainerId()).exec().getState()
                    .getRunning());
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Long exitCode(Node n) {
        try {
            InspectContainerResponse.ContainerState s = client.inspectContainerCmd(n.container.getContainerId())
                    .exec().getState();
            return Boolean.TRUE.equals(s.getRunning()) ? null : s.getExitCodeLong();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Looks at every node for a container that ended by itself (the watch's poll). */
    private void lookForExits() {
        for (Node n : nodes.values()) {
            synchronized (n) {
                lookForExit(n);
            }
        }
    }

    /**
     * Notices that a running node's container ended by itself: it is down from then on, and the watch is told, with
     * its exit code and the end of its log. An engine that does not answer now leaves the node as it was. Called
     * holding the node's lock.
     */
    private void lookForExit(Node n) {
        if (n.state != NodeState.RUNNING || n.container.getContainerId() == null) {
            return; // a paused container cannot end by itself; a down one has been seen ending
        }
        InspectContainerResponse.ContainerState s;
        try {
            s = client.inspectContainerCmd(n.container.getContainerId()).exec().getState();
        } catch (RuntimeException e) {
            LOG.debug("inspecting {}: {}", n.name, e.toString());
            return;
        }
        if (Boolean.TRUE.equals(s.getRunning())) {
            return;
        }
        n.state = NodeState.DOWN;
        Long code = s.getExitCodeLong();
        watch.exited(n.name, null, code == null ? null : code.intValue(), () -> logTail(n.name,
                ServerWatch.LAST_LINES));
    }

    /** The exit code of a node's container that has ended, or null when the engine does not say. */
    private Integer endedCode(Node n) {
        Long code = exitCode(n);
        return code == null ? null : code.intValue();
    }

    @Override
    public ServerWatch servers() {
        return watch;
    }

    @Override
    public void start(String node) {
        Node n = node(node);
        synchronized (n) {
            lookForExit(n);
            if (n.state != NodeState.DOWN) {
                return;
            }
            client.startContainerCmd(n.container.getContainerId()).exec();
            n.state = NodeState.RUNNING;
            n.direct = publishedClientPort(n); // the engine publishes a new port at each start
            watch.started(node, ServerEvent.BY_NEMESIS);
        }
    }

    @Override
    public void stop(String node) {
        Node n = node(node);
        synchronized (n) {
            lookForExit(n);
            if (n.state == NodeState.DOWN) {
                return;
            }
            if (n.state == NodeState.PAUSED) {
                client.unpauseContainerCmd(n.container.getContainerId()).exec();
            }
            client.stopContainerCmd(n.container.getContainerId()).withTimeout(10).exec();
            awaitExit(n);
            n.state = NodeState.DOWN;
            watch.exited(node, ServerEvent.BY_HARNESS, endedCode(n), null);
        }
    }

    @Override
    public void kill(String node) {
        Node n = node(node);
        synchronized (n) {
            lookForExit(n);
            if (n.state == NodeState.DOWN) {
                return;
            }
            String id = n.container.getContainerId();
            // SIGKILL goes to a frozen process too; it dies once thawed, so thaw after sending it.
            client.killContainerCmd(id).withSignal("KILL").exec();
            if (n.state == NodeState.PAUSED) {
                try {
                    client.unpauseContainerCmd(id).exec();
                } catch (RuntimeException e) {
                    LOG.debug("unpausing killed {}: {}", node, e.toString());
                }
            }
            awaitExit(n);
            n.state = NodeState.DOWN;
            watch.exited(node, ServerEvent.BY_NEMESIS, endedCode(n), null);
        }
    }

    private void awaitExit(Node n) {
        try {
            client.waitContainerCmd(n.container.getContainerId()).exec(new WaitContainerResultCallback())
                    .awaitStatusCode(30, TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            throw new IllegalStateException(n.name + "'s container did not exit within 30 s: " + e.getMessage(), e);
        }
    }

    @Override
    public void pause(String node) {
        Node n = node(node);
        synchronized (n) {
            if (n.state != NodeState.RUNNING) {
                return;
            }
            client.pauseContainerCmd(n.container.getContainerId()).exec();
            n.state = NodeState.PAUSED;
        }
    }

    @Override
    public void resume(String node) {
        Node n = node(node);
        synchronized (n) {
            if (n.state != NodeState.PAUSED) {
                return;
            }
            client.unpauseContainerCmd(n.container.getContainerId()).exec();
            n.state = NodeState.RUNNING;
        }
    }

    @Override
    public LinkNetwork links() {
        return links;
    }

    /** The Toxiproxy network the links are, e.g. to compare what Toxiproxy holds with what they set. */
    public ToxiproxyNetwork toxiproxy() {
        return toxiproxy;
    }

    /** The node's log (every incarnation of its container), fetched from the engine into the run directory. */
    @Override
    public Path logFile(String node) {
        Path file = runDirectory().resolve(node).resolve("server.log");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, logs(node(node).container.getContainerId(), -1), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot save the log of {} to {}: {}", node, file, e.toString());
        }
        return file;
    }

    /** The last lines of a node's log, asked of the engine. */
    public String logTail(String node, int lines) {
        try {
            return logs(node(node).container.getContainerId(), lines);
        } catch (RuntimeException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private String logs(String containerId, int tail) {
        StringBuilder out = new StringBuilder();
        var cmd = client.logContainerCmd(containerId).withStdOut(true).withStdErr(true);
        if (tail >= 0) {
            cmd.withTail(tail);
        }
        try {
            cmd.exec(new ResultCallback.Adapter<Frame>() {
                @Override
                public void onNext(Frame frame) {
                    synchronized (out) {
                        out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                    }
                }
            }).awaitCompletion(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (out) {
            return out.toString();
        }
    }

    @Override
    public Path runDirectory() {
        return config.runDirectory();
    }

    /** Saves every log, then removes every container and network of this cluster. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        watch.close();
        for (Node n : nodes.values()) {
            if (n.container.getContainerId() == null) {
                continue;
            }
            try {
                synchronized (n) {
                    lookForExit(n);
                    if (n.state == NodeState.PAUSED) {
                        client.unpauseContainerCmd(n.container.getContainerId()).exec();
                    }
                    if (n.state != NodeState.DOWN) {
                        watch.exited(n.name, ServerEvent.BY_HARNESS, null, null); // removed with its container
                    }
                    n.state = NodeState.DOWN;
                }
            } catch (RuntimeException e) {
                LOG.warn("thawing the container of {}: {}", n.name, e.toString());
            }
            logFile(n.name);
            try {
                n.container.stop();
            } catch (RuntimeException e) {
                LOG.warn("removing the container of {}: {}", n.name, e.toString());
            }
        }
        if (proxy != null && proxy.getContainerId() != null) {
            try {
                Files.writeString(runDirectory().resolve("toxiproxy.log"), logs(proxy.getContainerId(), -1),
                        StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                LOG.warn("cannot save the proxy's log: {}", e.toString());
            }
            try {
                proxy.stop();
            } catch (RuntimeException e) {
                LOG.warn("removing the proxy container: {}", e.toString());
            }
        }
        for (Subnet s : subnets) {
            try {
                s.network().close();
            } catch (RuntimeException e) {
                LOG.warn("removing network {}: {}", s.name(), e.toString());
            }
        }
        ShutdownRegistry.unregister(this);
    }

    private Node node(String node) {
        Node n = nodes.get(node);
        if (n == null) {
            throw new IllegalArgumentException("unknown node '" + node + "': nodes are " + nodes());
        }
        return n;
    }
}
