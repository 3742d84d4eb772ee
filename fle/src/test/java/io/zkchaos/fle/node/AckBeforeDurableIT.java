package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.LogEntry;
import io.zkchaos.fle.local.LocalGroup;
import io.zkchaos.fle.zab.Txn;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ack-before-durable} with real processes: a write is acknowledged, then every node is {@code SIGKILL}ed at
 * once and restarted. A killed process's writes survive in the page cache, so the correct build keeps the write; the
 * buggy one never wrote it, and loses it.
 */
class AckBeforeDurableIT {

    private static final Duration UP = Duration.ofSeconds(60);
    private static final Duration OP = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private LocalGroup group;
    /** The leader's bug path counts once the write is acknowledged, and the new leader's after the restart. */
    private Map<Bug, Long> countedBefore;
    private Map<Bug, Long> countedAfter;

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.close();
        }
    }

    private List<LogEntry> ackThenKillEveryone(Bugs bugs) throws Exception {
        // A long hold makes the window certain on a loaded machine: the kill comes well within it.
        group = LocalGroup.create(dir, 3, Timing.DEFAULT.withAckBeforeDurableDelayMs(30_000), bugs);
        group.startAll();
        Optional<Integer> leader = group.awaitStable(UP);
        assertThat(leader).isPresent();
        try (FleClient c = new FleClient(group.clientAddress(leader.get()), OP)) {
            c.put("k", "acked");
            countedBefore = c.status().bugPaths();
        }
        for (int i = 1; i <= 3; i++) {
            group.kill(i);
        }
        group.startAll();
        Optional<Integer> next = group.awaitStable(UP);
        assertThat(next).isPresent();
        try (FleClient c = new FleClient(group.clientAddress(next.get()), OP)) {
            countedAfter = c.status().bugPaths();
            return c.readLog();
        }
    }

    @Test
    void correctlyTheAcknowledgedWriteSurvives() throws Exception {
        assertThat(ackThenKillEveryone(Bugs.NONE)).extracting(LogEntry::txn)
                .containsExactly(new Txn.Put("k", "acked"));
        assertThat(countedBefore).isEmpty();
    }

    @Test
    void ackingBeforeTheWriteLosesIt() throws Exception {
        assertThat(ackThenKillEveryone(Bugs.of(Bug.ACK_BEFORE_DURABLE))).isEmpty();
        assertThat(countedBefore).as("the leader ACKed the write before writing it").containsEntry(
                Bug.ACK_BEFORE_DURABLE, 1L);
        assertThat(countedAfter).as("a new process counts from 0; nothing was written since")
                .containsEntry(Bug.ACK_BEFORE_DURABLE, 0L);
    }
}
