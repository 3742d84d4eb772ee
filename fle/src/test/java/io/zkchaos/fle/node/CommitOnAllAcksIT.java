package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.IndeterminateException;
import io.zkchaos.fle.local.LocalGroup;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code commit-on-all-acks} with real processes: one follower is {@code SIGSTOP}ped (its connections stay open); the
 * correct leader goes on committing with the other follower, the buggy one acknowledges nothing until the paused
 * follower is {@code SIGCONT}inued.
 */
class CommitOnAllAcksIT {

    private static final Duration UP = Duration.ofSeconds(60);
    /** A write not acknowledged within this while a majority is up is stalled (a healthy one takes milliseconds). */
    private static final Duration BOUND = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    private LocalGroup group;
    private int paused = -1;

    @AfterEach
    void tearDown() {
        if (group != null) {
            if (paused > 0 && group.pid(paused) > 0) {
                group.resume(paused);
            }
            group.close();
        }
    }

    private int pauseAFollower(Bugs bugs) throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, bugs);
        group.startAll();
        int leader = group.awaitStable(UP).orElseThrow();
        try (FleClient c = new FleClient(group.clientAddress(leader), BOUND)) {
            c.put("k", "before"); // everyone up: acknowledged by either build
        }
        paused = leader == 1 ? 2 : 1;
        group.pause(paused);
        return leader;
    }

    @Test
    void correctlyWritesGoOnWhileOneFollowerIsPaused() throws Exception {
        int leader = pauseAFollower(Bugs.NONE);
        try (FleClient c = new FleClient(group.clientAddress(leader), BOUND)) {
            for (int i = 0; i < 20; i++) {
                c.put("k", "during-" + i);
            }
            assertThat(c.status().bugPaths()).isEmpty();
        }
    }

    @Test
    void waitingForEveryFollowerStallsWritesUntilThePausedOneResumes() throws Exception {
        int leader = pauseAFollower(Bugs.of(Bug.COMMIT_ON_ALL_ACKS));
        try (FleClient c = new FleClient(group.clientAddress(leader), BOUND)) {
            assertThatThrownBy(() -> c.put("k", "during")).as("not acknowledged within %s", BOUND)
                    .isInstanceOf(IndeterminateException.class);
        }
        try (FleClient c = new FleClient(group.clientAddress(leader), BOUND)) {
            assertThat(c.status().bugPaths().get(Bug.COMMIT_ON_ALL_ACKS)).as("held past its quorum").isPositive();
        }
        group.resume(paused);
        paused = -1;
        await("writes acknowledged again after SIGCONT").atMost(UP).ignoreExceptions().untilAsserted(() -> {
            int l = group.awaitStable(UP).orElseThrow();
            try (FleClient c = new FleClient(group.clientAddress(l), BOUND)) {
                c.put("k", "after");
            }
        });
    }
}
