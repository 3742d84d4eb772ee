package io.zkchaos.nemesis.toxiproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import eu.rekawek.toxiproxy.model.toxic.Slicer;
import io.zkchaos.nemesis.proxy.EchoServer;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Toxiproxy-compatible API of {@link ToxiproxyServer}, driven by the real Toxiproxy Java client: every call the
 * client makes, each checked against what the link really does to bytes on real sockets (an echo server upstream).
 */
class ToxiproxyApiTest {

    EchoServer echo;
    ToxiproxyServer server;
    ToxiproxyClient client;

    @BeforeEach
    void setUp() throws IOException {
        echo = new EchoServer();
        server = ToxiproxyServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new FaultProxy(7));
        client = new ToxiproxyClient("127.0.0.1", server.address().getPort());
    }

    @AfterEach
    void tearDown() throws Exception {
        server.close();
        echo.close();
    }

    Proxy create(String name) throws IOException {
        return client.createProxy(name, "127.0.0.1:0", "127.0.0.1:" + echo.address().getPort());
    }

    static InetSocketAddress listen(Proxy p) {
        String l = p.getListen();
        int colon = l.lastIndexOf(':');
        return new InetSocketAddress(l.substring(0, colon), Integer.parseInt(l.substring(colon + 1)));
    }

    static Socket connect(Proxy p) throws IOException {
        Socket s = new Socket();
        s.connect(listen(p), 5000);
        return s;
    }

    /** Sends one byte and waits (up to the bound) for its echo. */
    static boolean pingArrives(Socket s, Duration bound) throws IOException {
        s.getOutputStream().write('p');
        s.setSoTimeout((int) bound.toMillis());
        try {
            return s.getInputStream().read() == 'p';
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    static long pingMillis(Proxy p) throws IOException {
        try (Socket s = connect(p)) {
            long t0 = System.nanoTime();
            assertThat(pingArrives(s, Duration.ofSeconds(30))).isTrue();
            return (System.nanoTime() - t0) / 1_000_000;
        }
    }

    @Test
    void proxiesAreCreatedListedFetchedAndDeleted() throws Exception {
        assertThat(client.version()).isEqualTo(ToxiproxyServer.VERSION);
        Proxy p = create("echo");
        assertThat(listen(p).getPort()).as("the port bound for listen port 0").isPositive();
        assertThat(p.isEnabled()).isTrue();
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(10))).isTrue();
        }
        assertThat(client.getProxies()).extracting(Proxy::getName).containsExactly("echo");
        Proxy fetched = client.getProxy("echo");
        assertThat(fetched.getUpstream()).isEqualTo("127.0.0.1:" + echo.address().getPort());
        assertThat(fetched.getListen()).isEqualTo(p.getListen());

        assertThatThrownBy(() -> create("echo")).isInstanceOf(IOException.class)
                .hasMessageContaining("[409] proxy already exists");
        assertThat(client.getProxyOrNull("missing")).isNull();
        assertThatThrownBy(() -> client.createProxy("bad", "127.0.0.1:x", "127.0.0.1:1"))
                .hasMessageContaining("listen must be host:port");
        assertThatThrownBy(() -> client.createProxy("taken", p.getListen(), "127.0.0.1:1"))
                .hasMessageContaining("[500]").hasMessageContaining("taken");

        p.delete();
        assertThatThrownBy(() -> connect(p).close()).isInstanceOf(ConnectException.class);
        assertThat(client.getProxies()).isEmpty();
    }

    @Test
    void disableClosesConnectionsAndRefusesNewOnesEnableRestores() throws Exception {
        Proxy p = create("echo");
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(10))).isTrue();
            p.disable();
            assertThat(client.getProxy("echo").isEnabled()).isFalse();
            s.setSoTimeout(10_000);
            assertThat(readOrReset(s.getInputStream())).as("the open connection ends").isEqualTo(-1);
        }
        assertThatThrownBy(() -> connect(p).close()).isInstanceOf(ConnectException.class);
        p.enable();
        assertThat(client.getProxy("echo").isEnabled()).isTrue();
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void latencyIsAddedUpdatedListedAndRemoved() throws Exception {
        Proxy p = create("echo");
        Latency lag = p.toxics().latency("lag", ToxicDirection.DOWNSTREAM, 200);
        assertThat(pingMillis(p)).as("a ping with 200 ms of downstream latency").isGreaterThanOrEqualTo(200);
        lag.setLatency(400).setJitter(5);
        Latency read = p.toxics().get("lag", Latency.class);
        assertThat(read.getLatency()).isEqualTo(400);
        assertThat(read.getJitter()).isEqualTo(5);
        assertThat(read.getStream()).isEqualTo(ToxicDirection.DOWNSTREAM);
        assertThat(pingMillis(p)).as("after the update to 400 ± 5 ms").isGreaterThanOrEqualTo(395);

        lag.setLatency(120_000);
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofMillis(500))).as("held by two minutes of latency").isFalse();
        }
        lag.remove();
        assertThat(p.toxics().getAll()).isEmpty();
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(30))).as("no latency any more").isTrue();
        }
    }

    @Test
    void bandwidthLimitsTheRate() throws Exception {
        Proxy p = create("echo");
        p.toxics().bandwidth("thin", ToxicDirection.UPSTREAM, 100); // 100 KB/s
        try (Socket s = connect(p)) {
            byte[] data = new byte[100_000];
            new Random(1).nextBytes(data);
            long t0 = System.nanoTime();
            Thread writer = new Thread(() -> {
                try {
                    s.getOutputStream().write(data);
                } catch (IOException ignored) {
                    // the read below fails then
                }
            });
            writer.start();
            byte[] back = s.getInputStream().readNBytes(data.length);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            writer.join();
            assertThat(back).isEqualTo(data);
            assertThat(ms).as("100 KB at 100 KB/s").isGreaterThanOrEqualTo(900);
        }
        p.toxics().get("thin").remove();
        assertThat(p.toxics().getAll()).isEmpty();
    }

    @Test
    void slicerDeliversEveryByteInOrderInDelayedPieces() throws Exception {
        Proxy p = create("echo");
        Slicer slicer = p.toxics().slicer("slices", ToxicDirection.DOWNSTREAM, 10, 20_000); // 10 B per 20 ms
        slicer.setSizeVariation(3);
        assertThat(p.toxics().get("slices", Slicer.class).getSizeVariation()).isEqualTo(3);
        try (Socket s = connect(p)) {
            byte[] data = new byte[200];
            new Random(2).nextBytes(data);
            long t0 = System.nanoTime();
            s.getOutputStream().write(data);
            s.setSoTimeout(30_000);
            byte[] back = s.getInputStream().readNBytes(data.length);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(back).isEqualTo(data);
            // at most 13 bytes per piece: at least 16 pieces, 15 gaps of 20 ms
            assertThat(ms).as("200 bytes in pieces of 10 ± 3 bytes, 20 ms apart").isGreaterThanOrEqualTo(300);
        }
    }

    @Test
    void timeoutZeroStallsAndItsRemovalClosesWhatItStalled() throws Exception {
        Proxy p = create("echo");
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(10))).isTrue();
            p.toxics().timeout("hole", ToxicDirection.UPSTREAM, 0);
            assertThat(pingArrives(s, Duration.ofMillis(500))).as("black-holed").isFalse();
            p.toxics().get("hole").remove();
            s.setSoTimeout(10_000);
            assertThat(readOrReset(s.getInputStream())).as("the stalled connection is closed").isEqualTo(-1);
        }
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(10))).as("a new connection flows").isTrue();
        }
    }

    @Test
    void timeoutWithAValueClosesTheConnection() throws Exception {
        Proxy p = create("echo");
        p.toxics().timeout("close-later", ToxicDirection.DOWNSTREAM, 200);
        // The toxic's clock starts when the proxy takes the connection, which may be before connect() returns here:
        // start ours before connecting, and compare in nanoseconds (whole milliseconds round 199.9 down to 199).
        long t0 = System.nanoTime();
        try (Socket s = connect(p)) {
            s.getOutputStream().write('x');
            s.setSoTimeout(10_000);
            assertThat(readOrReset(s.getInputStream())).isEqualTo(-1);
            assertThat(System.nanoTime() - t0).as("ns from connecting to the close")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    @Test
    void resetPeerResetsTheConnection() throws Exception {
        Proxy p = create("echo");
        p.toxics().resetPeer("rst", ToxicDirection.UPSTREAM, 100);
        try (Socket s = connect(p)) {
            s.getOutputStream().write('x');
            s.setSoTimeout(10_000);
            assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketException.class)
                    .hasMessageContaining("reset");
        }
    }

    @Test
    void limitDataPassesThatManyBytesThenCloses() throws Exception {
        Proxy p = create("echo");
        p.toxics().limitData("cap", ToxicDirection.DOWNSTREAM, 1000);
        try (Socket s = connect(p)) {
            s.getOutputStream().write(new byte[5000]);
            s.setSoTimeout(10_000);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            int b;
            while ((b = readOrReset(in)) >= 0) {
                got.write(b);
            }
            assertThat(got.size()).isEqualTo(1000);
        }
    }

    @Test
    void toxicityIsSetAndReadBack() throws Exception {
        Proxy p = create("echo");
        Latency lag = p.toxics().latency("maybe", ToxicDirection.DOWNSTREAM, 120_000);
        lag.setToxicity(0f);
        assertThat(p.toxics().get("maybe").getToxicity()).isZero();
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(30))).as("a toxic of toxicity 0 never applies").isTrue();
        }
    }

    @Test
    void resetEnablesEveryProxyAndRemovesEveryToxic() throws Exception {
        Proxy a = create("a");
        Proxy b = create("b");
        a.toxics().latency("lag", ToxicDirection.UPSTREAM, 120_000);
        b.toxics().timeout("hole", ToxicDirection.DOWNSTREAM, 0);
        b.disable();
        client.reset();
        for (Proxy p : client.getProxies()) {
            assertThat(p.isEnabled()).as(p.getName()).isTrue();
            assertThat(p.toxics().getAll()).as(p.getName()).isEmpty();
            try (Socket s = connect(p)) {
                assertThat(pingArrives(s, Duration.ofSeconds(30))).as(p.getName()).isTrue();
            }
        }
    }

    @Test
    void toxicErrorsAreToxiproxys() throws Exception {
        Proxy p = create("echo");
        p.toxics().latency("lag", ToxicDirection.UPSTREAM, 10);
        assertThatThrownBy(() -> p.toxics().latency("lag", ToxicDirection.UPSTREAM, 10))
                .hasMessageContaining("[409] toxic already exists");
        assertThatThrownBy(() -> p.toxics().get("nope")).hasMessageContaining("[404] toxic not found");
        assertThatThrownBy(() -> p.toxics().slowClose("sc", ToxicDirection.DOWNSTREAM, 100))
                .isInstanceOf(IOException.class).hasMessageContaining("slow_close is not supported");
        assertThatThrownBy(() -> p.toxics().slicer("bad", ToxicDirection.UPSTREAM, 0, 1))
                .hasMessageContaining("[400]").hasMessageContaining("average_size");
        Proxy gone = create("gone");
        gone.delete();
        assertThatThrownBy(() -> gone.toxics().getAll()).hasMessageContaining("proxy not found");
    }

    /** The next byte, or -1 at EOF; a reset counts as the end too. */
    static int readOrReset(InputStream in) throws IOException {
        try {
            return in.read();
        } catch (SocketException e) {
            return -1;
        }
    }

    @Test
    void aDisabledLinkStaysClosedUntilEnabled() throws Exception {
        Proxy p = create("echo");
        p.disable();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThatThrownBy(() -> connect(p).close()).isInstanceOf(ConnectException.class));
        p.enable();
        try (Socket s = connect(p)) {
            assertThat(pingArrives(s, Duration.ofSeconds(10))).isTrue();
        }
    }
}
