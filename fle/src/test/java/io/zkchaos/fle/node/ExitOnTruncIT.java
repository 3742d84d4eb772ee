package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.client.NodeStatus;
import io.zkchaos.fle.local.LocalGroup;
import io.zkchaos.fle.net.TcpRelay;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code exit-on-trunc} with real processes, every peer link through a relay that can be cut: the leader is isolated
 * while a client writes to it, so it logs proposals no follower has; the others elect a new leader; at the heal the
 * old leader is told to TRUNC. The correct node truncates and serves; the buggy one ends its process with exit code 5.
 * (A round in which no write reached the isolated leader has nothing to truncate; the test isolates again, at most
 * {@value #ROUNDS} times.)
 */
class ExitOnTruncIT {

    private static final Duration UP = Duration.ofSeconds(60);
    /** How long a round waits for the majority to elect another leader once the leader is cut off. */
    private static final Duration ELECTS = Duration.ofSeconds(30);
    /**
     * Rounds of isolating the leader until one leaves it a proposal to truncate: it must take a write after the cut
     * and before it steps down, which a loaded machine's writer misses now and then (3 rounds failed once in a CI
     * rehearsal at load 4).
     */
    private static final int ROUNDS = 8;

    @TempDir
    Path dir;

    private LocalGroup group;
    private final List<TcpRelay> relays = new ArrayList<>();
    private final Map<String, List<TcpRelay>> links = new HashMap<>();

    @AfterEach
    void tearDown() throws Exception {
        if (group != null) {
            group.close();
        }
        for (TcpRelay r : relays) {
            r.close();
        }
    }

    private void layOut(Bugs bugs) throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, bugs);
        for (int from = 1; from <= 3; from++) {
            for (int to = 1; to <= 3; to++) {
                if (from != to) {
                    TcpRelay q = new TcpRelay(new InetSocketAddress("127.0.0.1", group.quorumPort(to)));
                    TcpRelay e = new TcpRelay(new InetSocketAddress("127.0.0.1", group.electionPort(to)));
                    relays.add(q);
                    relays.add(e);
                    links.put(from + ">" + to, List.of(q, e));
                    group.route(from, to, "127.0.0.1", q.address().getPort(), e.address().getPort());
                }
            }
        }
        group.startAll();
    }

    private void isolate(int node, boolean cut) {
        for (int other = 1; other <= 3; other++) {
            if (other != node) {
                for (String key : List.of(node + ">" + other, other + ">" + node)) {
                    links.get(key).forEach(cut ? TcpRelay::block : TcpRelay::unblock);
                }
            }
        }
    }

    /** Every node's status and the end of its log, for a failure's message. */
    private String explain() {
        StringBuilder b = new StringBuilder();
        for (int id = 1; id <= 3; id++) {
            List<String> lines = group.output(id).lines().toList();
            b.append("n").append(id).append(": ").append(status(id)).append(", last lines:\n  ")
                    .append(String.join("\n  ", lines.subList(Math.max(0, lines.size() - 25), lines.size())))
                    .append('\n');
        }
        return b.toString();
    }

    private Optional<NodeStatus> status(int id) {
        return group.status(id, Duration.ofSeconds(2));
    }

    /** Isolates the leader under writes until it is told to TRUNC at the heal; returns the old leader's id. */
    private int isolateTheLeaderUnderWritesUntilATrunc() throws Exception {
        String unelected = null;
        for (int round = 1; round <= ROUNDS; round++) {
            int leader = group.awaitStable(UP).orElseThrow();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                try (FleClient c = new FleClient(group.clientAddress(leader), Duration.ofSeconds(2))) {
                    for (int i = 0; !stop.get(); i++) {
                        try {
                            c.put("k", "r" + leader + "-" + i);
                        } catch (FleException e) {
                            // indeterminate once isolated, rejected once it stepped down: write on
                        }
                    }
                }
            }, "writer");
            writer.start();
            try {
                await().atMost(UP).until(() -> status(leader).map(NodeStatus::lastZxid).orElse(0L) > 0);
                isolate(leader, true);
                int other = leader == 1 ? 2 : 1;
                try {
                    await("the majority elects another leader").atMost(ELECTS).until(() -> status(other)
                            .filter(s -> s.serving() && s.leader() != leader).isPresent()
                            && status(leader).filter(NodeStatus::serving).isEmpty());
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    // seen in two CI rehearsals at load 4-5, never alone: say what the nodes were doing, and try
                    // another round (the majority's liveness is PartitionIT's to judge, not this test's)
                    unelected = "round " + round + ": " + e.getMessage() + "\n" + explain();
                    System.err.println(unelected);
                    isolate(leader, false);
                    continue;
                }
            } finally {
                stop.set(true);
                writer.join(30_000);
            }
            String before = group.output(leader);
            isolate(leader, false);
            String sync = "sync with leader n";
            await("n" + leader + " syncs after the heal").atMost(UP).until(() -> group.exitCode(leader).isPresent()
                    || group.output(leader).substring(before.length()).lines()
                    .anyMatch(l -> l.contains(sync) && (l.contains(": DIFF") || l.contains(": TRUNC")
                            || l.contains(": SNAP"))));
            if (group.output(leader).substring(before.length()).lines()
                    .anyMatch(l -> l.contains(sync) && l.contains(": TRUNC"))) {
                return leader;
            }
        }
        throw new AssertionError("no round of " + ROUNDS + " left the isolated leader with a proposal to truncate"
                + (unelected == null ? "" : "; the last whose majority elected no other leader: " + unelected));
    }

    @Test
    void correctlyTheOldLeaderTruncatesAndServes() throws Exception {
        layOut(Bugs.NONE);
        int old = isolateTheLeaderUnderWritesUntilATrunc();
        assertThat(group.awaitStable(UP)).isPresent();
        assertThat(status(old)).hasValueSatisfying(s -> assertThat(s.serving()).isTrue());
        assertThat(group.exitCode(old)).isEmpty();
        // The node's own account, in the exact lines the log checkers of issue 34 read (docs/fle-design.md).
        List<String> lines = group.output(old).lines().toList();
        List<String> expected = List.of(" - peer state LOOKING \\(epoch \\d+\\)",
                " - peer state LEADING \\(epoch \\d+\\)", " - peer state FOLLOWING leader n\\d+ \\(epoch \\d+\\)",
                " - sync with leader n\\d+: TRUNC to zxid .*", " - serving as follower of n\\d+ in epoch \\d+");
        for (String line : expected) {
            assertThat(lines).as("n%d logs a line ending in '%s'", old, line).anyMatch(l -> l.matches(".*" + line));
        }
    }

    @Test
    void theBuggyOldLeaderEndsItsProcessWithCode5() throws Exception {
        layOut(Bugs.of(Bug.EXIT_ON_TRUNC));
        int old = isolateTheLeaderUnderWritesUntilATrunc();
        await("n" + old + " ends").atMost(UP).until(() -> group.exitCode(old).isPresent());
        assertThat(group.exitCode(old)).contains(5);
        assertThat(group.output(old)).contains("cannot truncate my log to", "exiting with code 5");
        assertThat(group.awaitStable(UP)).as("the other two serve on").isPresent();
    }
}
