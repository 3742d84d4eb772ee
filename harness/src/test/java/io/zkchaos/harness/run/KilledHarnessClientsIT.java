package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.RunsAlone;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A harness killed with SIGKILL while it runs its clients as processes, one of them frozen by the nemesis: the
 * running clients notice that their harness is gone and halt; the frozen one cannot notice anything, and the next
 * run that starts in the same store reaps it (by its pid file and markers), with the orphaned servers.
 */
@RunsAlone
class KilledHarnessClientsIT {

    @TempDir
    Path store;

    @Test
    void aKilledHarnessLeavesNoClientProcessBehindFrozenOrNot() throws Exception {
        HarnessJvm harness = HarnessJvm.run(store, "--workload", "election", "--clients", "process",
                "--nemesis", "pause-leader-client", "--session-timeout", "2s", "--heal-for", "3s",
                "--fault-for", "90s", "--time-limit", "120s", "--hold", "1m", "--concurrency", "3", "--seed", "5");
        Path runDir;
        try {
            // Until the nemesis has frozen the leading client (its pause is recorded once the SIGSTOP was sent).
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                assertThat(harness.alive()).as("harness alive: %s", harness.output()).isTrue();
                Path h = harness.history();
                assertThat(h).as("history").isNotNull();
                assertThat(Files.readString(h)).contains("\"description\":\"pause client p");
            });
            runDir = harness.history().getParent();
            assertThat(LeftOvers.clientsOf(runDir)).hasSize(3);
        } finally {
            harness.kill(); // SIGKILL: no shutdown hook runs
        }

        // The two running clients see their harness's pipe close and halt; the frozen one stays.
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(LeftOvers.clientsOf(runDir)).as("clients of the killed harness").hasSize(1));
        long frozen = LeftOvers.clientsOf(runDir).get(0);
        assertThat(ProcessHandle.of(frozen).orElseThrow().info().command()).isPresent();
        assertThat(Files.readString(Path.of("/proc", Long.toString(frozen), "stat")).split(" ")[2])
                .as("state of the orphaned client (T: stopped)").isEqualTo("T");
        assertThat(LeftOvers.serversOf(runDir)).isNotEmpty();

        // The next run in the store reaps it before it starts anything.
        new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(RunConfig.builder()
                .workload("register").nemesis("none").timeLimit(Duration.ofSeconds(2)).recover(Duration.ZERO)
                .seed(1).out(store).build());
        assertThat(LeftOvers.clientsOf(runDir)).as("clients after the next run started").isEmpty();
        assertThat(LeftOvers.serversOf(runDir)).as("servers after the next run started").isEmpty();
        assertThat(ProcessHandle.of(frozen).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
}
