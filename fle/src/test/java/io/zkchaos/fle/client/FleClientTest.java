package io.zkchaos.fle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How the client classifies what can go wrong: certainly not done, or unknown. */
class FleClientTest {

    /** A server that reads the magic and one request, then does {@code then} with the socket. */
    private interface Behaviour {
        void after(Socket s) throws IOException, InterruptedException;
    }

    private static ServerSocket serve(Behaviour b, CountDownLatch done) throws IOException {
        ServerSocket ss = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            try (Socket s = ss.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                in.readInt();
                byte[] frame = new byte[in.readInt()];
                in.readFully(frame);
                b.after(s);
            } catch (IOException | InterruptedException e) {
                // the test decides what counts
            } finally {
                done.countDown();
            }
        });
        t.setDaemon(true);
        t.start();
        return ss;
    }

    private static InetSocketAddress at(ServerSocket ss) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), ss.getLocalPort());
    }

    @Test
    void noAnswerInTimeIsIndeterminate() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        try (ServerSocket ss = serve(s -> release.await(10, TimeUnit.SECONDS), done);
             FleClient c = new FleClient(at(ss), Duration.ofMillis(300))) {
            assertThatThrownBy(() -> c.put("k", "v")).isInstanceOf(IndeterminateException.class)
                    .hasMessageContaining("no answer").hasMessageContaining("within 300 ms");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aConnectionLostAfterTheRequestIsIndeterminate() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        try (ServerSocket ss = serve(Socket::close, done);
             FleClient c = new FleClient(at(ss), Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> c.cas("k", null, "v")).isInstanceOf(IndeterminateException.class)
                    .hasMessageContaining("connection to");
        }
    }

    @Test
    void aGarbledAnswerIsIndeterminate() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        try (ServerSocket ss = serve(s -> {
            OutputStream o = s.getOutputStream();
            o.write(new byte[] {0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1, 0}); // id 1, OK, then no zxid
            o.flush();
            Thread.sleep(1_000);
        }, done); FleClient c = new FleClient(at(ss), Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> c.put("k", "v")).isInstanceOf(IndeterminateException.class)
                    .hasMessageContaining("unreadable answer");
        }
    }

    @Test
    void aNodeThatCannotBeReachedIsADefiniteNo() throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = ss.getLocalPort();
        }
        try (FleClient c = new FleClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                Duration.ofSeconds(2))) {
            assertThatThrownBy(() -> c.put("k", "v")).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("cannot connect");
        }
    }

    @Test
    void theServersVerdictsArePassedOnAsTheyAre() throws Exception {
        for (byte result : new byte[] {ClientProtocol.REJECTED, ClientProtocol.INDETERMINATE}) {
            CountDownLatch done = new CountDownLatch(1);
            try (ServerSocket ss = serve(s -> {
                java.io.DataOutputStream o = new java.io.DataOutputStream(s.getOutputStream());
                byte[] why = "not serving: server 1 is LOOKING".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                o.writeInt(8 + 1 + 4 + why.length);
                o.writeLong(1);
                o.writeByte(result);
                o.writeInt(why.length);
                o.write(why);
                o.flush();
                Thread.sleep(1_000);
            }, done); FleClient c = new FleClient(at(ss), Duration.ofSeconds(5))) {
                Class<? extends FleException> expected = result == ClientProtocol.REJECTED ? RejectedException.class
                        : IndeterminateException.class;
                assertThatThrownBy(() -> c.get("k")).isInstanceOf(expected).hasMessage("not serving: server 1 is LOOKING");
            }
        }
    }

    @Test
    void aClosedClientRefusesCalls() {
        FleClient c = new FleClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), 1), Duration.ofSeconds(1));
        c.close();
        assertThatThrownBy(c::status).isInstanceOf(RejectedException.class).hasMessageContaining("closed");
        assertThat(c.node().getPort()).isEqualTo(1);
    }
}
