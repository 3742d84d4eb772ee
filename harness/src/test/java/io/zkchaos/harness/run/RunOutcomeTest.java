package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.workloads.Workloads;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunOutcomeTest {

    @Test
    void theExplanationGivesEveryCheckersVerdictAndWhereTheReportIs() {
        CheckResult result = new CheckResult("fenced-writes", Validity.INVALID, "1 violation", null, List.of(
                CheckResult.of("single-leader", Validity.VALID, "14 leaderships", null),
                CheckResult.of("fenced-writes", Validity.INVALID, "write 7 accepted with token 3 after 4", null)));
        RunOutcome outcome = new RunOutcome(result, new RunDirectory(Path.of("/store/fenced-writes-halves/t1")),
                1902, 24_900, new RunPhases(Map.of()), Map.of());

        assertThat(outcome.explanation("fenced-writes-halves")).isEqualTo("""
                fenced-writes-halves: INVALID (1902 history entries, 24.9 s)
                  single-leader valid: 14 leaderships
                  fenced-writes invalid: write 7 accepted with token 3 after 4
                  report: /store/fenced-writes-halves/t1/index.html
                  run directory: /store/fenced-writes-halves/t1""");
    }

    @Test
    void whatHappenedGoesBetweenTheVerdictsAndThePaths() {
        RunOutcome outcome = new RunOutcome(CheckResult.of("set", Validity.VALID, "no lost commit", null),
                new RunDirectory(Path.of("/store/set-none/t1")), 10, 1_000, new RunPhases(Map.of()), Map.of());
        assertThat(outcome.explanation("set-none", List.of("faults: none"))).isEqualTo("""
                set-none: valid (10 history entries, 1.0 s)
                  set valid: no lost commit
                  faults: none
                  report: /store/set-none/t1/index.html
                  run directory: /store/set-none/t1""");
        // a run directory without its files cannot tell its story, and says so instead of failing the caller
        assertThat(outcome.whatHappened()).singleElement().asString().startsWith("(no account of the run: ");
    }

    @Test
    void theBugCodePathsLineNamesEveryFlagWithItsCount() {
        assertThat(RunOutcome.bugCodePathsLine(Map.of("no-epoch-fencing", 0L, "ack-before-durable", 412L)))
                .isEqualTo("bug code paths ran: ack-before-durable 412, no-epoch-fencing 0");
    }

    @Test
    void theRunnerRefusesADescriptorTheConfigurationDoesNotName() {
        Runner runner = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(1));
        assertThatThrownBy(() -> runner.run(RunConfig.builder().workload("set").build(), Workloads.require("register")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names workload 'set', the descriptor 'register'");
    }
}
