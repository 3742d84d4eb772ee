package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.harness.cluster.lazyfs.LazyFs;
import io.zkchaos.harness.cluster.lazyfs.Mounts;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.Aim;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.ServerObservation;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real ZooKeeper ensemble whose leader's disk fails every fsync with EIO for a window ({@code disk-eio-fsync},
 * aimed at the leader by role): the leader sees the error in its own log and stops serving as leader until the
 * repair (a server whose transaction log cannot reach its disk must not go on acknowledging), no acknowledged write
 * is lost, and once the disk is repaired every server serves and holds the same data. Whether the two healthy
 * servers serve meanwhile is not asserted: the failing server can win the next elections (docs/lazyfs.md). Skipped,
 * loudly, without FUSE.
 */
class DiskFaultsIT {

    @TempDir
    Path store;

    @RegisterExtension
    static final ExecutionCondition LAZY_FS = Prerequisites.forClass("the lazy file system", LazyFs::unavailable);

    private static CheckResult part(RunOutcome o, String checker) {
        return o.result().parts().stream().filter(p -> p.checker().equals(checker)).findFirst().orElseThrow();
    }

    @Test
    void aLeaderWhoseFsyncsFailStopsLeadingLosesNothingAndRejoinsOnceItsDiskIsRepaired() throws Exception {
        // the leader then is the leader now, whoever it is: the aim names its role
        Aim atTheLeader = new Aim(new TreeMap<>(Map.of("n1", Aim.FOLLOWER, "n2", Aim.LEADER, "n3", Aim.FOLLOWER)),
                List.of(new Aim.Choice(Aim.Choice.NODE, List.of("n2"), null)));
        FaultSchedule schedule = new FaultSchedule("disk-eio-fsync", Aim.Targets.ROLE, List.of(new FaultSchedule.Window(
                "disk-eio-fsync", 1_500, 6_500, null, List.of(), null, atTheLeader, null, List.of(), null, 0)));
        RunOutcome outcome = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(
                RunConfig.builder().workload("set").nemesis("disk-eio-fsync").seed(1).concurrency(4)
                        .timeLimit(Duration.ofSeconds(10)).recover(Duration.ofSeconds(3)).schedule(schedule)
                        // the healthy two may serve nothing while the failing one wins elections: not asked here
                        .relax(List.of("acked-under-fault"))
                        .out(store).build());
        History h = HistoryFiles.read(outcome.directory().historyFile());

        Op failed = h.nemesisOps().stream().filter(o -> o.f().equals("disk-eio-fsync") && o.type().isCompletion())
                .findFirst().orElseThrow();
        Op repaired = h.nemesisOps().stream().filter(o -> o.type().isCompletion()
                && o.value().toString().contains("repair the disk of")).findFirst().orElseThrow();
        String node = failed.value().toString().replaceAll("(?s).*description=(n\\d)'s disk.*", "$1");
        assertThat(failed.value().toString()).contains(node + "'s disk: fsyncs fail with EIO")
                .contains(node + "=" + Aim.LEADER);

        // the server saw the fsync fail: ZooKeeper's sync thread dies on it ("Severe unrecoverable error")
        String log = Files.readString(outcome.directory().nodeDir(node).resolve("server.log"));
        assertThat(log).contains("java.io.IOException: Input/output error")
                .contains("at org.apache.zookeeper.server.persistence.FileTxnLog.commit");

        // it stopped serving as leader once its disk failed, and did not serve as leader again before the repair
        // (it may win an election again meanwhile, and fail to take office: docs/lazyfs.md)
        List<ServerObservation> seen = ClusterLog.read(outcome.directory().clusterFile());
        ServerObservation stepped = seen.stream().filter(s -> s.node().equals(node) && s.time() > failed.time()
                && s.time() < repaired.time() && !s.mode().equals("leader")).findFirst().orElseThrow(() ->
                new AssertionError(node + " was never seen not leading while its fsyncs failed: " + seen));
        assertThat(seen).as("%s serving as leader after it stepped down, before its disk was repaired", node)
                .filteredOn(s -> s.node().equals(node) && s.mode().equals("leader") && s.time() > stepped.time()
                        && s.time() < repaired.time()).isEmpty();

        // nothing acknowledged was lost; every server, the repaired one too, came back and holds the same data
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.VALID);
        for (String checker : List.of("no-lost-commit", "final-state", "recovery")) {
            assertThat(part(outcome, checker).validity()).as(part(outcome, checker).summary())
                    .isEqualTo(Validity.VALID);
        }
        assertThat(Mounts.lazyFsMounts()).noneMatch(m -> m.startsWith(store));
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }
}
