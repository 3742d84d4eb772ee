package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.servers.AvailabilityReport;
import io.zkchaos.checkers.servers.LogRule;
import io.zkchaos.checkers.servers.ServerReport;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.FindingKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The servers' own account in whole runs of a real ZooKeeper 3.9.5 ensemble: a server process this test kills itself
 * (not the nemesis, not the harness) is a {@code server:crash} of the run, even though the final heal starts it again;
 * a follower cut off twice leaves I/O exceptions in the logs that are counted and are no finding, and the majority that
 * stays whole is judged available.
 */
class ServersAccountIT {

    @TempDir
    Path store;

    private static CheckResult part(RunOutcome o, String checker) {
        return o.result().parts().stream().filter(p -> p.checker().equals(checker)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + checker + " part in " + o.result().summary()));
    }

    @Test
    void aServerProcessTheTestKillsIsACrashOfTheRun() throws Exception {
        // kill-random's first fault would come after 60 s: in this run the nemesis only heals, at the end
        RunConfig config = RunConfig.builder().workload("set").nemesis("kill-random").seed(1).concurrency(3)
                .timeLimit(Duration.ofSeconds(12)).faultFor(Duration.ofSeconds(5)).healFor(Duration.ofSeconds(60))
                .recover(Duration.ofSeconds(3)).out(store).build();
        CompletableFuture<Long> killed = CompletableFuture.supplyAsync(this::killN2OnceClientsWork);
        RunOutcome outcome = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(config);
        long pid = killed.get(1, TimeUnit.MINUTES);

        CheckResult server = part(outcome, "server");
        assertThat(server.validity()).as(server.summary()).isEqualTo(Validity.INVALID);
        ServerReport report = (ServerReport) server.details();
        assertThat(report.crashes()).as("pid %d killed by the test", pid).singleElement().satisfies(c -> {
            assertThat(c.node()).isEqualTo("n2");
            assertThat(c.signal()).isEqualTo("KILL");
            assertThat(c.exitCode()).isEqualTo(137);
            assertThat(c.excusedBy()).isNull();
            assertThat(c.lastLines()).isNotEmpty();
        });
        assertThat(report.crashLoops()).as("started once, by the harness: no restart before the end").isEmpty();
        assertThat(FindingKind.of(outcome.result())).contains("server:crash");
        assertThat(server.summary()).startsWith("n2 exited by itself at");
    }

    /** Kills n2's process with the operating system's own kill, once the run's clients have written for a while. */
    private long killN2OnceClientsWork() {
        Path[] pidFile = new Path[1];
        await("n2's pid file and a working history").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    Optional<Path> run = runDirectory();
                    if (run.isEmpty() || !Files.isRegularFile(run.get().resolve("nodes/n2/server.pid"))) {
                        return false;
                    }
                    pidFile[0] = run.get().resolve("nodes/n2/server.pid");
                    Path history = run.get().resolve("history.jsonl");
                    try (Stream<String> lines = Files.lines(history)) {
                        return lines.count() > 300;
                    } catch (IOException e) {
                        return false;
                    }
                });
        try {
            long pid = Long.parseLong(Files.readAllLines(pidFile[0]).get(0).trim()); // then the owner's marker
            Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).redirectErrorStream(true).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -KILL " + pid).isTrue();
            return pid;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Optional<Path> runDirectory() throws IOException {
        try (Stream<Path> s = Files.walk(store, 2)) {
            return s.filter(p -> Files.isRegularFile(p.resolve("config.json"))).findFirst();
        }
    }

    @Test
    void aFollowerCutOffTwiceLeavesExpectedIoExceptionsAndTheWholeMajorityServes() throws Exception {
        RunOutcome outcome = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(
                RunConfig.builder().workload("set").nemesis("isolate-follower").seed(3).concurrency(3)
                        .timeLimit(Duration.ofSeconds(20)).faultFor(Duration.ofSeconds(6))
                        .healFor(Duration.ofSeconds(3)).recover(Duration.ofSeconds(3)).out(store).build());
        assertThat(outcome.result().validity()).as(outcome.result().summary()).isEqualTo(Validity.VALID);

        ServerReport servers = (ServerReport) part(outcome, "server").details();
        assertThat(servers.signatures()).as("the cut links' exceptions, counted")
                .anyMatch(s -> s.verdict() == LogRule.Verdict.EXPECTED && s.count() > 0);
        assertThat(servers.errors()).isEmpty();
        assertThat(servers.crashes()).isEmpty();
        assertThat(servers.nodes()).extracting(ServerReport.NodeRead::node).containsExactly("n1", "n2", "n3");
        assertThat(servers.nodes()).allMatch(n -> n.lines() > 0);

        CheckResult availability = part(outcome, "availability");
        AvailabilityReport a = (AvailabilityReport) availability.details();
        assertThat(a.stalls()).isEmpty();
        assertThat(a.stretchesJudged()).as(availability.summary()).isGreaterThanOrEqualTo(2);
        assertThat(a.judgedMillis()).as("a whole majority all the time: the follower cut off is not whole")
                .isGreaterThan(15_000);
        assertThat(a.probeAcks()).isGreaterThan(a.nodes().size() * 20);
        assertThat(List.of(availability.summary())).noneMatch(s -> s.contains("lasted longer than the bound"));
    }
}
