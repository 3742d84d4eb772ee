package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.checkers.servers.ServerEvent.Kind;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.results.ServerEventLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A real ensemble's server processes as the run records them ({@code servers.jsonl}): a server killed from outside
 * the harness (this test's own {@code kill -KILL}, not the nemesis, not the process layer) is an exit by itself, seen
 * within a bounded wait with its exit code, signal and last log lines; what the cluster itself does (the nemesis'
 * kills and restarts, the harness's start, stop and close) never is. The servers' log lines carry date and zone, on a
 * release that logs with logback (3.9.5) and on one that logs with log4j 1.2 (3.5.7).
 */
class ServerExitsIT extends ProcessesUnderRuns {

    /** A server log line as the servers now write it: {@code 2026-12-06T06:11:01.365Z INFO  [main] ...}. */
    static final Pattern DATED_LINE = Pattern.compile(
            "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) (INFO|WARN|ERROR|DEBUG) +\\[.*");
    /** How long an exit by itself may take to be recorded: the watch looks every 200 ms; slack for a loaded machine. */
    static final Duration SEEN_WITHIN = Duration.ofSeconds(5);

    @Test
    void aServerKilledFromOutsideIsAnExitByItselfAndTheClustersOwnActionsAreNot() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).proxied(false)
                .runDirectory(runs.resolve("exits")).build();
        Path file = runs.resolve("servers.jsonl");
        long historyStart;
        try (ServerEventLog.Appender out = ServerEventLog.append(file)) {
            LocalCluster cluster = LocalCluster.start(config);
            try {
                historyStart = System.nanoTime();
                cluster.servers().record(out::write, () -> System.nanoTime() - historyStart);
                assertThat(ServerEventLog.read(file)).as("the first starts, told before recording")
                        .extracting(ServerEvent::node, ServerEvent::kind, ServerEvent::by)
                        .containsExactly(started("n1", "harness"), started("n2", "harness"), started("n3", "harness"));

                String victim = "n2";
                long pid = cluster.pid(victim);
                long killedAt = System.nanoTime();
                Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).redirectErrorStream(true)
                        .start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -KILL " + pid)
                        .isTrue();
                await("the exit recorded").atMost(SEEN_WITHIN).pollInterval(Duration.ofMillis(20))
                        .until(() -> byThemselves(file).size() == 1);
                long seenMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                System.out.println("exit by itself recorded " + seenMillis + " ms after the kill");

                ServerEvent exit = byThemselves(file).get(0);
                assertThat(exit.node()).isEqualTo(victim);
                assertThat(exit.exitCode()).isEqualTo(137);
                assertThat(exit.signal()).isEqualTo("KILL");
                assertThat(exit.fault()).isNull();
                assertThat(exit.nemesis()).as("no nemesis told").isNull();
                assertThat(exit.timeNanos()).isBetween(killedAt - historyStart, System.nanoTime() - historyStart);
                assertThat(exit.epochMillis()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset
                        .offset(SEEN_WITHIN.toMillis()));
                assertThat(exit.lastLines()).hasSizeBetween(1, 30);
                assertThat(exit.lastLines()).as("the end of " + victim + "'s log, its lines dated")
                        .anyMatch(l -> DATED_LINE.matcher(l).matches());
                assertThat(cluster.state(victim)).isEqualTo(NodeState.DOWN);

                // From here on the nemesis acts, as a run's driver would say (the fault on the acting thread).
                cluster.servers().nemesis(() -> "kill-random", () -> "kill-random");
                cluster.start(victim); // the heal
                cluster.kill("n3");
                cluster.start("n3");
                cluster.stop("n1");
            } finally {
                cluster.close();
            }
        }
        List<ServerEvent> events = ServerEventLog.read(file);
        assertThat(events).filteredOn(ServerEvent::endedByItself).as("only the test's kill").hasSize(1);
        List<ServerEvent> after = events.subList(4, events.size());
        assertThat(after)
                .extracting(ServerEvent::node, ServerEvent::kind, ServerEvent::by, ServerEvent::fault)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("n2", Kind.STARTED, "nemesis", "kill-random"),
                        org.assertj.core.groups.Tuple.tuple("n3", Kind.EXITED, "nemesis", "kill-random"),
                        org.assertj.core.groups.Tuple.tuple("n3", Kind.STARTED, "nemesis", "kill-random"),
                        org.assertj.core.groups.Tuple.tuple("n1", Kind.EXITED, "harness", null),
                        org.assertj.core.groups.Tuple.tuple("n2", Kind.EXITED, "harness", null),
                        org.assertj.core.groups.Tuple.tuple("n3", Kind.EXITED, "harness", null));
        assertThat(after).filteredOn(e -> e.kind() == Kind.EXITED && !e.node().equals("n1"))
                .as("SIGKILLs").allSatisfy(e -> {
                    assertThat(e.exitCode()).isEqualTo(137);
                    assertThat(e.signal()).isEqualTo("KILL");
                });
        assertThat(after.get(3).signal()).as("a stop: SIGTERM, or SIGKILL past its bound").isIn("TERM", "KILL");
        assertThat(events).filteredOn(e -> !e.endedByItself()).allSatisfy(e -> assertThat(e.lastLines()).isEmpty());
        assertThat(events.subList(0, 3)).as("the first starts came before the history's clock began")
                .allSatisfy(e -> assertThat(e.timeNanos()).isNegative());
        assertThat(events.subList(3, events.size())).extracting(ServerEvent::timeNanos).isSorted();
    }

    @Test
    void aReleaseThatLogsWithLog4jDatesItsLinesToo() throws Exception {
        LocalCluster cluster = LocalCluster.start(ClusterConfig.builder().nodes(1).proxied(false).version("3.5.7")
                .runDirectory(runs.resolve("log4j")).build());
        try {
            List<String> lines = Files.readAllLines(cluster.logFile("n1"));
            assertThat(lines).as("3.5.7's log lines").anyMatch(l -> DATED_LINE.matcher(l).matches()
                    && l.contains("ZooKeeperServer"));
            System.out.println("3.5.7: " + lines.stream().filter(l -> DATED_LINE.matcher(l).matches())
                    .findFirst().orElseThrow());
        } finally {
            cluster.close();
        }
    }

    private static org.assertj.core.groups.Tuple started(String node, String by) {
        return org.assertj.core.groups.Tuple.tuple(node, Kind.STARTED, by);
    }

    private static List<ServerEvent> byThemselves(Path file) {
        return ServerEventLog.read(file).stream().filter(ServerEvent::endedByItself).toList();
    }
}
