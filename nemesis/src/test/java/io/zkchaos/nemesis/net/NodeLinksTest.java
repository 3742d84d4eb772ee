package io.zkchaos.nemesis.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

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
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Partitions enforced by {@link NodeLinks} on real proxied links between three "nodes" (echo servers), one peer link
 * per ordered pair, plus a client link per node.
 */
class NodeLinksTest {
    static final List<String> NODES = List.of("n1", "n2", "n3");
    final Map<String, EchoServer> servers = new LinkedHashMap<>();
    FaultProxy proxy;
    NodeLinks links;

    @BeforeEach
    void setUp() throws IOException {
        proxy = new FaultProxy(3);
        for (String n : NODES) {
            servers.put(n, new EchoServer());
        }
        Map<String, Link> clients = new LinkedHashMap<>();
        Map<String, List<Link>> peers = new LinkedHashMap<>();
        for (String b : NODES) {
            clients.put(b, proxy.createLink("client-" + b, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    servers.get(b).address()));
            for (String a : NODES) {
                if (!a.equals(b)) {
                    peers.put(NodeLinks.pair(a, b), List.of(proxy.createLink(a + "-" + b,
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), servers.get(b).address())));
                }
            }
        }
        links = new NodeLinks(proxy, NODES, clients, peers);
    }

    @AfterEach
    void tearDown() throws Exception {
        links.close();
        for (EchoServer s : servers.values()) {
            s.close();
        }
    }

    List<Link> linksFrom(String client, String server) {
        return links.peerLinks(client, server);
    }

    Socket open(String client, String server) throws IOException {
        Socket s = new Socket();
        s.connect(linksFrom(client, server).get(0).listenAddress(), 2000);
        return s;
    }

    /** Whether a byte arrives on the socket within the bound. */
    static boolean arrives(Socket s, Duration bound) throws IOException {
        s.setSoTimeout((int) bound.toMillis());
        try {
            return s.getInputStream().read() >= 0;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Test
    void symmetricPartitionRefusesEveryLinkAcrossTheCutAndHealRestoresThem() throws Exception {
        links.apply(Partitions.halves(NODES)); // {n1} | {n2, n3}
        assertThat(links.grudge()).containsEntry("n1", new TreeSet<>(List.of("n2", "n3")))
                .containsEntry("n2", new TreeSet<>(List.of("n1")));
        assertThat(proxy.links().stream().filter(l -> !l.enabled()).map(Link::name))
                .containsExactlyInAnyOrder("n1-n2", "n1-n3", "n2-n1", "n3-n1");
        for (String name : List.of("n1-n2", "n1-n3", "n2-n1", "n3-n1")) {
            assertThatThrownBy(() -> open(name.substring(0, 2), name.substring(3)).close())
                    .as(name).isInstanceOf(ConnectException.class);
        }
        try (Socket s = open("n2", "n3")) {
            s.getOutputStream().write(1);
            assertThat(arrives(s, Duration.ofSeconds(5))).isTrue();
        }
        // clients still reach every node: a partition cuts peer links only
        try (Socket s = new Socket()) {
            s.connect(links.clientLink("n1").listenAddress(), 2000);
            s.getOutputStream().write(1);
            assertThat(arrives(s, Duration.ofSeconds(5))).isTrue();
        }
        links.heal();
        assertThat(links.grudge().values()).allMatch(java.util.Set::isEmpty);
        for (Link l : proxy.links()) {
            assertThat(l.enabled()).isTrue();
        }
        try (Socket s = open("n1", "n2")) {
            s.getOutputStream().write(1);
            assertThat(arrives(s, Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void whatACutDidIsCountedByTheProxyUntilTheHeal() throws Exception {
        try (Socket s = open("n1", "n2")) {
            s.getOutputStream().write(1);
            assertThat(arrives(s, Duration.ofSeconds(5))).isTrue(); // an open connection across the coming cut
            links.apply(Partitions.halves(NODES)); // {n1} | {n2, n3}: REFUSE closes it
            List<io.zkchaos.nemesis.Felt> felt = links.feltSinceHeal();
            assertThat(felt).extracting(io.zkchaos.nemesis.Felt::node).containsExactly("n1", "n2", "n3");
            assertThat(felt).filteredOn(f -> !f.node().equals("n3")).allSatisfy(f -> {
                assertThat(f.felt()).isTrue();
                assertThat(f.what()).startsWith("1 connection reset, ");
            });
            // n3's links to n1 had no connection to reset and carried nothing: it did not feel the cut
            assertThat(felt).filteredOn(f -> f.node().equals("n3")).singleElement()
                    .satisfies(f -> assertThat(f.felt()).isFalse());
        }
        links.heal();
        assertThat(links.feltSinceHeal()).as("nothing faulted since the heal").isEmpty();
        links.apply(Partitions.halves(NODES));
        assertThat(links.feltSinceHeal()).as("counted from the last heal, none open now")
                .allSatisfy(f -> assertThat(f.felt()).isFalse());
    }

    @Test
    void asymmetricRingCutsExactlyOneStreamPerDirectedPair() throws Exception {
        Partition ring = Partitions.majoritiesRing(NODES, new Random(42));
        // Connections opened before the partition, one per link.
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
                await("the server accepted both its connections").atMost(Duration.ofSeconds(30))
                        .until(() -> s.accepted.get() == 2);
            }
            // Other toxics on the links must survive the partition and its heal.
            proxy.link("n1-n2").orElseThrow().addToxic(Toxic.latency("slow", Stream.UPSTREAM, 1, 0));

            links.apply(ring);
            // on 3 nodes the ring is one-way: no link is disabled, each cut pair black-holes one stream per link
            assertThat(proxy.links()).allMatch(Link::enabled);
            long oneWayCuts = proxy.links().stream().flatMap(l -> l.toxics().stream())
                    .filter(t -> t.name().startsWith("blackhole_")).count();
            assertThat(oneWayCuts).isEqualTo(2L * ring.cutPairs().size());

            for (Map.Entry<String, Socket> e : conns.entrySet()) {
                String client = e.getKey().substring(0, 2);
                String server = e.getKey().substring(3);
                boolean serverHearsClient = ring.hears(server, client);
                boolean clientHearsServer = ring.hears(client, server);
                Socket s = e.getValue();
                long before = servers.get(server).received.get();
                s.getOutputStream().write('x');
                if (serverHearsClient) {
                    await(e.getKey() + " upstream flows").atMost(Duration.ofSeconds(30))
                            .until(() -> servers.get(server).received.get() > before);
                    // the echo comes back only if the client hears the server too
                    assertThat(arrives(s, clientHearsServer ? Duration.ofSeconds(5) : Duration.ofMillis(300)))
                            .as(e.getKey() + " echo").isEqualTo(clientHearsServer);
                } else {
                    assertThat(arrives(s, Duration.ofMillis(300))).isFalse();
                    assertThat(servers.get(server).received.get()).as(e.getKey() + " upstream cut").isEqualTo(before);
                }
            }
            // Server-initiated bytes reach exactly the clients that hear their server.
            for (EchoServer srv : servers.values()) {
                srv.broadcast(new byte[] {'t'});
            }
            for (Map.Entry<String, Socket> e : conns.entrySet()) {
                String client = e.getKey().substring(0, 2);
                String server = e.getKey().substring(3);
                boolean hears = ring.hears(client, server);
                assertThat(arrives(e.getValue(), hears ? Duration.ofSeconds(5) : Duration.ofMillis(300)))
                        .as(e.getKey() + " downstream").isEqualTo(hears);
            }

            links.applyGrudge(Map.of()); // a partition change leaves other toxics alone
            assertThat(proxy.link("n1-n2").orElseThrow().toxics()).extracting(Toxic::name).containsExactly("slow");
            for (Link l : proxy.links().stream().filter(l -> !l.name().startsWith("client-")).toList()) {
                try (Socket s = open(l.name().substring(0, 2), l.name().substring(3))) {
                    s.getOutputStream().write(1);
                    assertThat(arrives(s, Duration.ofSeconds(5))).as(l.name() + " healed").isTrue();
                }
            }
        } finally {
            for (Socket s : conns.values()) {
                s.close();
            }
        }
    }
}
