package io.zkchaos.harness.run;

import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.CLOSE;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.CRASH;
import static io.zkchaos.checkers.churn.ChurnEphemeralsChecker.EXPIRE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.churn.ChurnEphemeralsChecker;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.Operation;
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
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A set run on ZooKeeper 3.9.5 under kill-leader with {@code --churn 4}: sessions end by close, expiry and crash while
 * the leader dies, the servers themselves expire the abandoned ones, and after the final heal no server holds an
 * ephemeral of an ended session (seed 7: the lanes' first sessions end each way).
 */
class SessionChurnIT {

    @TempDir
    Path store;

    @Test
    void churnedSessionsEndEachWayAndLeaveNoEphemeralBehind() throws Exception {
        StringWriter progress = new StringWriter();
        RunConfig config = RunConfig.builder().workload("set").nemesis("kill-leader").zookeeper("3.9.5").churn(4)
                .timeLimit(Duration.ofSeconds(6)).faultFor(Duration.ofSeconds(2)).healFor(Duration.ofSeconds(1))
                .recover(Duration.ofSeconds(5)).concurrency(2).seed(7).out(store)
                // the set's availability under a 2 s kill on a loaded machine is not this test's claim
                .relax(List.of("acked-under-fault")).build();
        RunOutcome outcome = new Runner(new PrintWriter(progress), Duration.ofSeconds(5)).run(config);
        RunDirectory dir = outcome.directory();
        assertThat(outcome.result().validity()).as(outcome.result().summary() + "\n" + progress)
                .isEqualTo(Validity.VALID);
        assertThat(outcome.result().parts()).filteredOn(p -> p.checker().equals(ChurnEphemeralsChecker.NAME))
                .singleElement().extracting(CheckResult::validity).isEqualTo(Validity.VALID);

        List<Operation> ops = HistoryFiles.read(dir.historyFile()).operations();
        Map<Integer, String> sessionOf = new HashMap<>();
        Map<Integer, Operation> endOf = new HashMap<>();
        Map<Integer, Integer> created = new HashMap<>();
        for (Operation op : ops) {
            if (op.f().equals(ChurnEphemeralsChecker.OPEN) && op.isOk()) {
                sessionOf.put(op.process(), (String) ((Map<?, ?>) op.output()).get("session"));
            } else if (op.f().equals(ChurnEphemeralsChecker.CREATE) && op.isOk()) {
                created.merge(op.process(), 1, Integer::sum);
            } else if (ChurnEphemeralsChecker.ENDS.containsKey(op.f())) {
                endOf.put(op.process(), op);
            }
        }
        Map<String, Set<Integer>> byWay = endOf.values().stream().filter(Operation::isOk).collect(Collectors
                .groupingBy(Operation::f, TreeMap::new, Collectors.mapping(Operation::process, Collectors.toSet())));
        assertThat(byWay.keySet()).as("sessions ended each way: " + byWay).containsExactly(CLOSE, CRASH, EXPIRE);
        for (String way : List.of(EXPIRE, CRASH)) {
            assertThat(byWay.get(way)).as("a session ended by " + way + " had acknowledged ephemerals")
                    .anyMatch(p -> created.getOrDefault(p, 0) > 0);
        }

        // every server's read of the churn root: no ephemeral of a session that had ended before it
        List<Operation> reads = ops.stream().filter(op -> op.f().equals(ChurnEphemeralsChecker.READ)).toList();
        assertThat(reads).hasSize(3).allMatch(Operation::isOk);
        for (Operation read : reads) {
            Map<?, ?> children = (Map<?, ?>) ((Map<?, ?>) read.output()).get("children");
            Set<String> endedBefore = endOf.entrySet().stream()
                    .filter(e -> e.getValue().completeIndex() < read.invokeIndex())
                    .map(e -> sessionOf.get(e.getKey())).collect(Collectors.toSet());
            assertThat(children.values()).as("owners on " + read.output()).noneMatch(endedBefore::contains);
        }

        // the servers expired the abandoned sessions themselves: nobody closed them
        Path nodes = dir.path().resolve(RunDirectory.NODES);
        StringBuilder logs = new StringBuilder();
        for (String n : List.of("n1", "n2", "n3")) {
            logs.append(Files.readString(nodes.resolve(n).resolve("server.log")));
        }
        for (String way : List.of(EXPIRE, CRASH)) {
            for (int p : byWay.get(way)) {
                assertThat(logs.toString()).as(way + " session " + sessionOf.get(p))
                        .contains("Expiring session " + sessionOf.get(p) + ",");
            }
        }
        await("the churn's threads end").atMost(Duration.ofSeconds(30)).until(() -> Thread.getAllStackTraces()
                .keySet().stream().noneMatch(t -> t.getName().startsWith("churn-") || t.getName().startsWith("relay-")));
        LeftOvers.assertNoServerOf(dir.path());
    }
}
