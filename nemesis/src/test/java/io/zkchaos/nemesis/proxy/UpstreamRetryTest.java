package io.zkchaos.nemesis.proxy;

import static io.zkchaos.nemesis.proxy.Eventually.eventually;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.ANY_PORT;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.assertEchoes;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.connect;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.endsWithin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.nemesis.net.Link;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An upstream that refuses: the proxy has already accepted the client, so it holds the connection and retries the
 * upstream for a bounded time instead of closing it at the first refusal. This is what lets a ZooKeeper follower
 * join a leader that binds its quorum port a few milliseconds after the follower connects (directly, the follower
 * gets "connection refused" and retries; through a proxy that closes at once it gets a dead connection, gives up on
 * that leader and the ensemble loses initLimit x tickTime and an election round).
 */
class UpstreamRetryTest {

    /** A loopback address with a port nothing listens on (bound once to find it, then released). */
    private static InetSocketAddress freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return (InetSocketAddress) s.getLocalSocketAddress();
        }
    }

    @Test
    void aConnectionAcceptedBeforeTheUpstreamListensReachesItOnceItDoes() throws Exception {
        InetSocketAddress upstream = freePort();
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        EchoServer[] server = new EchoServer[1];
        try (FaultProxy proxy = new FaultProxy(1)) {
            Link link = proxy.createLink("late", ANY_PORT, upstream);
            try (Socket s = connect(link.listenAddress())) {
                // The upstream binds 150 ms after the client connected: the proxy's first connects are refused.
                ScheduledFuture<?> bind = later.schedule(() -> server[0] = new EchoServer(upstream), 150,
                        TimeUnit.MILLISECONDS);
                assertEchoes(s); // without the retry: EOF, the proxy closed the connection at the first refusal
                bind.get(5, TimeUnit.SECONDS);
                assertThat(server[0].accepted.get()).isEqualTo(1);
            }
            assertThat(link.stats().connectionsAccepted()).isEqualTo(1);
        } finally {
            later.shutdownNow();
            if (server[0] != null) {
                server[0].close();
            }
        }
    }

    @Test
    void anUpstreamThatStaysDownClosesTheConnectionAfterTheBoundNotBefore() throws Exception {
        InetSocketAddress upstream = freePort();
        try (FaultProxy proxy = new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, Duration.ofMillis(400))) {
            Link link = proxy.createLink("down", ANY_PORT, upstream);
            try (Socket s = connect(link.listenAddress())) {
                long t0 = System.nanoTime();
                s.getOutputStream().write("hello".getBytes());
                assertThat(endsWithin(s, Duration.ofSeconds(5))).as("closed within 5 s").isTrue();
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertThat(tookMs).as("held for the retry bound (400 ms) first").isGreaterThanOrEqualTo(350);
            }
            eventually(Duration.ofSeconds(5), "no connection left open", () -> link.stats().openConnections() == 0);
            assertThat(link.stats().bytesUpstream()).isZero();
        }
    }

    @Test
    void aZeroBoundClosesAtTheFirstRefusal() throws Exception {
        InetSocketAddress upstream = freePort();
        try (FaultProxy proxy = new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, Duration.ZERO)) {
            Link link = proxy.createLink("down", ANY_PORT, upstream);
            try (Socket s = connect(link.listenAddress())) {
                long t0 = System.nanoTime();
                assertThat(endsWithin(s, Duration.ofSeconds(5))).isTrue();
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(300);
            }
        }
    }

    @Test
    void aLinkCanTurnTheHoldOffForItsOwnConnections() throws Exception {
        InetSocketAddress upstream = freePort();
        try (FaultProxy proxy = new FaultProxy(1)) { // 500 ms for the proxy's links by default
            ProxyLink link = proxy.createLink("client", ANY_PORT, upstream);
            link.upstreamRetry(Duration.ZERO);
            try (Socket s = connect(link.listenAddress())) {
                long t0 = System.nanoTime();
                assertThat(endsWithin(s, Duration.ofSeconds(5))).isTrue();
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(300);
            }
            assertThatThrownBy(() -> link.upstreamRetry(Duration.ofMillis(-5)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("link 'client'");
        }
    }

    @Test
    void aNegativeBoundIsRejectedNamingIt() {
        assertThatThrownBy(() -> new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("upstreamRetry");
    }
}
