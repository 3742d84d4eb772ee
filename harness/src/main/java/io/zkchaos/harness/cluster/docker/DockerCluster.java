package io.zkchaos.harness.cluster.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerNetwork;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ClusterNotReadyException;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.ServerWatch;
import io.zkchaos.harness.cluster.docker.DockerImages.Image;
import io.zkchaos.harness.cluster.docker.image.ZkEntryPoint;
import io.zkchaos.harness.cluster.server.NodeLayout;
import io.zkchaos.harness.cluster.server.NodeProcesses;
import io.zkchaos.harness.cluster.server.ProcessCluster;
import io.zkchaos.harness.cluster.server.ServerFiles;
import io.zkchaos.harness.cluster.server.ServerLogging;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.harness.process.ProcessControl;
import io.zkchaos.harness.process.ProcessMarkers;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.images.builder.Transferable;
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
 * <p>Each node's container is a {@link ContainerProcess} under the same {@link io.zkchaos.harness.process.ProcessControl}
 * as the other backends' servers ({@link ProcessCluster}): kill is {@code docker kill} (SIGKILL of the server, the
 * container's process 1; its data stays in the container), start is {@code docker start}, pause is
 * {@code docker pause} (the cgroup freezer: as SIGSTOP). A container whose server ends by itself is seen by
 * {@code docker inspect} (not running, its exit code): before every action on the node, and every
 * {@link ServerWatch#POLL_EVERY} while a run records ({@link #servers()}). It is down from then on, so that a heal
 * starts it again.
 */
public final class DockerCluster extends ProcessCluster<ContainerProcess> {

    private static final Logger LOG = LoggerFactory.getLogger(DockerCluster.class);
    private static final Duration FLW_TIMEOUT = Duration.ofMillis(500);
    /** The port every node's clients use inside its container. */
    static final int CLIENT_PORT = 2181;
    /** Toxiproxy's first proxied port that Testcontainers publishes: client link of node i listens on 8665+i. */
    static final int FIRST_PROXY_PORT = 8666;

    private final DockerClient client;
    private final Image zookeeperImage;
    private final Image toxiproxyImage;
    private final List<Subnet> subnets = new ArrayList<>();
    private ToxiproxyContainer proxy;
    private NodeLinks links;
    private ToxiproxyNetwork toxiproxy;

    private DockerCluster(ClusterConfig config, String runId, DockerClient client, Image zookeeperImage,
                          Image toxiproxyImage) {
        super(config, runId, new NodeProcesses<>());
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
        Image zk = DockerImages.zookeeper(client, config.version().text(), resolver);
        Image tp = DockerImages.toxiproxy(client);
        return launch(new DockerCluster(config, runId, client, zk, tp), DockerCluster::setUp);
    }

    /** Creates the networks, the proxy and its links, and every node's container (not started). */
    private void setUp() {
        Map<String, String> labels = DockerReaper.labels(runId());
        String prefix = "zkchaos-" + runId();
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

        List<NodeLayout> layouts = new ArrayList<>();
        for (int i = 1; i <= config.nodes(); i++) {
            layouts.add(layout(i, nodeAddress(i)));
        }
        for (NodeLayout n : layouts) {
            GenericContainer<?> c = zookeeperContainer(n.id(), layouts, prefix, labels);
            processes.add(n, new ContainerProcess(n.name(), client, c, CLIENT_PORT));
            writeConfigCopy(n.name(), zooCfg(config, layouts, n.id()));
        }
    }

    /**
     * Creates and starts the containers at once (each takes the engine a second or so), then starts them under their
     * controls in node order, which takes the running containers as their first incarnations.
     */
    @Override
    protected void startServers() {
        try {
            CompletableFuture.allOf(processes.all().stream()
                    .map(p -> CompletableFuture.runAsync(p.process()::startAhead))
                    .toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        super.startServers();
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

    private GenericContainer<?> zookeeperContainer(int i, List<NodeLayout> layouts, String prefix,
                                                   Map<String, String> labels) {
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
        String cfg = zooCfg(config, layouts, i);
        if (zookeeperImage.official()) {
            // The official image's entry point keeps a zoo.cfg it finds, and writes myid from ZOO_MY_ID. Its /conf (on
            // the server's class path) holds the release's own log configuration: ours replaces it, so that every
            // backend's server log lines carry the date and zone alike.
            c.withCopyToContainer(Transferable.of(cfg), "/conf/zoo.cfg")
                    .withCopyToContainer(Transferable.of(ServerLogging.logback()), "/conf/" + ServerLogging.LOGBACK_FILE)
                    .withCopyToContainer(Transferable.of(ServerLogging.log4j()), "/conf/" + ServerLogging.LOG4J_FILE)
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

    /**
     * Node i's {@code zoo.cfg}: every backend's ({@link ServerFiles#zooCfg}, with the release's switches), with the
     * container layout's names and ports; the server binds every address of its container.
     */
    static String zooCfg(ClusterConfig config, List<NodeLayout> layouts, int i) {
        return ServerFiles.render("generated by zk-chaos for n" + i + " (docker backend)",
                ServerFiles.zooCfg(config, layouts.get(i - 1), layouts, false));
    }

    /** Node i in its container: its fixed address, the ports of the layout, its files at the root ({@code /data}). */
    static NodeLayout layout(int i, String address) {
        return new NodeLayout("n" + i, i, address, CLIENT_PORT, quorumPort(i), electionPort(i), Path.of("/"));
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

    // ---------------------------------------------------------------------------------------------- Cluster

    /** One line: the engine and the images in use (official or built here). */
    @Override
    public String summary() {
        return "docker engine " + Optional.ofNullable(System.getenv("DOCKER_HOST")).orElse("on the local socket")
                + "; zookeeper image " + zookeeperImage + "; toxiproxy image " + toxiproxyImage;
    }

    @Override
    public String connectString(String node) {
        int id = layout(node).id();
        return proxy.getHost() + ":" + proxy.getMappedPort(FIRST_PROXY_PORT + id - 1);
    }

    /**
     * The node's own client port as published by the engine, bypassing the proxy: for the harness's own reads,
     * never for workload clients. It changes when the node is started again.
     */
    public String directConnectString(String node) {
        InetSocketAddress direct = process(node).process().published();
        return direct.getHostString() + ":" + direct.getPort();
    }

    /** The node's container id. */
    public String containerId(String node) {
        return process(node).process().containerId();
    }

    /** {@code srvr} on the node's own client port as published by the engine (not through the proxy). */
    @Override
    protected NodeStatus askStatus(String node) {
        return FourLetterWords.srvr(node, process(node).process().published(), FLW_TIMEOUT);
    }

    @Override
    protected String where(String node) {
        return " (container " + containerId(node) + ", image " + zookeeperImage.name() + ")";
    }

    @Override
    protected String logName(String node) {
        return "its log";
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
            Files.writeString(file, process(node).process().log(), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot save the log of {} to {}: {}", node, file, e.toString());
        }
        return file;
    }

    /** The last lines of a node's log, asked of the engine. */
    @Override
    public String logTail(String node, int lines) {
        return process(node).process().logTail(lines);
    }

    /** Once every server is gone: saves every log, then removes every container and network of this cluster. */
    @Override
    protected void closeRest() {
        for (ProcessControl<ContainerProcess> p : processes.all()) {
            if (p.process().containerId() == null) {
                continue;
            }
            logFile(p.name());
            try {
                p.process().container().stop();
            } catch (RuntimeException e) {
                LOG.warn("removing the container of {}: {}", p.name(), e.toString());
            }
        }
        if (proxy != null && proxy.getContainerId() != null) {
            try {
                Files.writeString(runDirectory().resolve("toxiproxy.log"),
                        ContainerProcess.logs(client, proxy.getContainerId(), -1), StandardCharsets.UTF_8);
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
    }
}
