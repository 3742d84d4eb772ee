package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.LogEntry;
import io.zkchaos.fle.client.NodeStatus;
import io.zkchaos.fle.client.RejectedException;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.local.LocalGroup;
import io.zkchaos.fle.zab.Txn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three real node processes on loopback. */
class NodeProcessIT {

    private static final Duration UP = Duration.ofSeconds(60);
    private static final Duration OP = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private LocalGroup group;

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.close();
        }
    }

    private int awaitStable() {
        Optional<Integer> l = group.awaitStable(UP);
        assertThat(l).as("a stable leader within %s; logs:%n%s", UP, logs()).isPresent();
        return l.get();
    }

    private String logs() {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= group.size(); i++) {
            b.append("---- n").append(i).append('\n').append(group.output(i));
        }
        return b.toString();
    }

    @Test
    void electWriteReadKillTheLeaderAndRestartIt() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        group.startAll();
        int leader = awaitStable();
        int follower = leader == 1 ? 2 : 1;
        try (FleClient f = new FleClient(group.clientAddress(follower), OP);
             FleClient l = new FleClient(group.clientAddress(leader), OP)) {
            long z1 = f.put("k", "a");
            assertThat(f.get("k")).as("a client's own write is visible to its next read").isEqualTo("a");
            long z2 = l.cas("k", "a", "b");
            assertThat(z2).isGreaterThan(z1);
            assertThat(f.syncGet("k")).isEqualTo("b");
            assertThatThrownBy(() -> f.cas("k", "a", "c")).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("cas mismatch");
            assertThat(f.readLog()).extracting(LogEntry::txn).containsExactly(new Txn.Put("k", "a"),
                    new Txn.Cas("k", "a", "b"), new Txn.SyncRead("k"), new Txn.Cas("k", "a", "c"));
        }

        group.kill(leader);
        int next = awaitStable();
        assertThat(next).isNotEqualTo(leader);
        NodeStatus s = group.status(next, OP).orElseThrow();
        assertThat(s.state()).isEqualTo(ServerState.LEADING);
        try (FleClient c = new FleClient(group.clientAddress(next), OP)) {
            assertThat(c.get("k")).as("nothing acknowledged is lost with the leader").isEqualTo("b");
            c.put("k", "d");
        }

        group.start(leader);
        assertThat(awaitStable()).isEqualTo(next);
        try (FleClient old = new FleClient(group.clientAddress(leader), OP);
             FleClient now = new FleClient(group.clientAddress(next), OP)) {
            assertThat(old.get("k")).isEqualTo("d");
            List<LogEntry> log = now.readLog();
            assertThat(old.readLog()).as("the restarted node synced the whole committed log").isEqualTo(log);
            assertThat(log).hasSize(5);
        }
    }

    @Test
    void statusIsAnsweredWhileLookingAndSrvrSpeaksZooKeepersWords() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        group.start(1);
        await().atMost(UP).until(() -> group.status(1, OP).isPresent());
        NodeStatus s = group.status(1, OP).orElseThrow();
        assertThat(s.state()).isEqualTo(ServerState.LOOKING);
        assertThat(s.serving()).isFalse();
        assertThat(srvr(1)).contains("not currently serving").doesNotContain("Mode:").contains("State: LOOKING");
        try (FleClient c = new FleClient(group.clientAddress(1), OP)) {
            assertThatThrownBy(() -> c.put("k", "v")).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("not serving");
        }
        group.start(2);
        group.start(3);
        int leader = awaitStable();
        assertThat(srvr(leader)).contains("Mode: leader").containsPattern("Zxid: 0x[0-9a-f]+");
        assertThat(srvr(leader == 1 ? 2 : 1)).contains("Mode: follower");
    }

    private String srvr(int id) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(group.clientAddress(id), 5_000);
            s.setSoTimeout(5_000);
            s.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            s.getInputStream().transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void aPausedLeaderIsReplacedAndFollowsOnceResumed() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        group.startAll();
        int leader = awaitStable();
        long pid = group.pid(leader);
        try (FleClient c = new FleClient(group.clientAddress(leader), OP)) {
            c.put("k", "before");
        }
        signal("STOP", pid);
        try {
            int other = leader == 1 ? 2 : 1;
            await().atMost(UP).untilAsserted(() -> {
                NodeStatus s = group.status(other, OP).orElseThrow();
                assertThat(s.serving()).isTrue();
                assertThat(s.leader()).isNotEqualTo(leader);
            });
            try (FleClient c = new FleClient(group.clientAddress(other), OP)) {
                c.put("k", "during");
            }
        } finally {
            signal("CONT", pid);
        }
        int next = awaitStable();
        assertThat(next).isNotEqualTo(leader);
        try (FleClient c = new FleClient(group.clientAddress(leader), OP)) {
            assertThat(c.readLog()).extracting(LogEntry::txn)
                    .containsExactly(new Txn.Put("k", "before"), new Txn.Put("k", "during"));
        }
    }

    private static void signal(String sig, long pid) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
        assertThat(p.waitFor()).as("kill -%s %d", sig, pid).isZero();
    }
}
