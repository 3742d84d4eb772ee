package io.zkchaos.fle.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.NodeStatus;
import io.zkchaos.fle.sim.SimCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node's bug path counts as its status reports them: {@code srvr}'s line and the client library's status call, over
 * a real client port serving a simulated server.
 */
class BugPathsStatusTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    /** The leader of a stable group that has applied one put. */
    private static SimCluster oneWrite(Bugs bugs) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        c.startAll();
        c.put(c.awaitStable(LIMIT), "k", "v", LIMIT);
        return c;
    }

    private static String srvr(InetSocketAddress at) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(at, 5_000);
            s.setSoTimeout(5_000);
            s.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            s.getInputStream().transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    private record Answers(String srvr, NodeStatus status) {
    }

    private static Answers ask(SimCluster c) throws Exception {
        long leader = c.servingLeader().orElseThrow();
        try (ServerSocket socket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
             ClientServer server = new ClientServer(socket, c.peer(leader), c.clock().lane("clients"))) {
            server.start();
            InetSocketAddress at = new InetSocketAddress(socket.getInetAddress(), socket.getLocalPort());
            try (FleClient client = new FleClient(at, Duration.ofSeconds(5))) {
                return new Answers(srvr(at), client.status());
            }
        }
    }

    @Test
    void aSwitchedOnFlagIsReportedWithHowOftenItsPathRan() throws Exception {
        Answers a = ask(oneWrite(Bugs.of(Bug.ACK_BEFORE_DURABLE, Bug.NO_FINALIZE_WAIT)));
        // The leader ACKed its one proposal before writing it; no decision of its was one a late vote would change.
        assertThat(a.srvr()).contains("\n" + BugPaths.SRVR_LINE + " ack-before-durable 1, no-finalize-wait 0\n");
        assertThat(a.status().bugPaths()).containsOnly(entry(Bug.ACK_BEFORE_DURABLE, 1L),
                entry(Bug.NO_FINALIZE_WAIT, 0L));
        assertThat(a.status().toString()).endsWith("; bug code paths: ack-before-durable 1, no-finalize-wait 0");
    }

    @Test
    void theCorrectBuildReportsNoLine() throws Exception {
        Answers a = ask(oneWrite(Bugs.NONE));
        assertThat(a.srvr()).contains("Serving: true").doesNotContain(BugPaths.SRVR_LINE);
        assertThat(a.status().bugPaths()).isEmpty();
    }

    @Test
    void aPathOfAFlagThatIsOffCannotBeCounted() {
        BugPaths paths = new BugPaths(Bugs.of(Bug.COMMIT_BEFORE_QUORUM));
        paths.ran(Bug.COMMIT_BEFORE_QUORUM);
        assertThat(paths.counts()).containsOnly(entry(Bug.COMMIT_BEFORE_QUORUM, 1L));
        assertThatThrownBy(() -> paths.ran(Bug.ACK_BEFORE_DURABLE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ack-before-durable").hasMessageContaining("off");
        assertThat(new BugPaths(Bugs.NONE).counts()).isEmpty();
    }
}
