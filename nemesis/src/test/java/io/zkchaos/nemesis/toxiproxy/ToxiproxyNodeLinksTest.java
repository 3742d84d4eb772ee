package io.zkchaos.nemesis.toxiproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.NodeLinks;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.nemesis.partition.Partition;
import io.zkchaos.nemesis.partition.Partitions;
import io.zkchaos.nemesis.proxy.EchoServer;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeLinks} over {@link ToxiproxyLink}s: the one enforcement path of partitions, driving a Toxiproxy API
 * (the project's {@link ToxiproxyServer}) through the Toxiproxy Java client, checked on real sockets between three
 * "nodes" (echo servers).
 */
class ToxiproxyNodeLinksTest {
    static final List<String> NODES = List.of("n1", "n2", "n3");
    final Map<String, EchoServer> servers = new LinkedHashMap<>();
    ToxiproxyServer server;
    ToxiproxyNetwork network;
    NodeLinks links;

    @BeforeEach
    void setUp() throws IOException {
        server = ToxiproxyServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new FaultProxy(5));
        network = new ToxiproxyNetwork("127.0.0.1", server.address().getPort());
        for (String n : NODES) {
            servers.put(n, new EchoServer());
        }
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        Map<String, Link> clients = new LinkedHashMap<>();
        Map<String, List<Link>> peers = new LinkedHashMap<>();
        for (String b : NODES) {
            clients.put(b, network.createLink("client-" + b, any, servers.get(b).address()));
            for (String a : NODES) {
                if (!a.equals(b)) {
                    peers.put(NodeLinks.pair(a, b), List.of(network.createLink(a + "-" + b, any,
                            servers.get(b).address())));
                }
            }
        }
        links = new NodeLinks(network, NODES, clients, peers);
    }

    @AfterEach
    void tearDown() throws Exception {
        links.close();
        assertThat(network.client().getProxies()).as("closing the network deletes its proxies").isEmpty();
        server.close();
        for (EchoServer s : servers.values()) {
            s.close();
        }
    }

    Socket open(String client, String srv) throws IOException {
        Socket s = new Socket();
        s.connect(links.peerLinks(client, srv).get(0).listenAddress(), 5000);
        return s;
    }

    static boolean arrives(Socket s, Duration bound) throws IOException {
        s.setSoTimeout((int) bound.toMillis());
        try {
            return s.getInputStream().read() >= 0;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Test
    void aSymmetricPartitionDisablesExactlyTheLinksAcrossItAndHealEnablesThem() throws Exception {
        links.apply(Partitions.halves(NODES)); // {n1} | {n2, n3}
        List<String> cut = List.of("n1-n2", "n1-n3", "n2-n1", "n3-n1");
        for (Link l : network.links()) {
            assertThat(l.enabled()).as(l.name()).isEqualTo(!cut.contains(l.name()));
        }
        assertThat(network.divergences()).as("what Toxiproxy holds is what the links set").isEmpty();
        for (String name : cut) {
            assertThatThrownBy(() -> open(name.substring(0, 2), name.substring(3)).close()).as(name)
                    .isInstanceOf(ConnectException.class);
        }
        try (Socket s = open("n2", "n3")) {
            s.getOutputStream().write(1);
            assertThat(arrives(s, Duration.ofSeconds(10))).isTrue();
        }
        links.cutMode(CutMode.BLACKHOLE);
        links.apply(Partitions.isolate(NODES, "n3"));
        assertThat(network.links()).allMatch(Link::enabled);
        assertThat(links.peerLinks("n1", "n3").get(0).toxics()).extracting(Toxic::name)
                .containsExactlyInAnyOrder(Link.BLACKHOLE_UPSTREAM, Link.BLACKHOLE_DOWNSTREAM);
        try (Socket s = open("n1", "n3")) {
            s.getOutputStream().write(1);
            assertThat(arrives(s, Duration.ofMillis(300))).as("n1 -> n3 black-holed").isFalse();
        }
        links.heal();
        assertThat(network.divergences()).isEmpty();
        for (Link l : network.links()) {
            assertThat(l.enabled()).as(l.name()).isTrue();
            assertThat(l.toxics()).as(l.name()).isEmpty();
        }
        try (Socket s = open("n1", "n2")) {
            s.getOutputStream().write(1);
            assertThat(arrives(s, Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void theOneWayRingBlackHolesOneStreamPerCutPairAndKeepsOtherToxics() throws Exception {
        Partition ring = Partitions.majoritiesRing(NODES, new Random(42));
        Map<String, Socket> conns = new LinkedHashMap<>();
        for (String a : NODES) {
            for (String b : NODES) {
                if (!a.equals(b)) {
                    conns.put(a + "-" + b, open(a, b));
                }
            }
        }
        try {
            for (EchoServer s : servers.values()) {
                await("servers accepted").atMost(Duration.ofSeconds(30)).until(() -> s.accepted.get() == 2);
            }
            network.link("n1-n2").orElseThrow().addToxic(Toxic.latency("slow", Stream.UPSTREAM, 1, 0));
            links.apply(ring);
            assertThat(network.links()).allMatch(Link::enabled);
            assertThat(network.divergences()).isEmpty();
            for (Map.Entry<String, Socket> e : conns.entrySet()) {
                String client = e.getKey().substring(0, 2);
                String srv = e.getKey().substring(3);
                long before = servers.get(srv).received.get();
                e.getValue().getOutputStream().write('x');
                if (ring.hears(srv, client)) {
                    await(e.getKey() + " upstream flows").atMost(Duration.ofSeconds(30))
                            .until(() -> servers.get(srv).received.get() > before);
                    boolean back = ring.hears(client, srv);
                    assertThat(arrives(e.getValue(), back ? Duration.ofSeconds(10) : Duration.ofMillis(300)))
                            .as(e.getKey() + " echo").isEqualTo(back);
                } else {
                    assertThat(arrives(e.getValue(), Duration.ofMillis(300))).isFalse();
                    assertThat(servers.get(srv).received.get()).as(e.getKey() + " upstream cut").isEqualTo(before);
                }
            }
            links.applyGrudge(Map.of());
            assertThat(network.link("n1-n2").orElseThrow().toxics()).extracting(Toxic::name).containsExactly("slow");
        } finally {
            for (Socket s : conns.values()) {
                s.close();
            }
        }
    }
}
