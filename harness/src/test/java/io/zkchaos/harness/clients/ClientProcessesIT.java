package io.zkchaos.harness.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.WorkloadOptions;
import io.zkchaos.workloads.Workloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client processes against a real 3-node ensemble, driven directly (the nemesis's view, {@code ClientControl}): what
 * the history says when a client process is killed, or stays frozen past the end of the run, and that none is left.
 */
class ClientProcessesIT {

    @TempDir
    static Path runs;
    private static Cluster cluster;
    private static Target target;

    @BeforeAll
    static void startCluster() {
        cluster = ClusterBackends.require("local").start(ClusterConfig.builder().nodes(3)
                .runDirectory(runs.resolve("cluster")).build());
        Map<String, String> servers = new LinkedHashMap<>();
        cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
        target = new Target(cluster.connectString(), servers, Duration.ofSeconds(2), Duration.ofSeconds(3));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static WorkloadOptions leadersHold(String root) {
        return WorkloadOptions.defaults().withRoot(root).withHold(Duration.ofMinutes(1), Duration.ofMinutes(1));
    }

    /** Runs the clients for {@code d} on a thread of its own, as the runner does while the nemesis acts. */
    private static Thread runFor(ClientProcesses clients, Duration d, Duration grace) {
        Thread t = new Thread(() -> {
            try {
                clients.run(d, grace);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "clients");
        t.start();
        return t;
    }

    private static void assertGone(List<Long> pids) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(pids)
                .as("client processes still alive").noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive)
                        .orElse(false)));
    }

    private static int processOf(String client) {
        return Integer.parseInt(client.substring(1));
    }

    @Test
    void aKilledLeaderClientEndsItsLeadershipInTheHistoryAndANewProcessTakesItsSlot() throws Exception {
        WorkloadOptions options = leadersHold("/it/kill");
        Workloads.create("election", options).setup(target);
        InMemoryRecorder recorder = new InMemoryRecorder();
        ClientProcesses clients = ClientProcesses.launch(runs.resolve("kill"), "election", options, target, 3L, 3,
                recorder);
        List<Long> pids = clients.pids();
        assertThat(pids).hasSize(3);
        Thread running = runFor(clients, Duration.ofSeconds(20), Duration.ofSeconds(30));
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> clients.leader().isPresent());
            String leader = clients.leader().orElseThrow();
            int killed = processOf(leader);
            clients.kill(leader);
            // kill returns once the history says the process stopped leading (it had nothing outstanding: a
            // release the harness records, reason process-died, completed info).
            History now = History.of(recorder.history().ops());
            assertThat(now.operations()).filteredOn(o -> o.process() == killed && o.f().equals("release"))
                    .singleElement().satisfies(r -> {
                        assertThat(((Map<?, ?>) r.input()).get("reason")).isEqualTo("process-died");
                        assertThat(r.isInfo()).isTrue();
                        assertThat(r.error()).isEqualTo("client process killed by the nemesis");
                    });
            // A new process, with the slot's next number, volunteers; once the dead session expires, someone leads
            // with a later token.
            await().atMost(Duration.ofSeconds(60)).until(() -> recorder.history().ops().stream()
                    .anyMatch(o -> o.process() == killed + 3 && o.f().equals("acquire")));
            await().atMost(Duration.ofSeconds(60)).until(() -> clients.leader().filter(l -> !l.equals(leader))
                    .isPresent());
            assertThat(clients.clients()).hasSize(3).doesNotContain(leader).contains("p" + (killed + 3));
            pids = new java.util.ArrayList<>(pids);
            pids.addAll(clients.pids());
        } finally {
            // every step is done (it takes a few seconds of the 20 s run on a quiet machine): the clients end now,
            // as at the end of the run
            clients.stop();
            running.join(120_000);
            clients.close();
        }
        History h = History.of(recorder.history().ops());
        assertThat(h.operations()).as("every invoke completed").allMatch(o -> o.completeIndex() >= 0);
        assertThat(h.operations()).filteredOn(o -> o.f().equals("acquire") && o.isOk()).hasSizeGreaterThanOrEqualTo(2);
        assertGone(pids);
    }

    @Test
    void anEndMovedLaterReachesTheRunningProcessesAndTheyWorkOnUntilIt() throws Exception {
        WorkloadOptions options = WorkloadOptions.defaults().withRoot("/it/extend");
        Workloads.create("sessions", options).setup(target);
        long recorderStartedBy = System.nanoTime();
        InMemoryRecorder recorder = new InMemoryRecorder();
        ClientProcesses clients = ClientProcesses.launch(runs.resolve("extend"), "sessions", options, target, 5L, 2,
                recorder);
        List<Long> pids = clients.pids();
        Thread running = runFor(clients, Duration.ofSeconds(3), Duration.ofSeconds(20));
        long extendedAt;
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> !recorder.history().ops().isEmpty());
            extendedAt = System.nanoTime(); // before: every process's new end is at least 6 s after this
            clients.extend(Duration.ofSeconds(6)); // as a run does when its final heal ends
            running.join(120_000);
            assertThat(running.isAlive()).as("run() returned").isFalse();
        } finally {
            clients.close();
        }
        long lateFrom = extendedAt + TimeUnit.SECONDS.toNanos(4) - recorderStartedBy; // past the first end by far
        assertThat(recorder.history().ops()).as("operations invoked in the time the end was moved by")
                .anyMatch(o -> o.type() == OpType.INVOKE && o.time() > lateFrom);
        assertThat(Duration.ofNanos(System.nanoTime() - extendedAt)).as("the processes stopped at the new end")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(6));
        History h = History.of(recorder.history().ops());
        assertThat(h.operations()).as("every invoke completed").allMatch(o -> o.completeIndex() >= 0);
        assertGone(pids);
    }

    @Test
    void aClientFrozenPastTheEndOfTheRunIsKilledAndWhatItLeftOpenEndsInfo() throws Exception {
        WorkloadOptions options = leadersHold("/it/frozen");
        Workloads.create("election", options).setup(target);
        InMemoryRecorder recorder = new InMemoryRecorder();
        ClientProcesses clients = ClientProcesses.launch(runs.resolve("frozen"), "election", options, target, 4L, 2,
                recorder);
        List<Long> pids = clients.pids();
        Thread running = runFor(clients, Duration.ofSeconds(6), Duration.ofSeconds(3));
        String leader;
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> clients.leader().isPresent());
            leader = clients.leader().orElseThrow();
            clients.pause(leader); // and nobody resumes it
            assertThat(clients.state(leader)).isEqualTo(NodeState.PAUSED);
            running.join(120_000);
            assertThat(running.isAlive()).as("run() returned").isFalse();
        } finally {
            clients.close();
        }
        int frozen = processOf(leader);
        History h = History.of(recorder.history().ops());
        Operation release = h.operations().stream().filter(o -> o.process() == frozen && o.f().equals("release"))
                .findFirst().orElseThrow();
        assertThat(((Map<?, ?>) release.input()).get("reason")).isEqualTo("process-died");
        assertThat(release.isInfo()).isTrue();
        assertThat(release.error()).isEqualTo("client process did not finish within 3 s of the end of the run "
                + "(still frozen): killed");
        // The other client finished by itself: it resigned, and its every operation ended as it saw it.
        assertThat(h.operations()).filteredOn(o -> o.process() != frozen).allMatch(o -> o.completeIndex() >= 0)
                .noneMatch(o -> o.isInfo());
        Op last = h.ops().get(h.size() - 1);
        assertThat(last.type()).isEqualTo(OpType.INFO);
        assertGone(pids);
    }
}
