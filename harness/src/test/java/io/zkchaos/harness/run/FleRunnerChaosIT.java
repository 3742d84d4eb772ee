package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.harness.run.config.RunConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs against the project's own fle nodes ({@code --system fle}), bugs off: each workload under a fault
 * through the proxy is valid by every checker its descriptor names, and the run leaves no node process behind. In
 * {@code -Pchaos} (the nightly): {@code mvn verify} keeps the fle nodes' own ITs and {@code FleClusterIT}.
 */
class FleRunnerChaosIT {

    @TempDir
    Path store;

    private RunOutcome run(RunConfig.Builder b) throws InterruptedException {
        StringWriter progress = new StringWriter();
        RunOutcome outcome = new Runner(new PrintWriter(progress), Duration.ofSeconds(2))
                .run(b.system("fle").out(store).concurrency(4).timeLimit(Duration.ofSeconds(12))
                        .faultFor(Duration.ofSeconds(3)).healFor(Duration.ofSeconds(3))
                        // judged after the final heal too: clients and the observer work on past the bound
                        .recover(Duration.ofSeconds(12)).failoverBound(Duration.ofSeconds(10)).build());
        assertThat(progress.toString()).contains("fle nodes (bugs: none)").contains("the final heal took");
        return outcome;
    }

    private static void assertEveryCheckerSaysValid(RunOutcome outcome) {
        assertThat(outcome.result().parts()).extracting(CheckResult::validity)
                .as(outcome.result().summary()).containsOnly(Validity.VALID);
    }

    @Test
    void aSetRunUnderLeaderKillsLosesNothingAndKeepsOneLeaderPerEpoch() throws Exception {
        RunOutcome outcome = run(RunConfig.builder().workload("set").nemesis("kill-leader").seed(11));
        assertEveryCheckerSaysValid(outcome);
        assertThat(outcome.result().parts()).extracting(CheckResult::checker)
                .containsExactly("no-lost-commit", "log-prefix", "single-leader", "recovery", "evidence");
        History h = HistoryFiles.read(outcome.directory().historyFile());
        assertThat(h.nemesisOps()).extracting(Op::f).contains("kill-leader", "heal");
        assertThat(h.operations()).filteredOn(o -> o.f().equals("read") && o.isOk()).hasSize(3);
        assertThat(h.operations()).filteredOn(o -> o.f().equals("read-log") && o.isOk()).hasSizeGreaterThanOrEqualTo(3);
        // every kill of a leader is seen: the killed leader releases, a new one acquires a newer epoch
        assertThat(h.ops()).filteredOn(o -> o.f().equals("release") && o.type() == OpType.INVOKE)
                .extracting(o -> o.value().toString()).anyMatch(v -> v.contains("reason=down"));
        assertThat(h.ops()).filteredOn(o -> o.f().equals("acquire") && o.type() == OpType.OK).hasSizeGreaterThan(1);
        assertThat(Files.readString(outcome.directory().path().resolve("nodes/run.properties")))
                .contains("system=fle nodes (bugs: none)");
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }

    @Test
    void aRegisterRunUnderLeaderIsolationIsLinearizableWhereItMustBe() throws Exception {
        RunOutcome outcome = run(RunConfig.builder().workload("register").nemesis("isolate-leader").seed(12));
        assertEveryCheckerSaysValid(outcome);
        History h = HistoryFiles.read(outcome.directory().historyFile());
        assertThat(h.operations()).extracting(o -> o.f()).contains("read", "write", "cas", "read-log", "acquire");
        assertThat(h.nemesisOps()).extracting(Op::f).contains("isolate-leader");
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }
}
