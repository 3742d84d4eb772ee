package io.zkchaos.harness.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.multi.MultiReport;
import io.zkchaos.checkers.sequential.SequentialReport;
import io.zkchaos.checkers.sessions.SessionsReport;
import io.zkchaos.harness.run.LeftOvers;
import io.zkchaos.harness.run.PrefixedLines;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.ZnodeWorkloads;
import io.zkchaos.workloads.multi.MultiWorkload;
import io.zkchaos.workloads.sequential.SequentialWorkload;
import io.zkchaos.workloads.sessions.SessionsWorkload;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each znode workload with a deliberately broken client, run end to end like any scenario (a real ensemble, the run
 * directory, the report) and caught INVALID by its checker with an explanation that names the operations: a session
 * handle that reconnects silently after its session was closed under it, a sequential client that reports names it
 * made up, a multi split into separate calls. In the chaos profile ({@code mvn -Pchaos verify
 * -Dit.test=BrokenZnodeClientsChaosIT}), on every release of {@code zkchaos.chaos.versions}; the runs are kept in the
 * suite's store with their reports.
 */
class BrokenZnodeClientsChaosIT {

    private static final ChaosSuite SUITE = ChaosSuite.fromSystemProperties();

    /** A broken client: the workload it breaks, how, the rule its checker must find broken. */
    record Broken(WorkloadDescriptor workload, String name, UnaryOperator<Object> breaks, String checker,
                  String rule, String version) {
        @Override
        public String toString() {
            return version + ": " + name;
        }

        WorkloadDescriptor descriptor() {
            WorkloadDescriptor w = workload;
            return new WorkloadDescriptor(name, "a deliberately broken client of " + w.name(),
                    o -> (io.zkchaos.workloads.Workload) breaks.apply(w.create(o)), w.checkers(), false, w.minimum(),
                    w.underFault());
        }
    }

    static Stream<Broken> broken() {
        return SUITE.versions().stream().flatMap(v -> Stream.of(
                new Broken(ZnodeWorkloads.SESSIONS, "sessions-silent-reconnect",
                        w -> ((SessionsWorkload) w).silentlyReconnecting(), "session-guarantees", "after-end", v),
                new Broken(ZnodeWorkloads.SEQUENTIAL, "sequential-made-up-names",
                        w -> ((SequentialWorkload) w).withMadeUpNames(), "sequential-znodes", "unique-name", v),
                new Broken(ZnodeWorkloads.MULTI, "multi-split", w -> ((MultiWorkload) w).split(), "multi-txn", null,
                        v)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void isCaught(Broken b) throws Exception {
        RunConfig config = RunConfig.builder().customWorkload(b.name()).zookeeper(b.version()).nemesis("none")
                .concurrency(5).rate(0).timeLimit(Duration.ofSeconds(10)).recover(Duration.ofSeconds(3))
                .seed(SUITE.seed()).out(SUITE.store()).build();
        PrintWriter progress = new PrintWriter(new PrefixedLines("[" + b + "] ",
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8)), true);
        RunOutcome outcome = new Runner(progress, Duration.ofSeconds(5)).run(config, b.descriptor());
        String explanation = outcome.explanation(b.toString(), outcome.whatHappened());
        progress.println(explanation);
        CheckResult part = outcome.result().parts().stream().filter(p -> p.checker().equals(b.checker()))
                .findFirst().orElseThrow();
        assertThat(part.validity()).as(explanation).isEqualTo(Validity.INVALID);
        assertThat(part.summary()).as("the explanation names the operations").containsPattern("process \\d+");
        if (b.rule() != null) {
            assertThat(violationsByRule(part)).as("%s broken in: %s", b.rule(), explanation).containsKey(b.rule());
        }
        assertThat(outcome.directory().path().resolve("index.html")).exists();
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }

    /** How many violations of each rule the checker's findings count. */
    private static Map<String, Integer> violationsByRule(CheckResult part) {
        if (part.details() instanceof SessionsReport s) {
            return s.violationsByRule();
        }
        if (part.details() instanceof SequentialReport s) {
            return s.violationsByRule();
        }
        if (part.details() instanceof MultiReport m) {
            return m.violationsByRule();
        }
        throw new AssertionError("not a znode checker's findings: " + part.details());
    }
}
