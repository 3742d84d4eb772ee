package io.zkchaos.nemesis.proxy;

import static io.zkchaos.nemesis.proxy.FaultProxyTest.ANY_PORT;
import static io.zkchaos.nemesis.proxy.FaultProxyTest.connect;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
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

    /** How many toxic changes every stream sees in the middle of its data, whatever the machine's speed. */
    private static final int CHANGES_MID_STREAM = 21;

    @Test
    void addingAndRemovingLosslessToxicsUnderTrafficKeepsEveryStreamIntact() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (EchoServer echo = new EchoServer(); FaultProxy proxy = FaultProxyTest.twoThreadProxy(13)) {
            ProxyLink link = proxy.createLink("churn", ANY_PORT, echo.address());
            // Each stream sends half its data, then waits for the churn to have changed the toxics enough times
            // before it sends the rest: the changes happen while every stream is in flight, on a loaded machine too.
            CountDownLatch churned = new CountDownLatch(CHANGES_MID_STREAM);
            List<Future<Boolean>> streams = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                int seed = i;
                streams.add(pool.submit(() -> {
                    byte[] data = new byte[1_000_000];
                    new Random(seed).nextBytes(data);
                    try (Socket s = connect(link.listenAddress())) {
                        return Arrays.equals(roundTripAcross(s, data, churned, pool), data);
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
                churned.countDown();
            }
            link.heal();
            for (Future<Boolean> f : streams) {
                assertThat(f.get(60, TimeUnit.SECONDS)).as("stream intact").isTrue();
            }
            assertThat(changes).as("toxics changed while data flowed").isGreaterThanOrEqualTo(CHANGES_MID_STREAM);
            assertThat(FaultProxyTest.closedStats(link).bytesDropped()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Writes the first half of {@code data}, waits for {@code churned}, writes the rest, and reads the echo of all
     * of it meanwhile.
     */
    private static byte[] roundTripAcross(Socket s, byte[] data, CountDownLatch churned, ExecutorService pool)
            throws Exception {
        Future<?> writer = pool.submit(() -> {
            OutputStream out = s.getOutputStream();
            int half = data.length / 2;
            for (int off = 0; off < data.length; off += 8192) {
                if (off >= half && churned.getCount() > 0 && !churned.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the toxics were not changed " + CHANGES_MID_STREAM
                            + " times within 60 s");
                }
                out.write(data, off, Math.min(8192, data.length - off));
            }
            out.flush();
            return null;
        });
        byte[] back = new byte[data.length];
        new DataInputStream(s.getInputStream()).readFully(back);
        writer.get(60, TimeUnit.SECONDS);
        return back;
    }
}
