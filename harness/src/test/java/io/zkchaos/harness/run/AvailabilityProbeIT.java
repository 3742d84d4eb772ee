package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.JsonLinesRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.servers.AvailabilityChecker;
import io.zkchaos.checkers.servers.AvailabilityReport;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.ServerExcuses;
import io.zkchaos.workloads.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The availability probe on a real ensemble of three, judged by the availability checker: a follower isolated by the
 * nemesis leaves a whole majority that keeps acknowledging (valid); two servers paused behind the nemesis' back (the
 * windows think every server whole) is a stall.
 */
class AvailabilityProbeIT {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final Duration REQUEST = Duration.ofSeconds(3);
    /** Shorter than the default (2 × 4 s + 2 s) so that the test judges time within seconds. */
    private static final Duration BOUND = Duration.ofSeconds(4);

    @TempDir
    Path runs;

    private static Target target(LocalCluster cluster) {
        Map<String, String> servers = new LinkedHashMap<>();
        cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
        return new Target(cluster.connectString(), servers, SESSION, REQUEST);
    }

    private static AvailabilityChecker checker(ClusterConfig config) {
        Duration election = config.tickTime().multipliedBy(config.initLimit());
        return new AvailabilityChecker(BOUND, ServerExcuses.forRun(SESSION, election), List.of());
    }

    /** As the nemesis driver records a fault's start or stop: an invoke, the action, an info with what it did. */
    private static void nemesis(JsonLinesRecorder recorder, String f, String value, Supplier<FaultRecord> action) {
        recorder.nemesis(OpType.INVOKE, f, value);
        recorder.nemesis(OpType.INFO, f, action.get());
    }

    /** Waits until the probes have recorded {@code more} entries (about 6 a second on three servers). */
    private static void probesRecord(JsonLinesRecorder recorder, long more) {
        long from = recorder.size();
        await("the probes record " + more + " more entries").atMost(Duration.ofMinutes(1))
                .until(() -> recorder.size() >= from + more);
    }

    @Test
    void aFollowerIsolatedLeavesAWholeMajorityThatKeepsAcknowledging() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).runDirectory(runs.resolve("isolate"))
                .startTimeout(Duration.ofSeconds(120)).build();
        Path file = runs.resolve("isolate-history.jsonl");
        try (LocalCluster cluster = LocalCluster.start(config);
             JsonLinesRecorder recorder = JsonLinesRecorder.create(file)) {
            Target target = target(cluster);
            AvailabilityProbe.setup(target);
            NemesisTarget faults = cluster.nemesisTarget(new Random(3));
            try (AvailabilityProbe probe = AvailabilityProbe.start(target, recorder)) {
                probesRecord(recorder, 36);
                nemesis(recorder, "isolate-follower", "isolate-follower",
                        new NetworkFaults(faults, "isolate-follower")::isolateFollower);
                probesRecord(recorder, 60); // the majority writes on: 4 a second each
                nemesis(recorder, "heal", "isolate-follower", new NetworkFaults(faults, "heal")::heal);
                probesRecord(recorder, 36);
            }
        }
        CheckResult r = checker(config).check(HistoryFiles.read(file));
        AvailabilityReport d = (AvailabilityReport) r.details();
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(d.stretchesJudged()).as(r.summary()).isGreaterThanOrEqualTo(2);
        assertThat(d.excused()).isEmpty();
        assertThat(d.probeAcks()).isGreaterThan(d.probeWrites() / 2);
        assertThat(d.nodes()).containsExactly("n1", "n2", "n3");
    }

    @Test
    void twoServersPausedBehindTheNemesisBackAreAStall() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).runDirectory(runs.resolve("planted"))
                .startTimeout(Duration.ofSeconds(120)).build();
        Path file = runs.resolve("planted-history.jsonl");
        try (LocalCluster cluster = LocalCluster.start(config);
             JsonLinesRecorder recorder = JsonLinesRecorder.create(file)) {
            Target target = target(cluster);
            AvailabilityProbe.setup(target);
            try (AvailabilityProbe probe = AvailabilityProbe.start(target, recorder)) {
                probesRecord(recorder, 36);
                List<String> paused = List.of("n1", "n2");
                paused.forEach(cluster::pause); // not the nemesis: no window, every server counts as whole
                try {
                    TimeUnit.MILLISECONDS.sleep(BOUND.multipliedBy(2).toMillis()); // the fault's hold, by intent
                } finally {
                    paused.forEach(cluster::resume);
                }
                probesRecord(recorder, 36);
            }
        }
        CheckResult r = checker(config).check(HistoryFiles.read(file));
        AvailabilityReport d = (AvailabilityReport) r.details();
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        assertThat(d.stalls()).isNotEmpty().allSatisfy(s -> {
            assertThat(s.stretch().whole()).containsExactly("n1", "n2", "n3");
            assertThat(s.toNanos() - s.fromNanos()).isGreaterThan(BOUND.toNanos());
        });
        assertThat(d.stalls()).extracting(AvailabilityReport.Stall::node).contains("n3");
    }
}
