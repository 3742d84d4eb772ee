package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.readmodel.ReadModelReport;
import io.zkchaos.checkers.readmodel.ZkReadModelChecker;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.register.PinnedReadsRegister;
import io.zkchaos.workloads.register.RegisterWorkload.ReadMode;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * ZooKeeper's documented stale reads, shown on a real ensemble: readers pinned to a follower, writers on the other
 * servers, the follower cut off from its peers with black-holed links (its clients still reach it). Until it notices
 * — its learner's read times out after syncLimit × tickTime, 5 × 200 ms here — it answers plain reads from its last
 * state while the majority commits new writes: stale reads, which {@code zk-read-model} reports as allowed and
 * {@code --strict} fails. A {@code sync} is forwarded to the leader over the cut link, so a sync-read never returns
 * the old state: it waits, and ends {@code info} when the follower drops its clients.
 *
 * <p>Deterministic: a fixed seed, and every step waits for what must happen (writes acknowledged after the cut, the
 * follower dropping its readers) rather than for a time.
 */
class StaleReadsIT extends ProcessesUnderRuns {

    /** The most a scenario's run may last; it is stopped once its steps are done (a few seconds when quiet). */
    private static final Duration RUN = Duration.ofSeconds(20);
    /** Operations per second, readers and writers together: enough reads in the ~1 s window, a history that the
     * read-model's session analysis checks in seconds. */
    private static final double RATE = 150;

    @Test
    void aCutOffFollowerServesStaleReadsThatOnlyStrictFailsAndSyncReadsNeverDo() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).runDirectory(runs.resolve("stale")).build();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            // every server in the ensemble, so that the lowest-named follower is the same at setup and at the cut
            await().atMost(Duration.ofSeconds(60)).until(() -> cluster.statuses().values().stream()
                    .allMatch(s -> s.mode().serving()));
            Scenario plain = scenario(cluster, ReadMode.PLAIN, "/stale-plain", 16L);
            ReadModelReport report = (ReadModelReport) plain.lenient().details();
            assertThat(plain.lenient().validity()).as(plain.lenient().summary()).isEqualTo(Validity.VALID);
            assertThat(report.violations()).isEmpty();
            assertThat(report.staleReads()).as("stale plain reads from the cut-off follower").isNotEmpty();
            assertThat(report.staleReads()).allSatisfy(s -> assertThat(s.process()).isLessThan(
                    PinnedReadsRegister.WRITER_BASE));
            assertThat(plain.lenient().summary()).contains("stale (allowed by ZooKeeper's guarantees");
            assertThat(plain.strict().validity()).as(plain.strict().summary()).isEqualTo(Validity.INVALID);
            assertThat(plain.strict().summary()).contains("strict: stale reads fail the run");
            // the evidence in the follower's own log: it lost its leader (by its own read timeout, or by the leader's
            // close after the leader's timeout: the same syncLimit x tickTime) and stopped serving its clients
            assertThat(plain.followerLog()).contains("Exception when following the leader")
                    .contains("PeerState set to LOOKING");
            System.out.printf("plain reads: %d ok, %d stale; the follower noticed the cut %s ms after it "
                    + "(its log), dropping its readers %d ms after it (history)%n", report.plainReads(),
                    report.staleReads().size(), plain.noticedAfterMillis(), plain.droppedAfterMillis());

            await().atMost(Duration.ofSeconds(60)).until(() -> cluster.status(plain.follower()).mode()
                    == NodeStatus.Mode.FOLLOWER);
            Scenario synced = scenario(cluster, ReadMode.SYNC, "/stale-sync", 17L);
            ReadModelReport syncReport = (ReadModelReport) synced.strict().details();
            assertThat(synced.strict().validity()).as(synced.strict().summary()).isEqualTo(Validity.VALID);
            assertThat(syncReport.staleReads()).isEmpty();
            assertThat(syncReport.syncReads()).isPositive();
            assertThat(synced.history().operations()).as("sync-reads cut off with the follower end info")
                    .anyMatch(o -> o.f().equals("sync-read") && o.isInfo());
            System.out.printf("sync-reads: %d ok, 0 stale (strict valid)%n", syncReport.syncReads());
        }
    }

    /** What one run of the scenario left. */
    private record Scenario(String follower, History history, CheckResult lenient, CheckResult strict,
                            String followerLog, Long noticedAfterMillis, long droppedAfterMillis) {
    }

    private Scenario scenario(LocalCluster cluster, ReadMode mode, String root, long seed) throws Exception {
        Map<String, String> servers = new LinkedHashMap<>();
        cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
        Target target = new Target(cluster.connectString(), servers, Duration.ofSeconds(4), Duration.ofSeconds(3));
        PinnedReadsRegister w = new PinnedReadsRegister(root, 2, mode, PinnedReadsRegister.FOLLOWER, RATE);
        w.setup(target);
        String follower = w.pinned();
        String readF = mode == ReadMode.SYNC ? "sync-read" : "read";
        long logBefore = Files.size(cluster.logFile(follower));
        InMemoryRecorder rec = new InMemoryRecorder();
        ClientDeadline end = ClientDeadline.after(RUN);
        Thread run = new Thread(() -> {
            try {
                w.run(new RunContext(target, rec, seed, 4, RUN, end));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "pinned-register");
        run.start();
        try {
            // both groups at work before the cut
            await().atMost(Duration.ofSeconds(60)).until(() -> count(rec, readF, true) >= 20
                    && count(rec, "write", true) >= 10);
            NemesisTarget faults = cluster.nemesisTarget(new Random(seed));
            rec.nemesis(OpType.INVOKE, "isolate-follower", null);
            long cutAt = System.currentTimeMillis();
            long cutNanos = System.nanoTime();
            FaultRecord cut = new NetworkFaults(faults, "isolate-follower").isolateFollower();
            rec.nemesis(OpType.INFO, "isolate-follower", cut);
            assertThat(cut.groups().get(0)).as("the pinned follower is the one cut off").containsExactly(follower);
            int writesAtCut = count(rec, "write", true);
            // the follower notices by its own timeout and drops its readers; the writers go on meanwhile
            long cutIndex = rec.history().size();
            await().atMost(Duration.ofSeconds(60)).until(() -> rec.history().operations().stream()
                    .anyMatch(o -> o.f().equals(readF) && o.isInfo() && o.completeIndex() > cutIndex));
            long droppedAfter = (System.nanoTime() - cutNanos) / 1_000_000;
            await().atMost(Duration.ofSeconds(60)).until(() -> count(rec, "write", true) >= writesAtCut + 10);
            rec.nemesis(OpType.INVOKE, "heal", null);
            rec.nemesis(OpType.INFO, "heal", new NetworkFaults(faults, "heal").heal());
            // all this scenario waits for has happened: the run need not go on to its time limit
            end.stop();
            run.join();
            History h = rec.history();
            String log = tail(cluster, follower, logBefore);
            return new Scenario(follower, h, ZkReadModelChecker.of(null, false, Duration.ofSeconds(60)).check(h),
                    ZkReadModelChecker.of(null, true, Duration.ofSeconds(60)).check(h), log,
                    noticedAfter(log, cutAt), droppedAfter);
        } finally {
            end.stop();
            cluster.links().heal();
            run.join();
        }
    }

    private static int count(InMemoryRecorder rec, String f, boolean ok) {
        return (int) rec.history().operations().stream().filter(o -> o.f().equals(f) && o.isOk() == ok).count();
    }

    private static String tail(LocalCluster cluster, String node, long from) throws IOException {
        byte[] all = Files.readAllBytes(cluster.logFile(node));
        return new String(all, (int) from, all.length - (int) from, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Milliseconds from the cut to the follower's "Exception when following the leader" line, by its timestamp. */
    private static Long noticedAfter(String log, long cutAtMillis) {
        for (String line : log.split("\n")) {
            if (line.contains("Exception when following the leader") && line.indexOf(' ') > 0) {
                // a server's line starts with its dated time: 2026-12-06T06:11:01.365Z
                long at = java.time.OffsetDateTime.parse(line.substring(0, line.indexOf(' '))).toInstant()
                        .toEpochMilli();
                return at - cutAtMillis;
            }
        }
        return null;
    }
}
