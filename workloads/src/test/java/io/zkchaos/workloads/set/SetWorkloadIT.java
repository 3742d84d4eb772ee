package io.zkchaos.workloads.set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SetWorkloadIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);

    @Test
    void everyAcknowledgedAddIsInEveryServersFinalRead() throws Exception {
        SetWorkload w = new SetWorkload("/it/set", true);
        Target target = ensemble.get().target();
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(target, rec, 3L, 3, Duration.ofSeconds(2)));
        w.finalPhase(target, rec);
        History h = HistoryAssertions.wellFormed(rec::history);

        List<Object> acked = h.operations().stream().filter(o -> o.f().equals("add") && o.isOk())
                .map(Operation::output).toList();
        // How many adds 2 s allow depends on the machine (a figure for the bench); one is enough to check.
        assertThat(acked).isNotEmpty().doesNotHaveDuplicates();
        List<Operation> reads = h.operations().stream().filter(o -> o.f().equals("read")).toList();
        assertThat(reads).hasSize(3).allMatch(Operation::isOk);
        assertThat(reads.stream().map(o -> (Object) ((Map<?, ?>) o.output()).get("node")).toList())
                .containsExactly("n1", "n2", "n3");
        for (Operation r : reads) {
            @SuppressWarnings("unchecked")
            List<Object> values = (List<Object>) ((Map<?, ?>) r.output()).get("values");
            assertThat(values).as("final read of %s", r.output()).containsAll(acked);
            assertThat(values).hasSize(acked.size()); // no faults: nothing indeterminate, nothing extra
        }
    }

    @Test
    void aDownServersFinalReadIsInfoAndTheOthersAreStillRead() throws Exception {
        SetWorkload w = new SetWorkload("/it/set-down", false);
        Target target = ensemble.get().target(Duration.ofSeconds(2), Duration.ofSeconds(1));
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(target, rec, 5L, 2, Duration.ofSeconds(1)));
        ensemble.get().kill(3);
        try {
            // The recover phase: if n3 led, n1 and n2 elect a new leader first.
            Target slow = ensemble.get().target(Duration.ofSeconds(10), Duration.ofSeconds(5));
            await("n1 and n2 serve again").atMost(Duration.ofSeconds(60))
                    .until(() -> ensemble.get().serves(1, slow) && ensemble.get().serves(2, slow));
            w.finalPhase(slow, rec);
        } finally {
            ensemble.get().restart(3);
        }
        List<Operation> reads = HistoryAssertions.wellFormed(rec::history).operations().stream()
                .filter(o -> o.f().equals("read")).toList();
        assertThat(reads).hasSize(3);
        assertThat(reads.get(0).isOk()).isTrue();
        assertThat(reads.get(1).isOk()).isTrue();
        assertThat(reads.get(2).isInfo()).isTrue();
        assertThat(reads.get(2).error()).contains("n3");
    }
}
