package io.zkchaos.nemesis.proxy;

import static io.zkchaos.nemesis.proxy.FaultProxyTest.ANY_PORT;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.assertEchoes;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.closedStats;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.connect;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.endsWithin;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each toxic of the embedded proxy, measured with real sockets on 127.0.0.1. */
class ToxicsTest {
    EchoServer echo;
    FaultProxy proxy;
    ProxyLink link;
    ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void setUp() throws IOException {
        echo = new EchoServer();
        proxy = FaultProxyTest.twoThreadProxy(7);
        link = proxy.createLink("echo", ANY_PORT, echo.address());
    }

    @AfterEach
    void tearDown() throws Exception {
        pool.shutdownNow();
        proxy.close();
        echo.close();
    }

    static long pingMillis(Socket s) throws IOException {
        long t0 = System.nanoTime();
        assertEchoes(s);
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void latencyDelaysEachStreamByAtLeastItsValue() throws Exception {
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
            link.addToxic(Toxic.latency("up", Stream.UPSTREAM, 200, 0));
            assertThat(pingMillis(s)).isGreaterThanOrEqualTo(200);
            link.addToxic(Toxic.latency("down", Stream.DOWNSTREAM, 150, 0));
            assertThat(pingMillis(s)).isGreaterThanOrEqualTo(350);
        }
    }

    @Test
    void healingRemovesTheDelayForLaterBytes() throws Exception {
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
            // A delay far beyond the read timeout: a ping it still held would end in SocketTimeoutException.
            link.addToxic(Toxic.latency("an-hour", Stream.UPSTREAM, 3_600_000, 0));
            link.addToxic(Toxic.latency("another-hour", Stream.DOWNSTREAM, 3_600_000, 0));
            link.heal();
            assertThat(link.toxics()).isEmpty();
            s.setSoTimeout(30_000);
            assertEchoes(s); // within the 30 s read timeout, not after an hour
        }
    }

    @Test
    void latencyWithJitterKeepsOrderAndBytes() throws Exception {
        link.addToxic(Toxic.latency("jittery", Stream.UPSTREAM, 20, 15));
        byte[] data = new byte[200_000];
        new Random(3).nextBytes(data);
        try (Socket s = connect(link.listenAddress())) {
            assertThat(Arrays.equals(roundTrip(s, data, pool), data)).isTrue();
        }
    }

    @Test
    void bandwidthLimitsTheRate() throws Exception {
        link.addToxic(Toxic.bandwidth("slow", Stream.UPSTREAM, 500)); // 500 KB/s
        byte[] data = new byte[500_000];
        new Random(4).nextBytes(data);
        try (Socket s = connect(link.listenAddress())) {
            long t0 = System.nanoTime();
            byte[] back = roundTrip(s, data, pool);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(Arrays.equals(back, data)).isTrue();
            assertThat(ms).as("500 KB at 500 KB/s takes about 1 s").isGreaterThanOrEqualTo(900);
        }
    }

    @Test
    void resetPeerResetsTheConnectionAfterItsTimeout() throws Exception {
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
            // Before adding the toxic: its clock may start as it is installed (whole ms would also round 99.9 down).
            long t0 = System.nanoTime();
            link.addToxic(Toxic.resetPeer("rst", Stream.UPSTREAM, 100));
            s.getOutputStream().write("trigger".getBytes());
            assertThatThrownBy(() -> s.getInputStream().read())
                    .isInstanceOf(SocketException.class).hasMessageContaining("reset");
            assertThat(System.nanoTime() - t0).as("ns from adding the toxic to the reset")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    @Test
    void slicerDeliversEveryByteInOrderInDelayedPieces() throws Exception {
        link.addToxic(Toxic.slicer("slices", Stream.UPSTREAM, 100, 0, 20_000)); // 100-byte pieces, 20 ms apart
        byte[] data = new byte[1000];
        new Random(5).nextBytes(data);
        try (Socket s = connect(link.listenAddress())) {
            long t0 = System.nanoTime();
            byte[] back = roundTrip(s, data, pool);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(Arrays.equals(back, data)).isTrue();
            assertThat(ms).as("10 pieces, the last 9 × 20 ms after the first").isGreaterThanOrEqualTo(180);
        }
        link.heal();
        link.addToxic(Toxic.slicer("small", Stream.DOWNSTREAM, 7, 5, 0));
        byte[] more = new byte[100_000];
        new Random(6).nextBytes(more);
        try (Socket s = connect(link.listenAddress())) {
            assertThat(Arrays.equals(roundTrip(s, more, pool), more)).isTrue();
        }
    }

    @Test
    void timeoutWithAValueClosesTheIdleConnection() throws Exception {
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
            long t0 = System.nanoTime();
            // The idle clock starts when the toxic is added and restarts at each dropped chunk; 1 s leaves the
            // write below ample time to reach the proxy first, however loaded the machine.
            link.addToxic(Toxic.timeout("t", Stream.UPSTREAM, 1000));
            s.getOutputStream().write("dropped on the way".getBytes());
            assertThat(endsWithin(s, Duration.ofSeconds(30))).as("closed by the timeout toxic").isTrue();
            assertThat((System.nanoTime() - t0) / 1_000_000).as("ms until closed, idle timeout 1000 ms")
                    .isGreaterThanOrEqualTo(1000);
        }
        assertThat(closedStats(link).bytesDropped()).isEqualTo("dropped on the way".length());
        assertThat(echo.received.get()).as("bytes that reached the server").isEqualTo("ping".length());
    }

    @Test
    void limitDataPassesThatManyBytesThenCloses() throws Exception {
        link.addToxic(Toxic.limitData("cap", Stream.DOWNSTREAM, 1000));
        try (Socket s = connect(link.listenAddress())) {
            s.getOutputStream().write(new byte[5000]);
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            int n;
            try {
                while ((n = in.read(buf)) >= 0) {
                    got.write(buf, 0, n);
                }
            } catch (SocketException reset) {
                // the echo side may still be sending when the proxy closes: a reset is fine too
            }
            assertThat(got.size()).isEqualTo(1000);
        }
    }

    @Test
    void toxicityZeroNeverAppliesAndOneAlwaysDoes() throws Exception {
        link.addToxic(Toxic.timeout("never", Stream.UPSTREAM, 0).withToxicity(0.0));
        try (Socket s = connect(link.listenAddress())) {
            assertEchoes(s);
        }
        link.addToxic(Toxic.timeout("always", Stream.UPSTREAM, 0));
        try (Socket s = connect(link.listenAddress())) {
            s.getOutputStream().write(1);
            s.setSoTimeout(300);
            assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
        }
    }

    @Test
    void toxicNamesAreUniquePerLinkAndRemovable() {
        link.addToxic(Toxic.latency("a", Stream.UPSTREAM, 1, 0));
        assertThatThrownBy(() -> link.addToxic(Toxic.bandwidth("a", Stream.DOWNSTREAM, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already has a toxic named 'a'");
        assertThat(link.removeToxic("a")).isTrue();
        assertThat(link.removeToxic("a")).isFalse();
        assertThat(link.toxics()).isEmpty();
    }

    @Test
    void fullSinkStopsReadingFromTheSender() throws Exception {
        try (ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ProxyLink toDeaf = proxy.createLink("deaf", ANY_PORT,
                    (java.net.InetSocketAddress) deaf.getLocalSocketAddress());
            try (Socket s = connect(toDeaf.listenAddress()); Socket accepted = deaf.accept()) {
                AtomicLong written = new AtomicLong();
                long cap = 256L * 1024 * 1024;
                Future<?> writer = pool.submit(() -> {
                    OutputStream out = s.getOutputStream();
                    byte[] chunk = new byte[64 * 1024];
                    while (written.get() < cap) {
                        out.write(chunk);
                        written.addAndGet(chunk.length);
                    }
                    return null;
                });
                // Wait until the writer makes no progress for 500 ms: the proxy has pushed back. (Load can only
                // make it look stuck sooner; the byte bound below is what is asserted.)
                long[] last = {-1};
                long[] stillSince = {System.nanoTime()};
                await("the writer is blocked by backpressure").atMost(Duration.ofSeconds(60)).until(() -> {
                    long w = written.get();
                    long now = System.nanoTime();
                    if (w != last[0]) {
                        last[0] = w;
                        stillSince[0] = now;
                        return false;
                    }
                    return now - stillSince[0] > 500_000_000L;
                });
                assertThat(written.get()).as("bytes accepted before the writer blocked").isLessThan(64L << 20);
                assertThat(writer.isDone()).isFalse();

                // Draining the deaf side lets the data through, intact in count.
                accepted.setSoTimeout(10_000);
                long before = written.get();
                byte[] buf = new byte[64 * 1024];
                long drained = 0;
                DataInputStream in = new DataInputStream(accepted.getInputStream());
                while (drained < before) {
                    int n = in.read(buf);
                    assertThat(n).isPositive();
                    drained += n;
                }
                writer.cancel(true);
            }
        }
    }

    @Test
    void tapSeesEveryByteOfEachStreamInOrder() throws Exception {
        ByteArrayOutputStream up = new ByteArrayOutputStream();
        ByteArrayOutputStream down = new ByteArrayOutputStream();
        AtomicLong closed = new AtomicLong();
        link.setTap(new StreamTap() {
            @Override
            public void onBytes(TapContext context, ByteBuffer bytes) {
                assertThat(bytes.isReadOnly()).isTrue();
                assertThat(context.link()).isEqualTo("echo");
                byte[] b = new byte[bytes.remaining()];
                bytes.get(b);
                (context.stream() == Stream.UPSTREAM ? up : down).write(b, 0, b.length);
            }

            @Override
            public void onClosed(String name, long connectionId) {
                closed.incrementAndGet();
            }
        });
        byte[] data = new byte[300_000];
        new Random(8).nextBytes(data);
        try (Socket s = connect(link.listenAddress())) {
            assertThat(Arrays.equals(roundTrip(s, data, pool), data)).isTrue();
        }
        // onClosed comes after the connection's last onBytes, on the same thread: once it was called, the tap has
        // seen everything.
        await("the tap is told of the close").atMost(Duration.ofSeconds(30)).until(() -> closed.get() == 1);
        assertThat(Arrays.equals(up.toByteArray(), data)).isTrue();
        assertThat(Arrays.equals(down.toByteArray(), data)).isTrue();
    }

    @Test
    void toxicValidationNamesTheProblem() {
        assertThatThrownBy(() -> new Toxic("x", io.zkchaos.nemesis.net.ToxicType.LATENCY, Stream.UPSTREAM, 1.0,
                java.util.Map.of("latncy", 5L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no attribute 'latncy'");
        assertThatThrownBy(() -> Toxic.latency("x", Stream.UPSTREAM, 1, 0).withToxicity(1.5))
                .hasMessageContaining("toxicity must be within 0..1");
        assertThatThrownBy(() -> Toxic.slicer("x", Stream.UPSTREAM, 10, 10, 0))
                .hasMessageContaining("size_variation must be less than average_size");
        assertThatThrownBy(() -> Stream.fromWireName("sideways")).hasMessageContaining("'sideways'");
    }
}
