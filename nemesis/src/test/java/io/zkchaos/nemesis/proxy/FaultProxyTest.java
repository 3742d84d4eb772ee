package io.zkchaos.nemesis.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkStats;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The embedded proxy with real sockets on 127.0.0.1: pass-through, cuts and lifecycle. */
class FaultProxyTest {
    static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    EchoServer echo;
    FaultProxy proxy;
    Link link;

    /**
     * A proxy with two selector threads whatever the machine's default, so that the tests cover connections and
     * control calls spread over threads.
     */
    static FaultProxy twoThreadProxy(long seed) {
        return new FaultProxy(seed, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, FaultProxy.DEFAULT_UPSTREAM_RETRY, 2);
    }

    @BeforeEach
    void setUp() throws IOException {
        echo = new EchoServer();
        proxy = twoThreadProxy(42);
        link = proxy.createLink("echo", ANY_PORT, echo.address());
    }

    @AfterEach
    void tearDown() throws Exception {
        proxy.close();
        echo.close();
    }

    static Socket connect(InetSocketAddress a) throws IOException {
        Socket s = new Socket();
        s.connect(a, 2000);
        s.setSoTimeout(10_000);
        return s;
    }

    /** Sends {@code data} and reads the echo concurrently (so neither side's buffers deadlock); returns the echo. */
    static byte[] roundTrip(Socket s, byte[] data, ExecutorService pool) throws Exception {
        Future<?> writer = pool.submit(() -> {
            OutputStream out = s.getOutputStream();
            for (int off = 0; off < data.length; off += 8192) {
                out.write(data, off, Math.min(8192, data.length - off));
            }
            out.flush();
            return null;
        });
        byte[] back = new byte[data.length];
        new DataInputStream(s.getInputStream()).readFully(back);
        writer.get(30, TimeUnit.SECONDS);
        return back;
    }

    static void assertEchoes(Socket s) throws IOException {
        s.getOutputStream().write("ping".getBytes());
        byte[] b = new byte[4];
        new DataInputStream(s.getInputStream()).readFully(b);
        assertThat(new String(b)).isEqualTo("ping");
    }

    /** Whether the socket sees the connection end (EOF or reset) within the bound. */
    static boolean endsWithin(Socket s, Duration bound) throws IOException {
        s.setSoTimeout((int) bound.toMillis());
        try {
            InputStream in = s.getInputStream();
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // connection reset
        }
    }

    @Test
    void passesLargeRandomTransfersIntactBothWays() throws Exception {
        byte[] data = new byte[8 * 1024 * 1024];
        new Random(1).nextBytes(data);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Socket s = connect(link.listenAddress())) {
            byte[] back = roundTrip(s, data, pool);
            assertThat(Arrays.equals(back, data)).as("echoed bytes equal the sent ones").isTrue();
        } finally {
            pool.shutdownNow();
        }
        LinkStats stats = closedStats(link);
        assertThat(stats.bytesUpstream()).isEqualTo(data.length);
        assertThat(stats.bytesDownstream()).isEqualTo(data.length);
        assertThat(stats.connectionsAccepted()).isEqualTo(1);
    }

    /**
     * The link's stats once the proxy has closed every connection (it does so after both ends closed): a
     * connection's bytes are counted before it is counted closed, so these counts are final (see ProxyLink).
     */
    static LinkStats closedStats(Link link) {
        return await("the proxy closes the link's connections").atMost(Duration.ofSeconds(30))
                .until(link::stats, s -> s.openConnections() == 0);
    }

    @Test
    void servesManyConcurrentConnections() throws Exception {
        int n = 24;
        ExecutorService pool = Executors.newFixedThreadPool(2 * n);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int seed = i;
                results.add(pool.submit(() -> {
                    byte[] data = new byte[300_000 + seed];
                    new Random(seed).nextBytes(data);
                    try (Socket s = connect(link.listenAddress())) {
                        return Arrays.equals(roundTrip(s, data, pool), data);
                    }
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(link.stats().connectionsAccepted()).isEqualTo(n);
        assertThat(echo.accepted.get()).isEqualTo(n);
    }

    @Test
    void disabledLinkClosesConnectionsAndRefusesNewOnes() throws Exception {
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
            link.cut(CutMode.REFUSE);
            assertThat(link.enabled()).isFalse();
            assertThat(endsWithin(s, Duration.ofSeconds(5))).as("existing connection closed").isTrue();
        }
        assertThatThrownBy(() -> connect(link.listenAddress()).close()).isInstanceOf(ConnectException.class);

        link.heal();
        assertThat(link.enabled()).isTrue();
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
        }
    }

    @Test
    void blackholeStallsExistingAndNewConnectionsUntilHealThenClosesThem() throws Exception {
        try (Socket old = connect(link.listenAddress())) {
            assertEchoes(old);
            int acceptedBefore = echo.accepted.get();
            link.cut(CutMode.BLACKHOLE);

            old.getOutputStream().write("lost".getBytes());
            old.setSoTimeout(500);
            assertThatThrownBy(() -> old.getInputStream().read()).as("no byte passes within 500 ms")
                    .isInstanceOf(SocketTimeoutException.class);

            try (Socket fresh = connect(link.listenAddress())) { // accepted: a black hole does not refuse
                fresh.getOutputStream().write("also lost".getBytes());
                fresh.setSoTimeout(300);
                assertThatThrownBy(() -> fresh.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
                assertThat(echo.accepted.get()).as("the server never saw the black-holed connection")
                        .isEqualTo(acceptedBefore);
                // The proxy counts bytes as dropped when it reads them: wait for both writes to be read.
                int lost = "lost".length() + "also lost".length();
                await("the proxy read and dropped both writes").atMost(Duration.ofSeconds(30))
                        .until(() -> link.stats().bytesDropped() >= lost);

                link.heal();
                // Toxiproxy's semantics: removing the timeout toxic closes the connections it stalled.
                assertThat(endsWithin(old, Duration.ofSeconds(5))).isTrue();
                assertThat(endsWithin(fresh, Duration.ofSeconds(5))).isTrue();
            }
        }
        assertThat(closedStats(link).bytesDropped()).as("dropped bytes, final once the connections closed")
                .isEqualTo("lost".length() + "also lost".length());
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
        }
    }

    @Test
    void enablingRetriesWhileSomethingElseHoldsThePortForAMoment() throws Exception {
        link.setEnabled(false);
        InetSocketAddress addr = link.listenAddress();
        ServerSocket squatter = new ServerSocket();
        squatter.bind(addr);
        java.util.concurrent.ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            timer.schedule(() -> {
                squatter.close();
                return null;
            }, 300, TimeUnit.MILLISECONDS);
            link.setEnabled(true); // fails to bind at first, succeeds once the squatter is gone
            assertThat(squatter.isClosed()).isTrue();
            try (Socket s = connect(addr)) {
                assertEchoes(s);
            }
        } finally {
            squatter.close();
            timer.shutdownNow();
        }
    }

    @Test
    void bindingAPortInUseNamesTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress addr = (InetSocketAddress) taken.getLocalSocketAddress();
            assertThatThrownBy(() -> proxy.createLink("clash", addr, echo.address()))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("link 'clash'")
                    .hasMessageContaining("127.0.0.1:" + addr.getPort());
        }
        assertThat(proxy.link("clash")).isEmpty();
    }

    @Test
    void removeLinkClosesItAndHealAllRestoresTheOthers() throws Exception {
        Link second = proxy.createLink("second", ANY_PORT, echo.address());
        Link third = proxy.createLink("third", ANY_PORT, echo.address());
        assertThat(proxy.links()).extracting(Link::name).containsExactly("echo", "second", "third");

        assertThat(proxy.removeLink("second")).isTrue();
        assertThat(proxy.removeLink("second")).isFalse();
        assertThatThrownBy(() -> connect(second.listenAddress()).close()).isInstanceOf(ConnectException.class);
        assertThat(proxy.link("second")).isEmpty();

        link.cut(CutMode.REFUSE);
        third.cut(CutMode.BLACKHOLE);
        third.addToxic(io.zkchaos.nemesis.net.Toxic.latency("lag", io.zkchaos.nemesis.net.Stream.UPSTREAM, 1, 0));
        proxy.healAll();
        for (Link l : proxy.links()) {
            assertThat(l.enabled()).isTrue();
            assertThat(l.toxics()).isEmpty();
            try (Socket s = connect(l.listenAddress())) {
                assertEchoes(s);
            }
        }
    }

    @Test
    void rejectsNonLoopbackAndDuplicateNames() {
        assertThatThrownBy(() -> proxy.createLink("far", new InetSocketAddress("192.0.2.1", 1), echo.address()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a loopback address");
        assertThatThrownBy(() -> proxy.createLink("echo", ANY_PORT, echo.address()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already exists");
    }

    @Test
    void closeLeavesNoListeningPortNoConnectionAndNoThread() throws Exception {
        Link second = proxy.createLink("second", ANY_PORT, echo.address());
        Socket s = connect(second.listenAddress());
        assertEchoes(s);
        proxy.close();
        assertThat(endsWithin(s, Duration.ofSeconds(5))).isTrue();
        s.close();
        for (Link l : List.of(link, second)) {
            assertThatThrownBy(() -> connect(l.listenAddress()).close()).isInstanceOf(ConnectException.class);
        }
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().startsWith(FaultProxy.THREAD_PREFIX) && t.isAlive());
        assertThatThrownBy(() -> link.addToxic(io.zkchaos.nemesis.net.Toxic.latency("l", 
                io.zkchaos.nemesis.net.Stream.UPSTREAM, 1, 0)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        proxy.close(); // idempotent
    }
}
