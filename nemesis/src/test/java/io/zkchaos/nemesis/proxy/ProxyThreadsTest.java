package io.zkchaos.nemesis.proxy;

import static io.zkchaos.nemesis.proxy.FaultProxyTest.ANY_PORT;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.assertEchoes;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.connect;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.endsWithin;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The proxy's threads: connections are dealt out over them and each stays on one; a tap still sees each stream
 * whole and in order, and its calls never overlap; a link method called from a tap on one thread reaches the
 * connections of the others; random draws do not depend on the number of threads.
 */
class ProxyThreadsTest {

    /**
     * A tap that keeps its state in plain, unsynchronised maps, as a protocol decoder written for one thread would:
     * it works only if its calls never overlap and each connection's bytes come in order.
     */
    static final class RecordingTap implements StreamTap {
        final Map<Long, ByteArrayOutputStream> up = new HashMap<>();
        final Map<Long, ByteArrayOutputStream> down = new HashMap<>();
        final Map<Long, Set<String>> threads = new HashMap<>();
        final Set<Long> closed = new HashSet<>();
        int inside;
        int overlaps;

        @Override
        public void onBytes(TapContext ctx, ByteBuffer bytes) {
            if (++inside > 1) {
                overlaps++;
            }
            threads.computeIfAbsent(ctx.connectionId(), k -> new HashSet<>()).add(Thread.currentThread().getName());
            byte[] b = new byte[bytes.remaining()];
            bytes.get(b);
            (ctx.stream() == Stream.UPSTREAM ? up : down)
                    .computeIfAbsent(ctx.connectionId(), k -> new ByteArrayOutputStream()).write(b, 0, b.length);
            for (int i = 0; i < 1000; i++) {
                Thread.onSpinWait(); // widen the window in which an overlapping call would be caught
            }
            inside--;
        }

        @Override
        public void onClosed(String link, long connectionId) {
            closed.add(connectionId);
        }
    }

    @Test
    void connectionsSpreadOverTheThreadsEachStaysOnOneAndATapSeesEveryStreamWholeAndInOrder() throws Exception {
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(2 * n);
        RecordingTap tap = new RecordingTap();
        List<byte[]> sent = new ArrayList<>();
        try (EchoServer echo = new EchoServer();
             FaultProxy proxy = new FaultProxy(3, FaultProxy.DEFAULT_MAX_QUEUED_BYTES,
                     FaultProxy.DEFAULT_UPSTREAM_RETRY, 2)) {
            ProxyLink link = proxy.createLink("spread", ANY_PORT, echo.address());
            link.setTap(tap);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] data = new byte[200_000 + i];
                new Random(i).nextBytes(data);
                sent.add(data);
                results.add(pool.submit(() -> {
                    try (Socket s = connect(link.listenAddress())) {
                        return Arrays.equals(roundTrip(s, data, pool), data);
                    }
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get(60, TimeUnit.SECONDS)).as("echo intact").isTrue();
            }
            // onClosed is a connection's last call: once all came, the tap's maps are final. Reading the count under
            // the link's tap lock (the monitor that orders the tap's calls) makes them visible here.
            await("the tap is told of every close").atMost(Duration.ofSeconds(30))
                    .until(() -> {
                        synchronized (link.tapLock) {
                            return tap.closed.size() == n;
                        }
                    });
        } finally {
            pool.shutdownNow();
        }
        assertThat(tap.overlaps).as("tap calls that overlapped another").isZero();
        assertThat(tap.threads).hasSize(n);
        Set<String> used = new HashSet<>();
        tap.threads.values().forEach(t -> {
            assertThat(t).as("proxy threads one connection's bytes were seen on").hasSize(1);
            used.addAll(t);
        });
        assertThat(used).as("proxy threads the connections were dealt to").hasSize(2)
                .allMatch(name -> name.startsWith(FaultProxy.THREAD_PREFIX));
        // Which connection carried which data: match each recorded upstream to a sent array by length.
        for (long id : tap.up.keySet()) {
            byte[] up = tap.up.get(id).toByteArray();
            byte[] down = tap.down.get(id).toByteArray();
            byte[] expected = sent.stream().filter(d -> d.length == up.length).findFirst().orElseThrow();
            assertThat(Arrays.equals(up, expected)).as("upstream of connection %d, whole and in order", id)
                    .isTrue();
            assertThat(Arrays.equals(down, expected)).as("downstream of connection %d, whole and in order", id)
                    .isTrue();
        }
    }

    @Test
    void aLinkDisabledFromATapClosesConnectionsOnEveryThread() throws Exception {
        try (EchoServer echo = new EchoServer();
             FaultProxy proxy = new FaultProxy(4, FaultProxy.DEFAULT_MAX_QUEUED_BYTES,
                     FaultProxy.DEFAULT_UPSTREAM_RETRY, 2)) {
            ProxyLink link = proxy.createLink("self-cut", ANY_PORT, echo.address());
            Map<Long, String> threadOf = new HashMap<>();
            link.setTap((ctx, bytes) -> {
                threadOf.put(ctx.connectionId(), Thread.currentThread().getName());
                for (int i = bytes.position(); i < bytes.limit(); i++) {
                    if (bytes.get(i) == '!') {
                        link.setEnabled(false); // on a proxy thread: this one's connections now, the rest posted
                    }
                }
            });
            try (Socket a = connect(link.listenAddress()); Socket b = connect(link.listenAddress())) {
                assertEchoes(a);
                assertEchoes(b);
                synchronized (link.tapLock) {
                    assertThat(new HashSet<>(threadOf.values())).as("the two connections' threads").hasSize(2);
                }
                a.getOutputStream().write('!');
                assertThat(endsWithin(a, Duration.ofSeconds(30))).as("the tap's own connection closed").isTrue();
                assertThat(endsWithin(b, Duration.ofSeconds(30))).as("the connection on the other thread closed")
                        .isTrue();
            }
            await("the port refuses").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThatThrownBy(() -> connect(link.listenAddress()).close())
                            .isInstanceOf(ConnectException.class));
            assertThat(link.enabled()).isFalse();
            // The proxy still answers callers: no thread waits for another.
            link.setTap(null);
            link.setEnabled(true);
            try (Socket s = connect(link.listenAddress())) {
                assertEchoes(s);
            }
        }
    }

    @Test
    void aProxyClosedFromATapStopsEveryThread() throws Exception {
        try (EchoServer echo = new EchoServer()) {
            FaultProxy proxy = new FaultProxy(5, FaultProxy.DEFAULT_MAX_QUEUED_BYTES,
                    FaultProxy.DEFAULT_UPSTREAM_RETRY, 2);
            ProxyLink link = proxy.createLink("self-close", ANY_PORT, echo.address());
            link.setTap((ctx, bytes) -> {
                if (bytes.get(bytes.position()) == '!') {
                    proxy.close();
                }
            });
            try (Socket a = connect(link.listenAddress()); Socket b = connect(link.listenAddress())) {
                assertEchoes(a);
                assertEchoes(b);
                a.getOutputStream().write('!');
                assertThat(endsWithin(a, Duration.ofSeconds(30))).isTrue();
                assertThat(endsWithin(b, Duration.ofSeconds(30))).isTrue();
            }
            assertThat(proxy.isClosed()).isTrue();
            await("every proxy thread stops").atMost(Duration.ofSeconds(30)).until(() -> Thread.getAllStackTraces()
                    .keySet().stream().noneMatch(t -> t.getName().startsWith(FaultProxy.THREAD_PREFIX)
                            && t.isAlive()));
            assertThatThrownBy(() -> connect(link.listenAddress()).close()).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void theThreadCountIsTheDefaultUnlessGivenAndAtLeastOne() {
        try (FaultProxy byDefault = new FaultProxy(1)) {
            assertThat(byDefault.threads()).isEqualTo(FaultProxy.DEFAULT_THREADS).isPositive();
        }
        assertThatThrownBy(() -> new FaultProxy(1, FaultProxy.DEFAULT_MAX_QUEUED_BYTES,
                FaultProxy.DEFAULT_UPSTREAM_RETRY, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads must be at least 1");
    }

    @Test
    void toxicityDrawsDependOnSeedLinkAndAcceptOrderNotOnTheNumberOfThreads() throws Exception {
        String oneThread = drawPattern(11, 1);
        String twoThreads = drawPattern(11, 2);
        String threeThreads = drawPattern(11, 3);
        assertThat(oneThread).as("toxic applied (A) or not (-) per connection, in accept order")
                .contains("A").contains("-");
        assertThat(twoThreads).isEqualTo(oneThread);
        assertThat(threeThreads).isEqualTo(oneThread);
        assertThat(drawPattern(12, 2)).as("another seed").isNotEqualTo(oneThread);
    }

    /**
     * Opens 24 connections one after the other through a link whose toxic (limit_data 0: close at once) applies
     * with probability 0.5, and returns which it applied to: 'A' for a connection closed by the toxic, '-' for one
     * that echoed.
     */
    private static String drawPattern(long seed, int threads) throws Exception {
        StringBuilder pattern = new StringBuilder();
        try (EchoServer echo = new EchoServer();
             FaultProxy proxy = new FaultProxy(seed, FaultProxy.DEFAULT_MAX_QUEUED_BYTES,
                     FaultProxy.DEFAULT_UPSTREAM_RETRY, threads)) {
            ProxyLink link = proxy.createLink("draws", ANY_PORT, echo.address());
            link.addToxic(Toxic.limitData("coin", Stream.DOWNSTREAM, 0).withToxicity(0.5));
            for (int i = 0; i < 24; i++) {
                try (Socket s = connect(link.listenAddress())) {
                    int got;
                    try {
                        s.getOutputStream().write('x');
                        got = s.getInputStream().read();
                    } catch (IOException closedUnderUs) {
                        got = -1; // reset or broken pipe: closed by the toxic as well
                    }
                    pattern.append(got == 'x' ? '-' : 'A');
                }
            }
        }
        return pattern.toString();
    }
}
