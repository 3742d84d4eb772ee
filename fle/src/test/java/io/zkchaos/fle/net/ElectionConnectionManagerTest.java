package io.zkchaos.fle.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.fle.election.Notification;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.election.Vote;
import io.zkchaos.fle.sched.ExecutorScheduler;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two election connection managers on loopback, each reaching the other through a relay (as through the proxy). */
class ElectionConnectionManagerTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final List<AutoCloseable> open = new ArrayList<>();

    /** One server: its manager and what it received, as (from, notification). */
    private final class Server {
        final long sid;
        final ServerSocket socket;
        final List<Object[]> received = new CopyOnWriteArrayList<>();
        final Map<Long, InetSocketAddress> peers = new HashMap<>();
        ElectionConnectionManager manager;

        Server(long sid) throws IOException {
            this.sid = sid;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
        }

        void start() {
            ExecutorScheduler s = new ExecutorScheduler("n" + sid + "-test", t -> {
                throw new AssertionError(t);
            });
            open.add(s);
            manager = new ElectionConnectionManager(sid, socket, peers::get, peers.keySet(), s, 2_000);
            open.add(manager);
            manager.start((from, n) -> received.add(new Object[] {from, n}));
        }

        List<Notification> from(long sid) {
            return received.stream().filter(r -> (long) r[0] == sid).map(r -> (Notification) r[1]).toList();
        }
    }

    private static Notification n(long leader, long round) {
        return new Notification(new Vote(leader, 0, round, 0, ServerState.LOOKING));
    }

    private TcpRelay relay(InetSocketAddress to) throws IOException {
        TcpRelay r = new TcpRelay(to);
        open.add(r);
        return r;
    }

    @AfterEach
    void closeAll() throws Exception {
        java.util.Collections.reverse(open);
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @Test
    void oneConnectionPerPairAndItIsTheOneTheLargerSidInitiated() throws Exception {
        Server a = new Server(1);
        Server b = new Server(2);
        TcpRelay aToB = relay(b.address());
        TcpRelay bToA = relay(a.address());
        a.peers.put(2L, aToB.address());
        b.peers.put(1L, bToA.address());
        a.start();
        b.start();

        a.manager.send(2, n(1, 1)); // the smaller SID connects first: it is hung up on and called back
        await().atMost(WAIT).until(() -> b.from(1).size() == 1);
        b.manager.send(1, n(2, 1));
        await().atMost(WAIT).until(() -> a.from(2).size() == 1);

        assertThat(b.from(1)).as("known by its handshake, not by the relay it came through").containsExactly(n(1, 1));
        assertThat(a.from(2)).containsExactly(n(2, 1));
        assertThat(aToB.accepted()).as("1 connected to 2 once, to be called back").isEqualTo(1);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(aToB.live()).as("the connection 1 initiated is gone").isZero();
            assertThat(bToA.live()).as("the one 2 initiated stays").isEqualTo(1);
        });
        assertThat(a.manager.connected(2)).isTrue();
        assertThat(b.manager.connected(1)).isTrue();
        assertThat(a.manager.haveDelivered()).isTrue();
    }

    @Test
    void theLastMessageIsSentAgainWhenAConnectionComesBackSoReceiversSeeDuplicates() throws Exception {
        Server a = new Server(1);
        Server b = new Server(2);
        TcpRelay aToB = relay(b.address());
        TcpRelay bToA = relay(a.address());
        a.peers.put(2L, aToB.address());
        b.peers.put(1L, bToA.address());
        a.start();
        b.start();
        b.manager.send(1, n(7, 3));
        await().atMost(WAIT).until(() -> a.from(2).size() == 1);

        bToA.cutAll();
        await().atMost(WAIT).until(() -> !b.manager.connected(1) && !a.manager.connected(2));
        b.manager.connectAll(); // what a notification timeout does
        await().atMost(WAIT).until(() -> a.from(2).size() == 2);
        assertThat(a.from(2)).containsExactly(n(7, 3), n(7, 3));
    }

    @Test
    void aPeerThatIsDownGetsOnlyTheNewestMessageOnceItComes() throws Exception {
        Server a = new Server(1);
        Server b = new Server(2);
        a.peers.put(2L, b.address());
        b.peers.put(1L, a.address());
        a.start();
        a.manager.send(2, n(1, 1));
        a.manager.send(2, n(1, 2));
        a.manager.send(2, n(1, 3));
        assertThat(a.manager.drained(2)).as("2 is down: its queue holds a message").isFalse();
        assertThat(a.manager.haveDelivered()).as("no queue is drained").isFalse();
        b.start();
        a.manager.connectAll();
        await().atMost(WAIT).until(() -> !b.from(1).isEmpty() && a.manager.drained(2));
        assertThat(b.from(1)).containsExactly(n(1, 3));
    }

    @Test
    void aConnectionClaimingAnUnknownSidIsRefused() throws Exception {
        Server a = new Server(1);
        a.peers.put(2L, new InetSocketAddress(InetAddress.getLoopbackAddress(), 1));
        a.start();
        try (Socket s = new Socket()) {
            s.connect(a.address(), 5_000);
            s.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(ElectionConnectionManager.MAGIC);
            out.writeLong(9);
            out.flush();
            assertThat(s.getInputStream().read()).as("closed by the server").isEqualTo(-1);
        }
        assertThat(a.received).isEmpty();
        assertThat(Set.copyOf(a.peers.keySet())).containsExactly(2L);
    }

    @Test
    void aServerSendsToItselfWithoutTheNetwork() throws Exception {
        Server a = new Server(1);
        a.start();
        a.manager.send(1, n(1, 1));
        await().atMost(WAIT).until(() -> a.from(1).size() == 1);
    }
}
