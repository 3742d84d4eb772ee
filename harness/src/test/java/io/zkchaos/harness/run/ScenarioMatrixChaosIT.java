package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.workloads.Workloads;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chaos suite ({@code mvn -Pchaos verify}): every workload under every nemesis against a real 3-node ZooKeeper
 * ensemble, each run kept under {@code harness/target/chaos-store/}. ZooKeeper keeps its promises, so every
 * scenario must come out valid; an invalid one is a finding to look at in its run directory.
 *
 * <p>System properties narrow or lengthen it: {@code zkchaos.chaos.workloads} and {@code zkchaos.chaos.nemeses}
 * (comma-separated names), {@code zkchaos.chaos.time} (main phase per run, default 15s), {@code zkchaos.chaos.seed},
 * {@code zkchaos.chaos.versions} (comma-separated ZooKeeper releases, default the run default),
 * {@code zkchaos.chaos.nodes} (3 or 5, default 3), {@code zkchaos.chaos.sync} (auto, diff, snap or trunc).
 */
class ScenarioMatrixChaosIT {

    private static final Path STORE = Path.of(System.getProperty("zkchaos.chaos.store", "target/chaos-store"));

    static Stream<Arguments> scenarios() {
        List<String> workloads = list("zkchaos.chaos.workloads", Workloads.NAMES);
        List<String> nemeses = list("zkchaos.chaos.nemeses", Nemeses.names());
        List<String> versions = list("zkchaos.chaos.versions", List.of(RunConfig.ClusterPart.defaults().zookeeper()));
        return versions.stream().flatMap(v -> workloads.stream().flatMap(w -> nemeses.stream()
                .map(n -> Arguments.of(w, n, v))));
    }

    private static List<String> list(String property, List<String> all) {
        String v = System.getProperty(property, "").trim();
        return v.isEmpty() ? all : Arrays.stream(v.split(",")).map(String::trim).toList();
    }

    @ParameterizedTest(name = "{0} under {1} on {2}")
    @MethodSource("scenarios")
    void zooKeeperKeepsItsPromises(String workload, String nemesis, String version) throws Exception {
        Duration main = io.zkchaos.harness.cli.Durations.parse(System.getProperty("zkchaos.chaos.time", "15s"));
        RunConfig config = RunConfig.builder().workload(workload).nemesis(nemesis).timeLimit(main)
                .zookeeper(version).nodes(Integer.getInteger("zkchaos.chaos.nodes", 3))
                .sync(io.zkchaos.harness.cluster.SyncMode.parse(System.getProperty("zkchaos.chaos.sync", "auto")))
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
