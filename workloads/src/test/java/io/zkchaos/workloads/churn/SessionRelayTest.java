package io.zkchaos.workloads.churn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The churn's relay on real loopback sockets: transparent, then silenced (the server's end stays open) or severed. */
class SessionRelayTest {

    private ServerSocket server;
    private final LinkedBlockingQueue<Socket> accepted = new LinkedBlockingQueue<>();
    private SessionRelay relay;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    accepted.add(server.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "test-server");
        t.setDaemon(true);
        t.start();
        relay = SessionRelay.open(List.of("127.0.0.1:" + server.getLocalPort()), 0, "test");
    }

    @AfterEach
    void stop() throws IOException {
        relay.close();
        server.close();
        for (Socket s : accepted) {
            s.close();
        }
    }

    private Socket connect() throws Exception {
        String[] hostPort = relay.connectString().split(":");
        Socket client = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
        client.setSoTimeout(10_000);
        return client;
    }

    /** One round trip through the relay; the server's end of it. */
    private Socket roundTrip(Socket client) throws Exception {
        client.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
        Socket end = accepted.poll(10, TimeUnit.SECONDS);
        assertThat(end).as("the relay connected to the server").isNotNull();
        end.setSoTimeout(10_000);
        assertThat(new String(end.getInputStream().readNBytes(4), StandardCharsets.US_ASCII)).isEqualTo("ping");
        end.getOutputStream().write("pong".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(client.getInputStream().readNBytes(4), StandardCharsets.US_ASCII)).isEqualTo("pong");
        return end;
    }

    @Test
    void silencedTheClientIsCutOffAndTheServersEndStaysOpenAndQuiet() throws Exception {
        try (Socket client = connect()) {
            Socket end = roundTrip(client);

            relay.silence();

            assertThat(client.getInputStream().read()).as("the client's end is closed").isEqualTo(-1);
            end.getOutputStream().write("more".getBytes(StandardCharsets.US_ASCII)); // dropped, not an error
            end.setSoTimeout(300);
            assertThatThrownBy(() -> end.getInputStream().read()).as("no end of stream: the connection is silent")
                    .isInstanceOf(SocketTimeoutException.class);
            try (Socket again = connect()) {
                assertThat(again.getInputStream().read()).as("a new connection is closed at once").isEqualTo(-1);
            }
        }
    }

    @Test
    void resumedNewConnectionsAreRelayedAgainAndTheSilencedOnesStayDead() throws Exception {
        try (Socket client = connect()) {
            Socket silenced = roundTrip(client);
            relay.silence();
            assertThat(client.getInputStream().read()).isEqualTo(-1);

            relay.resume();

            try (Socket again = connect()) {
                Socket end = roundTrip(again);
                assertThat(end).isNotSameAs(silenced);
            }
            silenced.getOutputStream().write("late".getBytes(StandardCharsets.US_ASCII));
            silenced.setSoTimeout(5_000);
            int read;
            try {
                read = silenced.getInputStream().read();
            } catch (IOException e) {
                read = -1; // reset: closed as well
            }
            assertThat(read).as("the silenced connection is closed by the relay once it tries to pass again")
                    .isEqualTo(-1);
        }
    }

    @Test
    void severedTheServerSeesTheConnectionEndAsAKilledClientsWould() throws Exception {
        try (Socket client = connect()) {
            Socket end = roundTrip(client);

            relay.sever();

            assertThat(end.getInputStream().read()).as("the server's end sees the close").isEqualTo(-1);
            assertThat(client.getInputStream().read()).isEqualTo(-1);
        }
    }

    @Test
    void aClientThatClosesClosesTheServersEndToo() throws Exception {
        Socket end;
        try (Socket client = connect()) {
            end = roundTrip(client);
        }
        assertThat(end.getInputStream().read()).isEqualTo(-1);
    }
}
