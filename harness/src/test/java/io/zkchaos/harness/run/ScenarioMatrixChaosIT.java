package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.results.report.SuiteIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chaos suite ({@code mvn -Pchaos verify}): every workload under every nemesis against a real 3-node ZooKeeper
 * ensemble, each run kept under {@code harness/target/chaos-store/}. ZooKeeper keeps its promises, so every
 * scenario must come out valid; an invalid one is a finding to look at in its run directory.
 *
 * <p>At the end it writes the suite index {@code target/chaos-store/index.html} (every scenario of this run of the
 * suite with its verdict and a link to its report) and prints its path.
 *
 * <p>System properties narrow or lengthen it: {@code zkchaos.chaos.workloads} and {@code zkchaos.chaos.nemeses}
 * (comma-separated names), {@code zkchaos.chaos.time} (main phase per run, default 15s), {@code zkchaos.chaos.seed},
 * {@code zkchaos.chaos.backend} ({@code local} by default, or {@code docker}), {@code zkchaos.chaos.system}
 * ({@code zookeeper} by default, or {@code fle}: the correct build of the project's own nodes under every nemesis,
 * with their workloads).
 */
class ScenarioMatrixChaosIT {

    private static final io.zkchaos.harness.cluster.SystemUnderTest SYSTEM = io.zkchaos.harness.cluster.SystemUnderTest
            .parse(System.getProperty("zkchaos.chaos.system", "zookeeper"));
    private static final Path STORE = Path.of(System.getProperty("zkchaos.chaos.store", "target/chaos-store"));
    /** Runs created from here on belong to this run of the suite (the store keeps older ones). */
    private static final Instant SUITE_START = Instant.now().minusSeconds(1);

    @AfterAll
    static void writeSuiteIndex() throws IOException {
        List<RunDirectory> runs = new ArrayList<>();
        for (RunDirectory run : RunStore.find(STORE)) {
            if (Files.getLastModifiedTime(run.historyFile()).toInstant().isAfter(SUITE_START)) {
                runs.add(run);
            }
        }
        Path index = SuiteIndex.write(STORE.resolve(RunDirectory.REPORT), "chaos suite", runs);
        System.out.println();
        System.out.println("Chaos suite: " + runs.size() + " scenario(s); index of their reports: "
                + index.toAbsolutePath().toUri());
    }

    static Stream<Arguments> scenarios() {
        List<String> workloads = list("zkchaos.chaos.workloads", SYSTEM.workloads().stream()
                .map(io.zkchaos.workloads.WorkloadDescriptor::name).toList());
        List<String> nemeses = list("zkchaos.chaos.nemeses", Nemeses.names());
        return workloads.stream().flatMap(w -> nemeses.stream().map(n -> Arguments.of(w, n)));
    }

    private static List<String> list(String property, List<String> all) {
        String v = System.getProperty(property, "").trim();
        return v.isEmpty() ? all : Arrays.stream(v.split(",")).map(String::trim).toList();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("scenarios")
    void zooKeeperKeepsItsPromises(String workload, String nemesis) throws Exception {
        Duration main = io.zkchaos.harness.cli.Durations.parse(System.getProperty("zkchaos.chaos.time", "15s"));
        RunConfig config = RunConfig.builder().backend(System.getProperty("zkchaos.chaos.backend", "local"))
                .system(SYSTEM.id())
                .workload(workload).nemesis(nemesis).timeLimit(main)
                .faultFor(main.dividedBy(4)).healFor(main.dividedBy(5))
                // clients work on after the final heal for the whole failover bound, so that heal is judged
                .recover(Duration.ofSeconds(10)).failoverBound(Duration.ofSeconds(10))
                .concurrency(5).seed(Long.getLong("zkchaos.chaos.seed", 20261129L)).out(STORE).build();
        RunOutcome outcome = new Runner(new PrintWriter(new java.io.OutputStreamWriter(System.out,
                StandardCharsets.UTF_8), true), Duration.ofSeconds(5)).run(config);
        assertThat(outcome.result().validity())
                .as("%s: %s (run directory %s)", config.scenario(), outcome.result().summary(),
                        outcome.directory().path())
                .isEqualTo(Validity.VALID);
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }
}
