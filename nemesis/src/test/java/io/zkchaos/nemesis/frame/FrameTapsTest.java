package io.zkchaos.nemesis.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.RecordingSystem;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.NodeLinks;
import io.zkchaos.nemesis.proxy.EchoServer;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The trigger machinery on real sockets through the fault proxy, with a toy protocol ({@link LineProtocol}): node
 * {@code a} opens the link {@code a-b-line} to node {@code b} (an echo server). Each trigger fires at exactly the
 * byte it names — what the server received is asserted byte for byte — and its record names the frame.
 */
class FrameTapsTest {

    static final InetSocketAddress ANY = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    EchoServer server;
    FaultProxy proxy;
    NodeLinks links;
    Link line;
    FrameTaps taps;
    final RecordingSystem processes = new RecordingSystem(List.of("a", "b"), "b");
    final List<TriggerRecord> fired = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        server = new EchoServer();
        proxy = new FaultProxy(1);
        line = proxy.createLink("a-b-line", ANY, server.address());
        Link other = proxy.createLink("b-a-line", ANY, server.address());
        links = new NodeLinks(proxy, List.of("a", "b"), Map.of("a", proxy.createLink("client-a", ANY,
                server.address()), "b", proxy.createLink("client-b", ANY, server.address())),
                Map.of(NodeLinks.pair("a", "b"), List.of(line), NodeLinks.pair("b", "a"), List.of(other)));
        taps = FrameTaps.install(links, List.of("a", "b"), new LineProtocol());
        taps.onFiring(fired::add);
    }

    @AfterEach
    void tearDown() throws Exception {
        taps.close();
        links.close();
        server.close();
    }

    private static FrameTrigger trigger(Set<String> types, int nth, long body, FrameTrigger.Action action,
                                        FrameTrigger.Victim victim) {
        return new FrameTrigger("test", types, "upstream", nth, body, action, victim, Duration.ZERO, null);
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(line.listenAddress(), 5000);
        return s;
    }

    /** Waits until the server has received {@code n} bytes and stays there for a while (no more arrive). */
    private void serverGotExactly(long n) {
        await().atMost(Duration.ofSeconds(10)).until(() -> server.received.get() >= n);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> server.received.get() == n);
    }

    @Test
    void aCutResetsTheConnectionRightAfterTheNthFrameOfItsType() throws Exception {
        taps.arm(trigger(Set.of("B"), 2, -1, FrameTrigger.Action.CUT, FrameTrigger.Victim.RECEIVER), processes);
        String before = "A 1\nB 2\nA 3\nB 4\n";
        try (Socket s = connect()) {
            s.getOutputStream().write(LineProtocol.ascii(before + "C 5\nB 6\n"));
            serverGotExactly(before.length());
            await().atMost(Duration.ofSeconds(10)).until(() -> line.stats().openConnections() == 0);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
        TriggerRecord r = fired.get(0);
        assertThat(r.fired()).isTrue();
        assertThat(r.frame()).isEqualTo("B");
        assertThat(r.id()).isEqualTo("0x4");
        assertThat(r.count()).isEqualTo(2);
        assertThat(r.link()).isEqualTo("a-b-line");
        assertThat(r.stream()).isEqualTo("upstream");
        assertThat(r.sender()).isEqualTo("a");
        assertThat(r.receiver()).isEqualTo("b");
        assertThat(processes.calls).isEmpty();
        List<TriggerRecord> done = taps.disarm("test");
        assertThat(done).containsExactly(r);
        // the frames after the cut never passed, so they are not in the log
        assertThat(taps.seen().stream().filter(f -> f.stream().wireName().equals("upstream"))
                .map(f -> f.frame().type() + f.frame().id())).containsExactly("A1", "B2", "A3", "B4");
    }

    @Test
    void aStallAfterNBodyBytesHoldsTheRestUntilDisarmed() throws Exception {
        taps.arm(trigger(Set.of("BLOB"), 1, 10, FrameTrigger.Action.STALL, FrameTrigger.Victim.RECEIVER), processes);
        String head = "A 1\nBODY 50\n";
        String body = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
        try (Socket s = connect()) {
            s.getOutputStream().write(LineProtocol.ascii(head + body + "C 2\n"));
            serverGotExactly(head.length() + 10);
            assertThat(line.stats().openConnections()).as("a stall keeps the connection open").isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
            assertThat(fired.get(0).bodyBytes()).isEqualTo(10);
            assertThat(fired.get(0).frame()).isEqualTo("BLOB");
            taps.disarm("test");
            serverGotExactly(head.length() + body.length() + 4);
            assertThat(read(s, head.length() + body.length() + 4)).isEqualTo(head + body + "C 2\n");
        }
    }

    @Test
    void aBodyShorterThanTheCountFiresAtItsEnd() throws Exception {
        taps.arm(trigger(Set.of("BLOB"), 1, 1000, FrameTrigger.Action.STALL, FrameTrigger.Victim.RECEIVER), processes);
        try (Socket s = connect()) {
            s.getOutputStream().write(LineProtocol.ascii("BODY 5\nhelloC 2\n"));
            serverGotExactly(12);
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
            assertThat(fired.get(0).bodyBytes()).isEqualTo(5);
            taps.disarm("test");
        }
    }

    @Test
    void aKillHoldsTheStreamKillsTheVictimThenDropsTheConnection() throws Exception {
        taps.arm(new FrameTrigger("test", Set.of("B"), "upstream", 1, -1, FrameTrigger.Action.KILL,
                FrameTrigger.Victim.SENDER, Duration.ofMillis(20), Duration.ofMillis(10)), processes);
        try (Socket s = connect()) {
            s.getOutputStream().write(LineProtocol.ascii("A 1\nB 2\nC 3\n"));
            serverGotExactly(8);
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
            assertThat(processes.calls).containsExactly("kill a", "start a");
            assertThat(fired.get(0).nodes()).containsExactly("a");
            assertThat(fired.get(0).did()).contains("killed the sender a").contains("restarted a");
            await().atMost(Duration.ofSeconds(10)).until(() -> line.stats().openConnections() == 0);
        }
        serverGotExactly(8);
        taps.disarm("test");
    }

    @Test
    void aPauseHoldsTheStreamUntilDisarmedThenResumesTheVictimAndReleases() throws Exception {
        taps.arm(new FrameTrigger("test", Set.of("A"), "upstream", 1, -1, FrameTrigger.Action.PAUSE,
                FrameTrigger.Victim.RECEIVER, Duration.ZERO, null), processes);
        try (Socket s = connect()) {
            s.getOutputStream().write(LineProtocol.ascii("A 1\nB 2\n"));
            serverGotExactly(4);
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
            assertThat(processes.calls).containsExactly("pause b");
            taps.disarm("test");
            assertThat(processes.calls).containsExactly("pause b", "resume b");
            serverGotExactly(8);
        }
    }

    @Test
    void aTriggerThatNeverFiresSaysSoAndWhatPassed() throws Exception {
        taps.arm(trigger(Set.of("Z"), 1, -1, FrameTrigger.Action.CUT, FrameTrigger.Victim.RECEIVER), processes);
        try (Socket s = connect()) {
            s.getOutputStream().write(LineProtocol.ascii("A 1\nB 2\n"));
            serverGotExactly(8);
        }
        assertThat(taps.waiting("test")).isTrue();
        List<TriggerRecord> records = taps.disarm("test");
        assertThat(records).hasSize(1);
        TriggerRecord r = records.get(0);
        assertThat(r.fired()).isFalse();
        assertThat(r.summary()).contains("never fired within the fault window");
        assertThat(r.seen()).containsEntry("A", 2L).containsEntry("B", 2L); // both ways: the echo came back
        assertThat(fired).isEmpty();
        assertThat(taps.waiting("test")).isFalse();
    }

    @Test
    void bytesOutsideTheProtocolStopTheDecodingOfThatStreamNotTheTraffic() throws Exception {
        try (Socket s = connect()) {
            String sent = "A 1\n?garbage\nB 2\n";
            s.getOutputStream().write(LineProtocol.ascii(sent));
            assertThat(read(s, sent.length())).isEqualTo(sent);
        }
        assertThat(taps.decodingErrors()).contains("not a line frame: ?garbage");
        assertThat(taps.counts()).containsEntry("A", 2L).doesNotContainKey("B");
    }

    private static String read(Socket s, int n) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        s.setSoTimeout(5000);
        byte[] buf = new byte[256];
        try {
            while (got.size() < n) {
                int k = in.read(buf);
                if (k < 0) {
                    break;
                }
                got.write(buf, 0, k);
            }
        } catch (SocketTimeoutException e) {
            // return what came
        }
        return got.toString(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
