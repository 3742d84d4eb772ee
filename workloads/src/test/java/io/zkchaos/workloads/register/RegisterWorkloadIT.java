package io.zkchaos.workloads.register;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RegisterWorkloadIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);

    @Test
    void withoutFaultsEveryOperationCompletesAndReadsNameRealWrites() throws Exception {
        RegisterWorkload w = new RegisterWorkload("/it/register-a", 3, RegisterWorkload.ReadMode.SYNC);
        Target target = ensemble.get().target();
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(target, rec, 7L, 4, Duration.ofSeconds(2)));
        History h = HistoryAssertions.wellFormed(rec::history);

        List<Operation> ops = h.operations();
        // Every client worked (how much, in 2 s, depends on the machine: a figure for the bench, not a test).
        assertThat(ops).extracting(Operation::process).as("processes that completed an operation")
                .contains(0, 1, 2, 3);
        assertThat(ops).noneMatch(Operation::isInfo);
        assertThat(ops).anyMatch(o -> o.f().equals("sync-read") && o.isOk() && o.output() != null);
        assertThat(ops).anyMatch(o -> o.f().equals("cas") && o.isOk());
        assertThat(ops).anyMatch(o -> o.f().equals("write") && o.isOk());
        Set<String> written = new HashSet<>();
        for (Operation o : ops) {
            if (o.f().equals("write")) {
                written.add(o.key() + "=" + o.input());
            } else if (o.f().equals("cas")) {
                written.add(o.key() + "=" + ((List<?>) o.input()).get(1));
            }
        }
        for (Operation o : ops) {
            if (o.f().equals("sync-read") && o.output() != null) {
                assertThat(written).as("read %s names a write to its key", o).contains(o.key() + "=" + o.output());
            }
        }
        // A failed cas says why, and no cas fails for a reason other than a value or version mismatch.
        assertThat(ops).filteredOn(o -> o.f().equals("cas") && o.isFail())
                .allMatch(o -> o.error().startsWith("value was") || o.error().startsWith("bad-version"));
    }

    @Test
    void killingTheServerTheClientsUseGivesInfoAndReplacementProcesses() throws Exception {
        RegisterWorkload w = new RegisterWorkload("/it/register-b", 2, RegisterWorkload.ReadMode.PLAIN);
        Target all = ensemble.get().target();
        w.setup(all);
        Target onN1 = ensemble.get().onlyServer(1, Duration.ofSeconds(3), Duration.ofSeconds(2));
        InMemoryRecorder rec = new InMemoryRecorder();
        // The run (at most 12 s) leaves room for the whole story below, which takes about 2 s on a quiet machine:
        // work, the kill, an info, the restart, and replacement processes working again; it is stopped after that.
        ClientDeadline end = ClientDeadline.after(Duration.ofSeconds(12));
        Thread runner = new Thread(() -> {
            try {
                w.run(new RunContext(onN1, rec, 11L, 3, Duration.ofSeconds(12), end));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runner.start();
        await("clients work").atMost(Duration.ofSeconds(30))
                .until(() -> rec.history().operations().size() > 20);
        ensemble.get().kill(1);
        try {
            // Each client sees the kill in its next operation: a read or write ends info, but a cas whose first
            // step (its read) is lost was never sent and fails, retiring the process. When all three draw a cas
            // (about 1 in 27) no info comes at all, so either outcome shows the kill was seen.
            await("the kill seen by a client: an info outcome, or a cas failed unsent").atMost(Duration.ofSeconds(30))
                    .until(() -> rec.history().operations().stream().anyMatch(o -> o.isInfo()
                            || o.isFail() && o.f().equals("cas") && isConnectionLoss(o.error())));
        } finally {
            ensemble.get().restart(1);
        }
        try {
            await("replacement processes work after the restart").atMost(Duration.ofSeconds(30))
                    .until(() -> rec.history().operations().stream().anyMatch(o -> o.process() >= 3 && o.isOk()));
        } finally {
            end.stop();
        }
        runner.join(Duration.ofSeconds(90).toMillis());
        assertThat(runner.isAlive()).as("the run ended within 90 s of its time").isFalse();

        History h = HistoryAssertions.wellFormed(rec::history);
        List<Operation> ops = h.operations();
        assertThat(ops).filteredOn(Operation::isInfo).allMatch(o -> isConnectionLoss(o.error()));
        // Replacement processes (numbers >= concurrency) did work after the restart.
        assertThat(ops).as("replacement processes worked after the restart")
                .anyMatch(o -> o.process() >= 3 && o.isOk());
        // Nothing was recorded as fail because of the kill: fails are definite mismatches or unsent cas writes.
        assertThat(ops).filteredOn(Operation::isFail).allMatch(o -> o.f().equals("cas"));
    }

    private static boolean isConnectionLoss(String error) {
        return error != null && (error.contains("connection-loss") || error.contains("timeout"));
    }
}
