package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.harness.cluster.lazyfs.LazyFs;
import io.zkchaos.harness.cluster.lazyfs.Mounts;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.Prerequisites;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proof that {@code kill-all-lose-unfsynced} is a real fault: the same seeded run — a set workload, the whole
 * ensemble crashed twice, dropping every write none of its servers had fsynced, its data directories on the lazy file
 * system — loses nothing acknowledged when ZooKeeper fsyncs its log before acknowledging ({@code forceSync=yes}, its
 * default), and loses acknowledged adds when it does not ({@code forceSync=no}). Skipped, loudly, without FUSE.
 */
class LostUnsyncedWritesChaosIT {

    @TempDir
    Path store;

    @RegisterExtension
    static final ExecutionCondition LAZY_FS = Prerequisites.forClass("the lazy file system", LazyFs::unavailable);

    private RunOutcome run(boolean forceSync) throws Exception {
        RunOutcome outcome = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(
                RunConfig.builder().workload("set").nemesis("kill-all-lose-unfsynced").seed(1).concurrency(4)
                        .lazyfs(true).forceSync(forceSync).timeLimit(Duration.ofSeconds(15))
                        .faultFor(Duration.ofSeconds(3)).healFor(Duration.ofSeconds(5))
                        .recover(Duration.ofSeconds(5)).out(store.resolve(forceSync ? "yes" : "no")).build());
        History h = HistoryFiles.read(outcome.directory().historyFile());
        // the fault really acted, on every node, after adds had been acknowledged
        Op crash = h.nemesisOps().stream().filter(o -> o.f().equals("kill-all-lose-unfsynced")
                && o.type().isCompletion()).findFirst().orElseThrow();
        assertThat(crash.value().toString()).contains("nodes=[n1, n2, n3]");
        assertThat(h.operations()).filteredOn(o -> o.f().equals("add") && o.isOk()
                && o.completeTime() < crash.time()).isNotEmpty();
        assertThat(Mounts.lazyFsMounts()).noneMatch(m -> m.startsWith(store));
        LeftOvers.assertNoServerOf(outcome.directory().path());
        return outcome;
    }

    private static CheckResult part(RunOutcome o, String checker) {
        return o.result().parts().stream().filter(p -> p.checker().equals(checker)).findFirst().orElseThrow();
    }

    @Test
    void withForceSyncNothingAcknowledgedIsLost() throws Exception {
        RunOutcome o = run(true);
        CheckResult noLostCommit = part(o, "no-lost-commit");
        assertThat(noLostCommit.validity()).as(noLostCommit.summary()).isEqualTo(Validity.VALID);
        assertThat(part(o, "final-state").validity()).as(part(o, "final-state").summary())
                .isEqualTo(Validity.VALID);
    }

    @Test
    void withoutForceSyncAcknowledgedAddsAreLost() throws Exception {
        RunOutcome o = run(false);
        CheckResult noLostCommit = part(o, "no-lost-commit");
        assertThat(noLostCommit.validity()).as(noLostCommit.summary()).isEqualTo(Validity.INVALID);
        assertThat(noLostCommit.summary()).contains("acknowledged add(s) lost");
        History h = HistoryFiles.read(o.directory().historyFile());
        assertThat(h.operations()).filteredOn(o2 -> o2.f().equals("read") && o2.isOk()).extracting(
                Operation::process).hasSize(3); // the servers came back and were read: the adds are really gone
    }
}
