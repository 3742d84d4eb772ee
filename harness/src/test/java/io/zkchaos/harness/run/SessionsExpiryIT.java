package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.sessions.SessionGuaranteesChecker;
import io.zkchaos.checkers.sessions.SessionsReport;
import io.zkchaos.harness.run.config.Clients;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.RunDirectory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sessions run on ZooKeeper 3.9.5 with no nemesis and its clients as processes of their own: the workload cuts a
 * share of its sessions off from every server itself (each one's relay, in the client process, silenced past its
 * timeout), the servers expire them (their logs say so: nobody closed them), and the checker follows their
 * ephemerals to their end, so the promise {@code expired} is tested.
 */
class SessionsExpiryIT {

    @TempDir
    Path store;

    @Test
    void theWorkloadsOwnCutsAreExpiredByTheServersAndTested() throws Exception {
        StringWriter progress = new StringWriter();
        RunConfig config = RunConfig.builder().workload("sessions").nemesis("none").zookeeper("3.9.5")
                .clients(Clients.PROCESS).concurrency(4).timeLimit(Duration.ofSeconds(14))
                .recover(Duration.ofSeconds(3)).seed(3).out(store).build();
        RunOutcome outcome = new Runner(new PrintWriter(progress), Duration.ofSeconds(5)).run(config);
        RunDirectory dir = outcome.directory();
        CheckResult part = outcome.result().parts().stream()
                .filter(p -> p.checker().equals(SessionGuaranteesChecker.NAME)).findFirst().orElseThrow();
        assertThat(part.validity()).as(part.summary() + "\n" + progress).isEqualTo(Validity.VALID);
        SessionsReport report = (SessionsReport) part.details();
        assertThat(report.cutByWorkload()).as(part.summary()).isPositive();
        assertThat(report.promises()).filteredOn(p -> p.id().equals(SessionsReport.EXPIRED)).singleElement()
                .extracting(PromiseTally::tested).as(part.summary()).satisfies(n -> assertThat(n).isPositive());

        List<Operation> ops = HistoryFiles.read(dir.historyFile()).operations();
        Map<Integer, String> sessionOf = new HashMap<>();
        for (Operation op : ops) {
            if (op.f().equals("open") && op.isOk()) {
                sessionOf.put(op.process(), (String) ((Map<?, ?>) op.output()).get("session"));
            }
        }
        Set<String> cut = ops.stream().filter(op -> op.f().equals("cut") && op.isOk())
                .map(op -> sessionOf.get(op.process())).collect(Collectors.toSet());
        assertThat(cut).hasSize(report.cutByWorkload());
        StringBuilder logs = new StringBuilder();
        for (String n : List.of("n1", "n2", "n3")) {
            logs.append(Files.readString(dir.path().resolve(RunDirectory.NODES).resolve(n).resolve("server.log")));
        }
        assertThat(cut).as("the servers expired every session the workload cut off").allSatisfy(session ->
                assertThat(logs.toString()).contains("Expiring session " + session + ","));
        LeftOvers.assertNoServerOf(dir.path());
    }
}
