package io.zkchaos.nemesis.proxy;

import static io.zkchaos.nemesis.proxy.FaultProxyTest.ANY_PORT;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.connect;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Toxics that keep every byte (latency, bandwidth, slicer) added and removed over and over while several
 * connections stream random data: every byte must still arrive, in order.
 */
class ToxicChurnTest {

    @Test
    void addingAndRemovingLosslessToxicsUnderTrafficKeepsEveryStreamIntact() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (EchoServer echo = new EchoServer(); FaultProxy proxy = FaultProxyTest.twoThreadProxy(13)) {
            ProxyLink link = proxy.createLink("churn", ANY_PORT, echo.address());
            List<Future<Boolean>> streams = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                int seed = i;
                streams.add(pool.submit(() -> {
                    byte[] data = new byte[1_000_000];
                    new Random(seed).nextBytes(data);
                    try (Socket s = connect(link.listenAddress())) {
                        return Arrays.equals(roundTrip(s, data, pool), data);
                    }
                }));
            }
            Random rnd = new Random(99);
            List<Toxic> kinds = List.of(
                    Toxic.latency("lat", Stream.UPSTREAM, 3, 2),
                    Toxic.latency("lat-down", Stream.DOWNSTREAM, 2, 2),
                    Toxic.slicer("slice", Stream.DOWNSTREAM, 500, 400, 100),
                    Toxic.bandwidth("bw", Stream.UPSTREAM, 5_000));
            int changes = 0;
            while (!streams.stream().allMatch(Future::isDone) && changes < 20_000) {
                Toxic t = kinds.get(rnd.nextInt(kinds.size()));
                if (link.toxics().stream().anyMatch(x -> x.name().equals(t.name()))) {
                    link.removeToxic(t.name());
                } else {
                    link.addToxic(t);
                }
                changes++;
            }
            link.heal();
            for (Future<Boolean> f : streams) {
                assertThat(f.get(60, TimeUnit.SECONDS)).as("stream intact").isTrue();
            }
            assertThat(changes).as("toxics changed while data flowed").isGreaterThan(20);
            assertThat(FaultProxyTest.closedStats(link).bytesDropped()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }
}
