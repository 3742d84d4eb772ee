package io.zkchaos.nemesis.proxy;

import static io.zkchaos.nemesis.proxy.FaultProxyTest.ANY_PORT;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.connect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A tap halting a stream right after a marker byte, as a protocol-aware fault will halt it right after a chosen
 * packet: the bytes up to the marker pass, what follows is held (stall) or never delivered (close, reset).
 */
class TapHaltTest {
    EchoServer echo;
    FaultProxy proxy;
    ProxyLink link;

    @BeforeEach
    void setUp() throws IOException {
        echo = new EchoServer();
        proxy = FaultProxyTest.twoThreadProxy(5);
        link = proxy.createLink("echo", ANY_PORT, echo.address());
    }

    @AfterEach
    void tearDown() throws Exception {
        proxy.close();
        echo.close();
    }

    /** Halts the upstream right after the first '|' it sees on a connection. */
    void haltAfterBar(TapContext.Halt halt) {
        link.setTap((ctx, bytes) -> {
            if (ctx.stream() != Stream.UPSTREAM) {
                return;
            }
            for (int i = bytes.position(); i < bytes.limit(); i++) {
                if (bytes.get(i) == '|') {
                    ctx.haltAfter(i - bytes.position() + 1, halt);
                    return;
                }
            }
        });
    }

    /**
     * Reads until {@code expected} bytes came (bounded: 5 s), then for {@code quiet} more to catch any extra byte;
     * stops early at EOF. Returns what arrived as text.
     */
    static String read(Socket s, int expected, Duration quiet) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[1024];
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        try {
            while (got.size() < expected && System.nanoTime() < deadline) {
                s.setSoTimeout(Math.max(1, (int) ((deadline - System.nanoTime()) / 1_000_000)));
                int n = in.read(buf);
                if (n < 0) {
                    return got.toString(StandardCharsets.US_ASCII);
                }
                got.write(buf, 0, n);
            }
            s.setSoTimeout((int) quiet.toMillis());
            int n;
            while ((n = in.read(buf)) >= 0) {
                got.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            // quiet for the bound: done
        }
        return got.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void stallHoldsEverythingAfterTheMarkerUntilReleasedThenDeliversItInOrder() throws Exception {
        haltAfterBar(TapContext.Halt.STALL);
        link.addToxic(Toxic.latency("l", Stream.DOWNSTREAM, 5, 0)); // halts and toxics compose
        try (Socket s = connect(link.listenAddress())) {
            s.getOutputStream().write("AAAA|BBBB".getBytes(StandardCharsets.US_ASCII));
            assertThat(read(s, 5, Duration.ofMillis(300))).isEqualTo("AAAA|");
            s.getOutputStream().write("CCCC".getBytes(StandardCharsets.US_ASCII));
            assertThat(read(s, 0, Duration.ofMillis(300))).as("still held").isEmpty();
            assertThat(echo.received.get()).isEqualTo(5);

            link.setTap(null);
            link.releaseStalls();
            assertThat(read(s, 8, Duration.ofMillis(200))).isEqualTo("BBBBCCCC");
            s.getOutputStream().write("D".getBytes(StandardCharsets.US_ASCII));
            assertThat(read(s, 1, Duration.ofMillis(100))).isEqualTo("D");
        }
    }

    @Test
    void closeDeliversUpToTheMarkerThenEndsTheConnection() throws Exception {
        haltAfterBar(TapContext.Halt.CLOSE);
        try (Socket s = connect(link.listenAddress())) {
            s.getOutputStream().write("AAAA|BBBB".getBytes(StandardCharsets.US_ASCII));
            await("the server gets the bytes before the halt").atMost(Duration.ofSeconds(30))
                    .until(() -> echo.received.get() >= 5);
            assertThat(FaultProxyTest.closedStats(link).bytesDropped()).as("the bytes after the halt")
                    .isEqualTo(4);
            assertThat(echo.received.get()).as("bytes the server got").isEqualTo(5);
        }
    }

    @Test
    void resetDeliversUpToTheMarkerThenResetsTheClient() throws Exception {
        haltAfterBar(TapContext.Halt.RESET);
        try (Socket s = connect(link.listenAddress())) {
            s.getOutputStream().write("AAAA|BBBB".getBytes(StandardCharsets.US_ASCII));
            await("the server gets the bytes before the halt").atMost(Duration.ofSeconds(30))
                    .until(() -> echo.received.get() >= 5);
            s.setSoTimeout(10_000);
            assertThatThrownBy(() -> {
                InputStream in = s.getInputStream();
                while (in.read() >= 0) {
                    // drain until the reset
                }
            }).isInstanceOf(SocketException.class).hasMessageContaining("reset");
        }
    }

    @Test
    void aFailingTapIsDroppedForThatStreamAndBytesStillFlow() throws Exception {
        link.setTap((ctx, bytes) -> {
            throw new IllegalStateException("tap bug");
        });
        try (Socket s = connect(link.listenAddress())) {
            s.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            assertThat(read(s, 5, Duration.ofMillis(100))).isEqualTo("hello");
        }
    }
}
