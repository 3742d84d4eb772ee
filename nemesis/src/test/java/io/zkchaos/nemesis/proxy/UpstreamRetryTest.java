package io.zkchaos.nemesis.proxy;

import static io.zkchaos.nemesis.proxy.FaultProxyTest.ANY_PORT;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.assertEchoes;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.closedStats;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.connect;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.endsWithin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkStats;
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
        // A hold far longer than the 150 ms below, so that a loaded machine cannot make the bind miss it.
        try (FaultProxy proxy = new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, Duration.ofSeconds(30))) {
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
            long t0 = System.nanoTime(); // before the connect: the proxy's 400 ms start when it takes the connection
            try (Socket s = connect(link.listenAddress())) {
                s.getOutputStream().write("hello".getBytes());
                assertThat(endsWithin(s, Duration.ofSeconds(30))).as("closed once the bound passed").isTrue();
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                // A lower bound only (load can delay the close, never hasten it): the last attempt falls at most
                // one 10 ms retry gap before the bound.
                assertThat(tookMs).as("ms the connection was held, retry bound 400 ms").isGreaterThanOrEqualTo(380);
            }
            assertThat(closedStats(link).bytesUpstream()).isZero();
        }
    }

    @Test
    void aZeroBoundClosesWithoutHolding() throws Exception {
        InetSocketAddress upstream = freePort();
        try (FaultProxy proxy = new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, Duration.ZERO)) {
            Link link = proxy.createLink("down", ANY_PORT, upstream);
            try (Socket s = connect(link.listenAddress())) {
                assertThat(endsWithin(s, Duration.ofSeconds(30))).as("closed at the refusal").isTrue();
            }
            LinkStats stats = closedStats(link);
            assertThat(stats.connectionsAccepted()).isEqualTo(1);
            assertThat(stats.bytesUpstream()).isZero();
        }
    }

    @Test
    void aLinkCanTurnTheHoldOffForItsOwnConnections() throws Exception {
        InetSocketAddress upstream = freePort();
        // The proxy holds for an hour; a held connection would outlive every bound below by far.
        try (FaultProxy proxy = new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, Duration.ofHours(1))) {
            ProxyLink held = proxy.createLink("held", ANY_PORT, upstream);
            ProxyLink client = proxy.createLink("client", ANY_PORT, upstream);
            client.upstreamRetry(Duration.ZERO);
            try (Socket heldSocket = connect(held.listenAddress()); Socket s = connect(client.listenAddress())) {
                assertThat(endsWithin(s, Duration.ofSeconds(30))).as("the zero-hold link's connection closed, "
                        + "within 30 s, of a 1 h hold").isTrue();
                assertThat(endsWithin(heldSocket, Duration.ofMillis(500))).as("the other link still holds").isFalse();
                await("the held connection counted open").atMost(Duration.ofSeconds(30))
                        .until(() -> held.stats().openConnections() == 1);
            }
            assertThatThrownBy(() -> client.upstreamRetry(Duration.ofMillis(-5)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("link 'client'");
        }
    }

    @Test
    void aNegativeBoundIsRejectedNamingIt() {
        assertThatThrownBy(() -> new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("upstreamRetry");
    }
}
