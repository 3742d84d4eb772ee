package io.zkchaos.harness.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.cluster.lazyfs.LazyFs;
import io.zkchaos.harness.run.LeftOvers;
import io.zkchaos.harness.run.PrefixedLines;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.results.report.SuiteIndex;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chaos suite ({@code mvn -Pchaos verify}): every workload under every nemesis against a real ensemble, each run
 * kept under {@code harness/target/chaos-store/}. The client faults run with clients in processes of their own,
 * for the workloads whose clients can be processes; {@code unfenced-writes} is left out (it shows what goes wrong
 * without fencing, ClientPauseChaosIT). ZooKeeper keeps its promises, so every scenario must come out
 * valid; an invalid one is a finding, its failure message the checkers' explanation and the report's path.
 *
 * <p>Its parameters are {@link ChaosSuite}'s (system properties). Scenarios run {@code zkchaos.chaos.lanes} at a
 * time (2 by default), each on a fresh ensemble of its own: a scenario spends most of its time waiting (faults held,
 * heals, the recovery after the final heal), not computing, so two overlap without slowing each other on two cores;
 * and nothing is shared between them but the machine. Each test case is named after its scenario (system, version,
 * workload, nemesis) in failsafe's JUnit XML. Every scenario's verdict, wall time and phases go to the suite's ledger
 * ({@link SuiteLedger}, {@code ./zkchaos bench suite}); at the end the suite index
 * {@code target/chaos-store/index.html} lists every scenario of this run with a link to its report.
 *
 * <p>On several machines, each runs a share ({@code -Dzkchaos.chaos.shard=K/N}, balanced by expected time) into its
 * own store; {@code ./zkchaos report --merge OUT STORE...} renders one index over them all.
 */
@Tag("chaos-matrix") // sharded over machines in CI; -DexcludedGroups=chaos-matrix runs the rest
@Execution(ExecutionMode.CONCURRENT)
class ScenarioMatrixChaosIT {

    private static final ChaosSuite SUITE = ChaosSuite.fromSystemProperties();
    /** At most this many scenarios at once, whatever JUnit's thread pool does. */
    private static final Semaphore LANES = new Semaphore(SUITE.lanes(), true);
    /** Runs created from here on belong to this run of the suite (the store keeps older ones). */
    private static final Instant SUITE_START = Instant.now().minusSeconds(1);
    private static final String SUITE_ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC).format(SUITE_START);

    @AfterAll
    static void writeSuiteIndex() throws IOException {
        List<RunDirectory> runs = new ArrayList<>();
        for (RunDirectory run : RunStore.find(SUITE.store())) {
            if (Files.getLastModifiedTime(run.historyFile()).toInstant().isAfter(SUITE_START)) {
                runs.add(run);
            }
        }
        Path index = SuiteIndex.write(SUITE.store().resolve(RunDirectory.REPORT), "chaos suite", runs);
        System.out.println();
        System.out.println("Chaos suite" + (SUITE.shard().isAll() ? "" : ", shard " + SUITE.shard() + " ("
                + SUITE.share().size() + " of the matrix's " + SUITE.scenarios().size() + " scenarios)") + ": "
                + runs.size() + " scenario(s); index of their reports: " + index.toAbsolutePath().toUri());
        System.out.println("Its ledger: " + SuiteLedger.file(SUITE.store(), SUITE_ID).toAbsolutePath()
                + " (./zkchaos bench suite " + SUITE.store().toAbsolutePath() + ")");
    }

    /** This run's share of the matrix: all of it unless {@code zkchaos.chaos.shard} names one. */
    static Stream<ChaosSuite.Scenario> scenarios() {
        return SUITE.share().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void keepsItsPromises(ChaosSuite.Scenario scenario) throws Exception {
        if (io.zkchaos.nemesis.Nemeses.require(scenario.nemesis()).requiresLazyFs()) { // on the lazy file system
            Prerequisites.require("the lazy file system", LazyFs.unavailable());
        }
        RunConfig config = SUITE.config(scenario);
        PrintWriter progress = new PrintWriter(new PrefixedLines("[" + config.scenario() + "] ",
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8)), true);
        RunOutcome outcome;
        LANES.acquire();
        long start = System.currentTimeMillis();
        try {
            outcome = new Runner(progress, Duration.ofSeconds(5)).run(config);
        } catch (RuntimeException e) {
            ledger(scenario, "error", start, null, String.valueOf(e.getMessage()));
            throw e;
        } finally {
            LANES.release();
        }
        ledger(scenario, outcome.result().validity().name().toLowerCase(Locale.ROOT), start, outcome,
                outcome.result().summary());
        String explanation = outcome.explanation(scenario.toString(), outcome.whatHappened());
        progress.println(explanation);
        assertThat(outcome.result().validity()).as(explanation).isEqualTo(Validity.VALID);
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }

    private static void ledger(ChaosSuite.Scenario s, String verdict, long start, RunOutcome outcome,
                               String summary) {
        SuiteLedger.append(SuiteLedger.file(SUITE.store(), SUITE_ID), new SuiteLedger.Entry(SUITE_ID, s.toString(),
                s.system(), s.version(), s.workload(), s.nemesis(), verdict, start, System.currentTimeMillis(),
                outcome == null ? null : outcome.phases().millis(),
                outcome == null ? null : outcome.directory().path().toAbsolutePath().toString(), summary));
    }
}
