package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.client.IndeterminateException;
import io.zkchaos.fle.client.LogEntry;
import io.zkchaos.fle.client.NodeStatus;
import io.zkchaos.fle.local.LocalGroup;
import io.zkchaos.fle.net.TcpRelay;
import io.zkchaos.fle.zab.Txn;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three node processes whose every peer link (quorum and election, each direction) goes through a relay that can be
 * cut, as the harness's fault proxy does: a node is isolated, the others go on, the link heals, the node rejoins — with
 * clients writing throughout, and no acknowledged write lost.
 */
class PartitionIT {

    private static final Duration UP = Duration.ofSeconds(60);
    /** Writes acknowledged before each round's partition, at the least. */
    private static final int ACKS_PER_ROUND = 20;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private LocalGroup group;
    private final List<TcpRelay> relays = new ArrayList<>();
    /** The relays of the links from i to j: key "i>j". */
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

    private void isolate(int node, boolean cut) {
        for (int other = 1; other <= 3; other++) {
            if (other == node) {
                continue;
            }
            for (String key : List.of(node + ">" + other, other + ">" + node)) {
                for (TcpRelay r : links.get(key)) {
                    if (cut) {
                        r.block();
                    } else {
                        r.unblock();
                    }
                }
            }
        }
    }

    private NodeStatus status(int id) {
        return group.status(id, Duration.ofSeconds(2)).orElseThrow();
    }

    @Test
    void anIsolatedNodeLosesItsRoleAndRejoinsAfterTheHealWithoutLosingAnAcknowledgedWrite() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        for (int from = 1; from <= 3; from++) {
            for (int to = 1; to <= 3; to++) {
                if (from == to) {
                    continue;
                }
                TcpRelay q = new TcpRelay(new InetSocketAddress("127.0.0.1", group.quorumPort(to)));
                TcpRelay e = new TcpRelay(new InetSocketAddress("127.0.0.1", group.electionPort(to)));
                relays.add(q);
                relays.add(e);
                links.put(from + ">" + to, List.of(q, e));
                group.route(from, to, "127.0.0.1", q.address().getPort(), e.address().getPort());
            }
        }
        group.startAll();
        assertThat(group.awaitStable(UP)).isPresent();

        Set<String> acked = ConcurrentHashMap.newKeySet();
        Set<String> unknown = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int w = 1; w <= 3; w++) {
            int node = w;
            Thread t = new Thread(() -> {
                try (FleClient c = new FleClient(group.clientAddress(node), Duration.ofSeconds(3))) {
                    for (int i = 0; !stop.get(); i++) {
                        String v = "w" + node + "-" + i;
                        try {
                            c.put("k" + (i % 3), v);
                            acked.add(v);
                        } catch (IndeterminateException e) {
                            unknown.add(v);
                        } catch (FleException e) {
                            sleep(50); // rejected: this node does not serve now
                        }
                    }
                }
            }, "writer-" + w);
            t.start();
            writers.add(t);
        }

        for (int round = 0; round < 3; round++) {
            // Each round waits for writes acknowledged since the last heal: a loaded machine must not make the run
            // partition faster than anything gets through.
            int before = acked.size();
            await("writes acknowledged before round " + round).atMost(UP)
                    .until(() -> acked.size() >= before + ACKS_PER_ROUND);
            int leader = group.stableLeader().orElseGet(() -> group.awaitStable(UP).orElseThrow());
            // Isolate the leader in rounds 0 and 2, a follower in round 1.
            int victim = round == 1 ? (leader == 1 ? 2 : 1) : leader;
            isolate(victim, true);
            if (victim == leader) {
                awaitOrDescribe("round " + round + ", the leader n" + victim + " isolated", () -> {
                    assertThat(status(victim).serving()).as("the isolated leader stepped down").isFalse();
                    int others = victim == 1 ? 2 : 1;
                    NodeStatus s = status(others);
                    assertThat(s.serving()).as("n%d serves: the majority has a leader", others).isTrue();
                    assertThat(s.leader()).as("the majority elected another leader").isNotEqualTo(victim);
                });
            } else {
                await().atMost(UP).until(() -> !status(victim).serving());
                assertThat(status(leader).serving()).as("the leader keeps its quorum").isTrue();
            }
            sleep(1_000);
            isolate(victim, false);
            Optional<Integer> l = group.awaitStable(UP);
            assertThat(l).as("stable after the heal of round %d", round).isPresent();
        }
        sleep(500);
        stop.set(true);
        for (Thread t : writers) {
            t.join(30_000);
        }

        List<List<LogEntry>> logs = new ArrayList<>();
        await().atMost(UP).untilAsserted(() -> {
            logs.clear();
            for (int i = 1; i <= 3; i++) {
                try (FleClient c = new FleClient(group.clientAddress(i), Duration.ofSeconds(5))) {
                    logs.add(c.readLog());
                }
            }
            assertThat(logs.get(1)).isEqualTo(logs.get(0));
            assertThat(logs.get(2)).isEqualTo(logs.get(0));
        });
        List<String> values = logs.get(0).stream().map(e -> ((Txn.Put) e.txn()).value()).toList();
        assertThat(acked).hasSizeGreaterThanOrEqualTo(3 * ACKS_PER_ROUND);
        assertThat(values).containsAll(acked);
        assertThat(new HashSet<>(values)).hasSize(values.size());
        Set<String> written = new HashSet<>(acked);
        written.addAll(unknown);
        assertThat(written).containsAll(values);
    }

    /** Awaits an assertion; on a timeout, fails with what every node was doing and the end of each log. */
    private void awaitOrDescribe(String context, ThrowingRunnable assertion) {
        try {
            await().atMost(UP).untilAsserted(assertion);
        } catch (ConditionTimeoutException e) {
            StringBuilder b = new StringBuilder(context + ": " + e.getMessage() + "\n");
            for (int i = 1; i <= 3; i++) {
                b.append("  ").append(group.status(i, Duration.ofSeconds(2)).map(Object::toString)
                        .orElse("n" + i + " does not answer")).append('\n');
            }
            for (int i = 1; i <= 3; i++) {
                List<String> lines = group.output(i).lines().toList();
                b.append("--- n").append(i).append(", the last lines of its log:\n");
                lines.subList(Math.max(0, lines.size() - 40), lines.size())
                        .forEach(l -> b.append("  ").append(l).append('\n'));
            }
            throw new AssertionError(b.toString(), e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
