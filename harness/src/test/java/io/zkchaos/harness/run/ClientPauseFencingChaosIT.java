package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.leader.LeaderOverlap;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.harness.run.config.Clients;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.WorkloadOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stalled-leader scenario with real processes: clients in JVMs of their own, the one that leads frozen with
 * SIGSTOP for longer than its session timeout, then woken.
 *
 * <p>Why each outcome is certain, not likely: the leader never resigns by itself (it holds for a minute); the pause
 * lasts three session timeouts, so the servers expire the frozen leader's session and another candidate leads
 * before it wakes (the store's session, granted twice the pause, outlives it); the request timeout outlasts the pause, so whatever the frozen leader was doing when it froze
 * completes when it wakes, and its loop (check, prepare for the write interval, write) then writes at least once
 * more before its ZooKeeper client reports the expiry. One pause per run, from the seeded schedule: healed 3 s, then
 * the pause. In {@code -Pchaos} (the nightly); {@code ClientProcessesIT} keeps client processes in {@code mvn verify}.
 * (Curator's LeaderLatch under the same pause: {@link ClientPauseChaosIT}.)
 */
class ClientPauseFencingChaosIT {

    private static final Duration SESSION = Duration.ofSeconds(3);
    private static final Duration PAUSE = Duration.ofSeconds(8);

    @TempDir
    Path store;

    private RunOutcome run(String workload, Duration maxOverlap) throws InterruptedException {
        return run(store, workload, maxOverlap);
    }

    /** One run of {@code workload} under pause-leader-client in {@code store}; nothing may be left running after it. */
    static RunOutcome run(Path store, String workload, Duration maxOverlap) throws InterruptedException {
        RunConfig.Builder b = RunConfig.builder().workload(workload).clients(Clients.PROCESS)
                .nemesis("pause-leader-client").seed(13).concurrency(3)
                .workloadOptions(WorkloadOptions.defaults().withHold(Duration.ofMinutes(1), Duration.ofMinutes(1))
                        .withWriteEvery(Duration.ofMillis(400)))
                .sessionTimeout(SESSION).requestTimeout(PAUSE.plusSeconds(1))
                .healFor(Duration.ofSeconds(3)).faultFor(PAUSE).timeLimit(Duration.ofSeconds(16))
                .recover(Duration.ofSeconds(5)).out(store);
        if (maxOverlap != null) {
            b.maxOverlap(maxOverlap);
        }
        RunOutcome outcome = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(b.build());
        try {
            LeftOvers.assertNoClientOf(outcome.directory().path());
            LeftOvers.assertNoServerOf(outcome.directory().path());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return outcome;
    }

    static CheckResult part(RunOutcome o, String checker) {
        return o.result().parts().stream().filter(p -> p.checker().equals(checker)).findFirst().orElseThrow();
    }

    /** The client process the nemesis froze: the candidate named in the pause's record. */
    static String frozen(History h) {
        Op pause = h.nemesisOps().stream().filter(o -> o.f().equals("pause-leader-client")
                && o.type() == OpType.INFO).findFirst().orElseThrow();
        assertThat(pause.value()).as("the pause acted: %s", pause.value()).isInstanceOf(Map.class);
        return (String) ((List<?>) ((Map<?, ?>) pause.value()).get("nodes")).get(0);
    }

    /** The overlap in which the frozen leader was the stale one. */
    static LeaderOverlap overlapOf(RunOutcome o, String frozen) {
        SingleLeaderReport d = (SingleLeaderReport) part(o, "single-leader").details();
        return d.overlaps().stream().filter(x -> x.stale().node().equals(frozen)).findFirst()
                .orElseThrow(() -> new AssertionError("no overlap with " + frozen + " stale: " + d.overlaps()));
    }

    @Test
    void theFencedStoreRejectsEveryWriteOfTheFrozenLeaderAndMaxOverlapJudgesOnlyTheAwakePart() throws Exception {
        Duration maxOverlap = Duration.ofSeconds(2); // the overlap lasts about 8 - 3 = 5 s, nearly all of it frozen
        RunOutcome o = run("fenced-writes", maxOverlap);
        History h = HistoryFiles.read(o.directory().historyFile());
        String frozen = frozen(h);
        LeaderOverlap overlap = overlapOf(o, frozen);
        assertThat(overlap.fencingWouldReject()).isTrue();
        assertThat(overlap.lengthNanos()).as("two leaders for longer than max-overlap").isGreaterThan(
                maxOverlap.toNanos());
        assertThat(overlap.frozenNanos()).isPositive();
        assertThat(overlap.awakeNanos()).isLessThanOrEqualTo(maxOverlap.toNanos());
        // A pass for the data, a documented overlap for the election: not a false alarm.
        assertThat(o.result().validity()).as(o.result().summary()).isEqualTo(Validity.VALID);

        // The frozen leader's writes carry its token. They are recorded under its process, or under its slot's next
        // process when the session's expiry was recorded first (a retired process records nothing more).
        long staleToken = overlap.stale().token();
        long wokeAt = h.nemesisOps().stream().filter(x -> x.f().equals("heal") && x.type() == OpType.INFO)
                .findFirst().orElseThrow().index();
        List<Operation> stale = h.operations().stream().filter(x -> x.f().equals("fenced-write")
                && x.input() instanceof java.util.Map<?, ?> m && m.get("token") instanceof Number t
                && t.longValue() == staleToken && x.invokeIndex() > wokeAt).toList();
        assertThat(stale).as("the frozen leader wrote after it woke").isNotEmpty();
        assertThat(stale).as("every write it began after it woke was rejected")
                .allSatisfy(w -> {
                    assertThat(w.isFail()).as("%s", w).isTrue();
                    assertThat(w.error()).startsWith("stale token ");
                });
        FencedReport fenced = (FencedReport) part(o, "fenced-writes").details();
        assertThat(fenced.rejected()).isGreaterThanOrEqualTo(stale.size());
        assertThat(fenced.staleLanded()).isZero();
    }

    @Test
    void withoutFencingTheFrozenLeadersWritesLandAfterTheNewLeaders() throws Exception {
        RunOutcome o = run("unfenced-writes", null);
        History h = HistoryFiles.read(o.directory().historyFile());
        String frozen = frozen(h);
        LeaderOverlap overlap = overlapOf(o, frozen);
        assertThat(overlap.fencingWouldReject()).isTrue();
        assertThat(part(o, "single-leader").validity()).isEqualTo(Validity.VALID);
        CheckResult fenced = part(o, "fenced-writes");
        assertThat(fenced.validity()).isEqualTo(Validity.INVALID);
        FencedReport d = (FencedReport) fenced.details();
        assertThat(d.staleLanded()).isPositive();
        assertThat(d.violations()).anySatisfy(v -> {
            assertThat(v.kind()).isEqualTo("accepted-after-higher");
            assertThat(v.explanation()).contains("with token " + overlap.stale().token() + " (process ");
        });
        assertThat(fenced.summary()).contains("stale write(s) landed after a newer leader's");
    }
}
