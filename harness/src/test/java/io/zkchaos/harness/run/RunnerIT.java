package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.ServerObservation;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole runs against real 3-node ensembles: short, but every phase of a real run. */
class RunnerIT {

    @TempDir
    Path store;

    private RunOutcome run(RunConfig.Builder b) throws InterruptedException {
        return run(b, Duration.ofSeconds(2));
    }

    private RunOutcome run(RunConfig.Builder b, Duration recover) throws InterruptedException {
        StringWriter progress = new StringWriter();
        RunOutcome outcome = new Runner(new PrintWriter(progress), Duration.ofSeconds(2))
                .run(b.out(store).recover(recover).build());
        assertThat(progress.toString()).contains("ops").contains("the final heal took");
        return outcome;
    }

    @Test
    void aRegisterRunWithoutFaultsIsValidAndLeavesEveryFile() throws Exception {
        RunOutcome outcome = run(RunConfig.builder().workload("register").nemesis("none").seed(1)
                .timeLimit(Duration.ofSeconds(6)).concurrency(4));
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.VALID);
        RunDirectory dir = outcome.directory();
        assertThat(dir.configFile()).content().contains("\"name\" : \"register\"").contains("\"seed\" : 1");
        assertThat(dir.resultsFile()).content().contains("\"valid\" : true");
        assertThat(dir.nemesisFile()).exists();
        History h = HistoryFiles.read(dir.historyFile());
        // Real work of every kind was done and checked (how much in 6 s depends on the machine: see the bench).
        assertThat(h.operations()).filteredOn(o -> o.isOk()).extracting(o -> o.f()).contains("read", "write", "cas");
        assertThat(h.nemesisOps()).extracting(Op::f).containsOnly("heal");
        assertThat(store.resolve("latest").toRealPath()).isEqualTo(dir.path().toRealPath());
        assertThat(dir.path().resolve("nodes/n1")).isDirectory();
        LeftOvers.assertNoServerOf(dir.path());
    }

    @Test
    void aSetRunUnderLeaderKillsRecordsTheFaultsAndLosesNothing() throws Exception {
        // A leader killed at the end restarts at the final heal, and the final reads read every server: the run's
        // recovery probe waits (up to its 60 s bound) until every server serves before them, so the restarted one has
        // rejoined even on a loaded machine. The recovery time is for the clients to be acknowledged after the heal
        // (acked-after-heal): the two servers that were not killed have had the 3 s fault window to elect.
        RunOutcome outcome = run(RunConfig.builder().workload("set").nemesis("kill-leader").seed(7)
                .timeLimit(Duration.ofSeconds(12)).faultFor(Duration.ofSeconds(3)).healFor(Duration.ofSeconds(3))
                .concurrency(4), Duration.ofSeconds(6));
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.VALID);
        History h = HistoryFiles.read(outcome.directory().historyFile());
        List<Op> nemesis = h.nemesisOps();
        assertThat(nemesis).extracting(Op::f).contains("kill-leader", "heal");
        // Every kill is recorded with the node it really killed.
        assertThat(nemesis).filteredOn(o -> o.f().equals("kill-leader") && o.type().isCompletion())
                .allSatisfy(o -> assertThat(o.value().toString()).containsPattern("nodes=\\[n[1-3]\\]"));
        assertThat(h.operations()).as("final reads of n1, n2, n3").filteredOn(o -> o.f().equals("read") && o.isOk())
                .hasSize(3);
        assertThat(Files.readString(outcome.directory().nemesisFile())).contains("\"fault\" : \"kill-leader\"");
        // the schedule it executed, as run --schedule takes it: each kill aimed at the leader of its time
        io.zkchaos.nemesis.schedule.FaultSchedule executed = io.zkchaos.results.Json.read(
                outcome.directory().scheduleFile(), io.zkchaos.nemesis.schedule.FaultSchedule.class);
        assertThat(executed.faults()).filteredOn(w -> w.error() == null).isNotEmpty().allSatisfy(w -> {
            assertThat(w.fault()).isEqualTo("kill-leader");
            assertThat(w.roles()).containsExactly(java.util.Map.entry(w.nodes().get(0), "leader"));
        });
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }

    @Test
    void aComposedMixedRunHoldsFaultsOfDifferentFamiliesAtOnceInItsHistory() throws Exception {
        // --compose 3: up to three faults at once, one per family, in seeded windows that overlap. What is asserted
        // is the main phase's (the history's nemesis entries, schedule.json) and no finding; the recovery probe
        // waits for every server before the final reads, so 2 s of recovery time (run()'s) do.
        RunOutcome outcome = run(RunConfig.builder().workload("set").nemesis("mixed").compose(3).seed(2)
                .timeLimit(Duration.ofSeconds(12)).faultFor(Duration.ofSeconds(3)).healFor(Duration.ofSeconds(1))
                .concurrency(4));
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isNotEqualTo(Validity.INVALID);
        // the history: each start that acted is in force until the heal that names it (or the final heal)
        java.util.Map<String, io.zkchaos.nemesis.Fault.Family> inForce = new java.util.HashMap<>();
        String starting = null;
        int most = 0;
        for (Op op : HistoryFiles.read(outcome.directory().historyFile()).nemesisOps()) {
            if (op.f().equals("trigger")) {
                continue;
            }
            if (op.f().equals("heal")) {
                if (op.type() == io.zkchaos.checkers.history.OpType.INVOKE) {
                    if ("all".equals(op.value())) {
                        inForce.clear();
                    } else {
                        inForce.remove(String.valueOf(op.value()));
                    }
                }
                continue;
            }
            if (op.type() == io.zkchaos.checkers.history.OpType.INVOKE) {
                starting = op.f();
                continue;
            }
            if (op.f().equals(starting) && !String.valueOf(op.value()).contains("error")) {
                io.zkchaos.nemesis.Fault.Family family = io.zkchaos.nemesis.Faults.byName(op.f()).orElseThrow()
                        .family();
                assertThat(inForce.values()).as("%s acts while %s hold", op.f(), inForce.keySet())
                        .doesNotContain(family);
                inForce.put(op.f(), family);
                most = Math.max(most, inForce.size());
            }
        }
        assertThat(most).as("faults in force at once").isBetween(2, 3);
        // schedule.json, as run --schedule takes it, has the windows overlapping; config.json the compose
        io.zkchaos.nemesis.schedule.FaultSchedule executed = io.zkchaos.results.Json.read(
                outcome.directory().scheduleFile(), io.zkchaos.nemesis.schedule.FaultSchedule.class);
        List<io.zkchaos.nemesis.schedule.FaultSchedule.Window> ws = executed.faults();
        assertThat(ws).anyMatch(a -> ws.stream().anyMatch(b -> b != a && a.startMillis() < b.startMillis()
                && (a.endMillis() == io.zkchaos.nemesis.schedule.FaultSchedule.AT_FINAL_HEAL
                || b.startMillis() < a.endMillis())));
        assertThat(RunConfig.read(outcome.directory()).nemesis().compose()).isEqualTo(3);
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }

    @Test
    void setupAndFinalReadsDoNotHangOnTheClientsRequestTimeout() throws Exception {
        // A 1 ms request timeout: no client can even connect, as if the machine were loaded beyond it. Setup and the
        // final reads are not under test and get their own, longer bound: the run still sets up, ends and reads
        // every server. (With setup bound by the clients' timeout, the run failed before it began.)
        RunOutcome outcome = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(2))
                .run(RunConfig.builder().workload("set").nemesis("none").seed(9).timeLimit(Duration.ofSeconds(2))
                        .recover(Duration.ZERO).concurrency(2).requestTimeout(Duration.ofMillis(1)).out(store)
                        .build());
        History h = HistoryFiles.read(outcome.directory().historyFile());
        assertThat(h.operations()).as("final reads of n1, n2, n3")
                .filteredOn(o -> o.f().equals("read") && o.isOk()).hasSize(3);
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }

    @Test
    void anElectionRunUnderLeaderIsolationKeepsOneLeaderPerToken() throws Exception {
        // Candidates work on after the final heal for as long as the failover bound, so that heal is judged too. The
        // bound is what a loaded machine needs (a failover takes about a second on a quiet one): the test is about
        // one leader per token, not about the failover time, which the workloads bench measures.
        RunOutcome outcome = run(RunConfig.builder().workload("election").nemesis("isolate-leader").seed(3)
                .timeLimit(Duration.ofSeconds(12)).faultFor(Duration.ofSeconds(4)).healFor(Duration.ofSeconds(3))
                .failoverBound(Duration.ofSeconds(15)).concurrency(4), Duration.ofSeconds(15));
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.VALID);
        History h = HistoryFiles.read(outcome.directory().historyFile());
        assertThat(h.operations()).filteredOn(o -> o.f().equals("acquire") && o.isOk()).hasSizeGreaterThan(1);
        assertThat(h.nemesisOps()).extracting(Op::f).contains("isolate-leader");
        // The servers' own view, on the history's clock: the isolated leader is replaced after the isolation began.
        long isolated = h.nemesisOps().stream().filter(o -> o.f().equals("isolate-leader")).findFirst()
                .orElseThrow().time();
        List<ServerObservation> seen = ClusterLog.read(outcome.directory().clusterFile());
        String first = seen.stream().filter(o -> o.mode().equals("leader")).findFirst().orElseThrow().node();
        assertThat(seen).as("cluster.jsonl").filteredOn(o -> o.mode().equals("leader") && !o.node().equals(first))
                .isNotEmpty().allSatisfy(o -> assertThat(o.time()).isGreaterThan(isolated));
        assertThat(outcome.directory().reportFile()).content().contains("election-isolate-leader");
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }
}
