package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.FindingKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bug flags of the project's own nodes that only the servers' own account catches, each in a short run under a
 * general nemesis (kills of any node, the leader cut off, any node paused): a follower that throws on a legal packet
 * order ({@code server:error}), one that exits instead of truncating ({@code server:crash}), a leader that waits for
 * every follower ({@code availability:stall}). The correct build in the same scenarios, five seeds each, is the
 * mutation matrix's ({@code MutationMatrixChaosIT}, {@code -Pchaos}); the false alarms these checkers must not raise
 * on a correct system are {@code ServersAccountIT}'s, on ZooKeeper.
 */
class FleServersAccountIT {

    @TempDir
    Path store;

    private RunOutcome run(List<String> bugs, String nemesis, Duration faultFor, Duration bound)
            throws InterruptedException {
        RunConfig.Builder b = RunConfig.builder().system("fle").bugs(bugs).workload("set").nemesis(nemesis).seed(1)
                .concurrency(3).timeLimit(Duration.ofSeconds(20)).faultFor(faultFor).healFor(Duration.ofSeconds(4))
                .recover(Duration.ofSeconds(5)).out(store);
        if (bound != null) {
            b.availabilityBound(bound);
        }
        return new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(b.build());
    }

    private static CheckResult part(RunOutcome o, String checker) {
        return o.result().parts().stream().filter(p -> p.checker().equals(checker)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + checker + " part in " + o.result().summary()));
    }

    @Test
    void aFollowerThatThrowsOnAnEarlyCommitIsAProgrammingError() throws Exception {
        RunOutcome o = run(List.of("throw-on-early-commit"), "kill-random", Duration.ofSeconds(4), null);
        assertThat(o.bugCodePaths()).as("the flag's code path ran").containsKey("throw-on-early-commit");
        assertThat(FindingKind.of(o.result())).as(part(o, "server").summary()).contains("server:error");
        assertThat(part(o, "server").summary()).contains("java.lang.IllegalStateException at Follower.commit");
    }

    @Test
    void aFollowerThatExitsInsteadOfTruncatingIsACrash() throws Exception {
        RunOutcome o = run(List.of("exit-on-trunc"), "isolate-leader", Duration.ofSeconds(5), null);
        assertThat(FindingKind.of(o.result())).as(part(o, "server").summary()).contains("server:crash");
    }

    @Test
    void aLeaderWaitingForEveryFollowerStallsBehindAPausedOne() throws Exception {
        // a pause longer than the bound: the paused node is not whole, the other two are a whole majority
        RunOutcome flagged = run(List.of("commit-on-all-acks"), "pause-random", Duration.ofSeconds(9),
                Duration.ofSeconds(5));
        assertThat(FindingKind.of(flagged.result())).as(part(flagged, "availability").summary())
                .contains("availability:stall");
        assertThat(part(flagged, "server").validity()).as("its servers' own account is clean: "
                + part(flagged, "server").summary()).isEqualTo(Validity.VALID);
    }
}
