package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.nemesis.schedule.FaultSchedule.Window;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.workloads.WorkloadDescriptor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run loop's ordering rules, on an ensemble in memory ({@link MemoryBackend}) and a workload that needs no server
 * ({@link ScriptedWorkload}): every phase in order, the heal before the final reads, the heal and the teardown even
 * when the workload breaks, the history kept then, and a run that recorded nothing judged unknown. Each run is about
 * two seconds of real time: the nemesis keeps real time.
 */
class RunLoopTest {

    @TempDir
    Path store;

    private final MemoryBackend backend = new MemoryBackend();
    private final StringWriter progress = new StringWriter();

    private RunOutcome run(ScriptedWorkload workload) throws InterruptedException {
        return run(workload, null);
    }

    /** The faults as {@code schedule} says, or (null) drawn from the seed. */
    private RunOutcome run(ScriptedWorkload workload, FaultSchedule schedule) throws InterruptedException {
        WorkloadDescriptor scripted = new WorkloadDescriptor("scripted", "no server needed", o -> workload,
                List.of(CheckerCatalog.ZK_READ_MODEL));
        // A kill of the leader 300 ms in, held 400 ms; the main phase ends at 1.2 s, the clients at 1.7 s.
        RunConfig config = RunConfig.builder().customWorkload("scripted").nemesis("kill-leader").seed(1)
                .timeLimit(Duration.ofMillis(1200)).faultFor(Duration.ofMillis(400)).healFor(Duration.ofMillis(300))
                .recover(Duration.ofMillis(500)).concurrency(1).out(store).schedule(schedule).build();
        return new Runner(new PrintWriter(progress), Duration.ofSeconds(10), name -> backend).run(config, scripted);
    }

    private static int at(List<String> events, String event) {
        int i = events.indexOf(event);
        assertThat(i).as("'" + event + "' in " + events).isNotNegative();
        return i;
    }

    @Test
    void thePhasesComeInOrderAndEveryFaultIsHealedBeforeTheFinalReads() throws Exception {
        RunOutcome outcome = run(new ScriptedWorkload(backend.events, -1, false));
        List<String> e = backend.events;
        assertThat(at(e, "reap")).isLessThan(at(e, "start"));
        assertThat(at(e, "start")).isLessThan(at(e, "setup"));
        assertThat(at(e, "setup")).isLessThan(at(e, "run"));
        assertThat(at(e, "run")).isLessThan(at(e, "kill n2"));
        assertThat(at(e, "kill n2")).as("the leader restarted at the heal").isLessThan(e.lastIndexOf("start n2"));
        assertThat(e.lastIndexOf("start n2")).isLessThan(at(e, "run done"));
        assertThat(at(e, "run done")).isLessThan(at(e, "quorum"));
        assertThat(at(e, "quorum")).isLessThan(at(e, "write probe"));
        assertThat(at(e, "write probe")).as("recovery is probed before the final reads").isLessThan(at(e, "final"));
        assertThat(at(e, "final")).isLessThan(at(e, "teardown"));
        assertThat(at(e, "teardown")).isLessThan(at(e, "close"));
        // in the history too: the final heal is done before the final read begins
        History h = HistoryFiles.read(outcome.directory().historyFile());
        Op finalHeal = h.nemesisOps().stream().filter(o -> o.f().equals("heal") && o.type() == OpType.INVOKE
                && "all".equals(o.value())).findFirst().orElseThrow();
        Op finalRead = h.ops().stream().filter(o -> o.f().equals("final-read")).findFirst().orElseThrow();
        assertThat(finalHeal.index()).isLessThan(finalRead.index());
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.VALID);
        assertThat(outcome.result().parts()).filteredOn(p -> p.checker().equals("recovery")).singleElement()
                .satisfies(r -> assertThat(r.summary()).startsWith("writes acknowledged")
                        .contains("every server served within"));
        assertThat(outcome.phases().toString()).contains("start", "setup", "clients", "heal", "quorum", "final",
                "teardown", "stop", "check", "report");
        RunDirectory dir = outcome.directory();
        assertThat(List.of(dir.configFile(), dir.historyFile(), dir.nemesisFile(), dir.resultsFile(),
                dir.evidenceFile(), dir.reportFile())).allMatch(Files::isRegularFile);
    }

    @Test
    void aRunWritesTheScheduleItExecutedAndExecutesOneItIsGiven() throws Exception {
        RunOutcome seeded = run(new ScriptedWorkload(backend.events, -1, false));
        FaultSchedule executed = Json.read(seeded.directory().scheduleFile(), FaultSchedule.class);
        assertThat(executed.nemesis()).isEqualTo("kill-leader");
        assertThat(executed.faults()).as("the cycle: a kill at 300 ms, and one at 1 s if it began before the end")
                .isNotEmpty().allSatisfy(w -> {
                    assertThat(w.fault()).isEqualTo("kill-leader");
                    assertThat(w.roles()).containsExactly(Map.entry("n2", "leader"));
                });
        assertThat(executed.faults().get(0).startMillis()).isGreaterThanOrEqualTo(300);
        assertThat(executed.faults().get(0).endMillis()).isGreaterThanOrEqualTo(700);

        // the same kill, later and shorter than the seeded cycle would make it: the run does as the file says
        backend.events.clear();
        Window kill = executed.faults().get(0);
        RunOutcome given = run(new ScriptedWorkload(backend.events, -1, false),
                executed.withFaults(List.of(kill.at(600, 800))));
        assertThat(progress.toString()).contains("nemesis: 1 fault(s) as the schedule says (nodes by role)");
        assertThat(backend.events).containsSubsequence("run", "kill n2", "start n2", "run done");
        FaultSchedule again = Json.read(given.directory().scheduleFile(), FaultSchedule.class);
        assertThat(again.faults()).extracting(Window::fault, Window::nodes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("kill-leader", List.of("n2")));
        assertThat(again.faults().get(0).startMillis()).as("not before its time").isGreaterThanOrEqualTo(600);
    }

    @Test
    void aWorkloadThatBreaksStillHealsTearsDownAndKeepsItsHistory() {
        // it throws 600 ms in, while the leader it killed at 300 ms is still down
        assertThatThrownBy(() -> run(new ScriptedWorkload(backend.events, 600, false)))
                .isInstanceOf(RunFailedException.class).hasMessageContaining("history so far kept in")
                .hasMessageContaining("the workload broke");
        List<String> e = backend.events;
        assertThat(at(e, "kill n2")).isLessThan(at(e, "run threw"));
        assertThat(e.lastIndexOf("start n2")).as("healed after the workload broke").isGreaterThan(at(e, "run threw"));
        assertThat(e).doesNotContain("final");
        assertThat(at(e, "teardown")).isLessThan(at(e, "close"));
        RunDirectory dir = new RunStore(store).runs().get(0);
        History h = HistoryFiles.read(dir.historyFile());
        assertThat(h.operations()).filteredOn(o -> o.isOk()).isNotEmpty();
        assertThat(h.nemesisOps()).anyMatch(o -> o.f().equals("heal") && "all".equals(o.value()));
        assertThat(dir.nemesisFile()).content().contains("final-heal");
    }

    @Test
    void aRunThatRecordedNothingIsUnknownAndSaysWhy() throws Exception {
        RunOutcome outcome = run(new ScriptedWorkload(backend.events, -1, true));
        assertThat(outcome.result().validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(outcome.result().summary()).contains("no operation was acknowledged in the main phase");
        assertThat(progress.toString()).contains("exercised:", "evidence: the run exercised too little");
    }
}
