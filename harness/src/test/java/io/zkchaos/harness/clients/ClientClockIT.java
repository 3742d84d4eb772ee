package io.zkchaos.harness.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.ClientFaults;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.WorkloadOptions;
import io.zkchaos.workloads.Workloads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client process whose wall clock is moved really runs on it: with the client's clock set 2 h ahead, the wall
 * clock it reads in its own JVM ({@code System.currentTimeMillis}, sent with each invoke) is 2 h ahead of the
 * harness's, and the reset of the client clock fault brings it back; the process works on through both (its
 * sessions and its end of the run are timed on the monotonic clock).
 */
class ClientClockIT {

    @RegisterExtension
    static final ExecutionCondition LIBFAKETIME = Prerequisites.forClass("libfaketime", () ->
            ProcessClock.library().isPresent() ? Optional.empty()
                    : Optional.of("libfaketime is not installed (apt-get install libfaketime)"));

    private static final Duration AHEAD = Duration.ofHours(2);
    /** Far below the offset, far above the time a report takes to reach the harness on a loaded machine. */
    private static final Duration SLACK = Duration.ofMinutes(10);

    @TempDir
    Path runs;

    @Test
    void aClientProcessRunsOnItsMovedClockAndTheFaultsResetSetsItBack() throws Exception {
        try (Cluster cluster = ClusterBackends.require("local").start(ClusterConfig.builder().nodes(1)
                .runDirectory(runs.resolve("cluster")).build())) {
            Target target = new Target(cluster.connectString(), Map.of("n1", cluster.connectString("n1")),
                    Duration.ofSeconds(4), Duration.ofSeconds(3));
            WorkloadOptions options = WorkloadOptions.defaults().withRoot("/it/clock");
            Workloads.create("sessions", options).setup(target);
            InMemoryRecorder recorder = new InMemoryRecorder();
            List<Long> pids;
            try (ClientProcesses clients = ClientProcesses.launch(runs.resolve("clients"), "sessions", options, target,
                    5L, 1, recorder, true)) {
                pids = clients.pids();
                clients.start(Duration.ofMinutes(2), ClientProcesses.WORKING_BOUND);
                assertThat(Files.readString(runs.resolve("clients/c0/clock"))).isEqualTo("+0.000\n");
                await("the client's clock, reported").atMost(Duration.ofSeconds(30))
                        .until(() -> near(seen(clients), Duration.ZERO));

                // named by the process it runs now (a new session may be a new process: the slot keeps the clock)
                clients.setClockOffsets(Map.of(clients.clients().get(0), AHEAD));
                assertThat(clients.clockOffsets().values()).containsExactly(AHEAD);
                assertThat(Files.readString(runs.resolve("clients/c0/clock"))).isEqualTo("+7200.000\n");
                await("the client's clock 2 h ahead").atMost(Duration.ofSeconds(30))
                        .until(() -> near(seen(clients), AHEAD));

                // the fault's own reset, through the nemesis's view of the clients
                NemesisTarget faults = cluster.nemesisTarget(new Random(1)).withClients(clients);
                assertThat(new ClientFaults(faults, "heal").resetClientClocks().nodes()).hasSize(1);
                assertThat(clients.clockOffsets()).isEmpty();
                await("the client's clock back").atMost(Duration.ofSeconds(30))
                        .until(() -> near(seen(clients), Duration.ZERO));
            }
            await("the client process gone").atMost(Duration.ofSeconds(30)).until(() -> pids.stream()
                    .noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)));
        }
    }

    /** What the one client process reported of its clock last, if anything. */
    private static Duration seen(ClientProcesses clients) {
        return clients.clocksAhead().values().stream().findFirst().orElse(null);
    }

    private static boolean near(Duration seen, Duration expected) {
        return seen != null && seen.minus(expected).abs().compareTo(SLACK) < 0;
    }
}
