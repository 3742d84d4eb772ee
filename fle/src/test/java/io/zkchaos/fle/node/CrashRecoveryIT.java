package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.IndeterminateException;
import io.zkchaos.fle.client.LogEntry;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.local.LocalGroup;
import io.zkchaos.fle.zab.Txn;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes {@code SIGKILL}ed at random instants while clients write, and restarted from their data dirs: no acknowledged
 * write is lost, and every node ends with the same committed log.
 */
class CrashRecoveryIT {

    private static final Duration UP = Duration.ofSeconds(60);
    /** Writes acknowledged between two kills, at the least. */
    private static final int ACKS_PER_CYCLE = 8;

    @TempDir
    Path dir;

    private LocalGroup group;

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.close();
        }
    }

    @Test
    void killedAtAnyInstantANodeComesBackWithoutLosingAnAcknowledgedWrite() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        group.startAll();
        assertThat(group.awaitStable(UP)).isPresent();

        Set<String> acked = ConcurrentHashMap.newKeySet();
        Set<String> unknown = ConcurrentHashMap.newKeySet();
        AtomicInteger rejected = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int w = 1; w <= 3; w++) {
            int node = w;
            Thread t = new Thread(() -> {
                try (FleClient c = new FleClient(group.clientAddress(node), Duration.ofSeconds(3))) {
                    for (int i = 0; !stop.get(); i++) {
                        String v = "w" + node + "-" + i;
                        try {
                            c.put("k" + (i % 4), v);
                            acked.add(v);
                        } catch (IndeterminateException e) {
                            unknown.add(v);
                        } catch (FleException e) { // rejected: certainly not done
                            rejected.incrementAndGet();
                            pause(50);
                        }
                    }
                }
            }, "writer-" + w);
            t.start();
            writers.add(t);
        }

        Random random = new Random(11);
        for (int cycle = 0; cycle < 8; cycle++) {
            // Each kill waits for writes acknowledged since the last restart (the group served again): on a loaded
            // machine a fixed pace could kill faster than anything gets through, and the run would test nothing.
            int before = acked.size();
            await("writes acknowledged before kill " + cycle).atMost(UP)
                    .until(() -> acked.size() >= before + ACKS_PER_CYCLE);
            pause(random.nextInt(1_200));
            int victim = cycle % 3 == 0 ? group.stableLeader().orElse(1 + random.nextInt(3)) : 1 + random.nextInt(3);
            group.kill(victim);
            pause(100 + random.nextInt(700));
            group.start(victim);
        }
        pause(1_000);
        stop.set(true);
        for (Thread t : writers) {
            t.join(30_000);
        }
        assertThat(group.awaitStable(UP)).as("stable after the kills").isPresent();

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
        List<LogEntry> log = logs.get(0);
        List<String> values = log.stream().map(e -> ((Txn.Put) e.txn()).value()).toList();
        assertThat(acked).as("enough was acknowledged to mean something")
                .hasSizeGreaterThanOrEqualTo(8 * ACKS_PER_CYCLE);
        assertThat(values).as("every acknowledged write is in every node's committed log").containsAll(acked);
        assertThat(new HashSet<>(values)).as("and nothing twice").hasSize(values.size());
        Set<String> written = new HashSet<>(acked);
        written.addAll(unknown);
        assertThat(written).as("nothing that was never written").containsAll(values);
        for (int i = 1; i < log.size(); i++) {
            assertThat(log.get(i).zxid()).isGreaterThan(log.get(i - 1).zxid());
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
