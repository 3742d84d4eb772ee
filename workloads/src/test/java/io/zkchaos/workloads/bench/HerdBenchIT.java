package io.zkchaos.workloads.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.election.LeaderElection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The herd metric on a real 3-node ensemble: per leader failure, the herd-free recipe wakes one candidate and makes
 * about one getChildren call whatever N is; the naive recipe wakes every waiting candidate (N-1).
 */
class HerdBenchIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);

    @Test
    void herdFreeStaysConstantWhileNaiveGrowsWithTheNumberOfCandidates() throws Exception {
        Target target = ensemble.get().target(Duration.ofSeconds(10), Duration.ofSeconds(5));
        int failures = 3;
        HerdBench.Row free10 = HerdBench.measure(target, "/it/herd/free10", LeaderElection.Watching.PREDECESSOR, 10,
                failures);
        HerdBench.Row naive10 = HerdBench.measure(target, "/it/herd/naive10", LeaderElection.Watching.SMALLEST, 10,
                failures);
        HerdBench.Row free50 = HerdBench.measure(target, "/it/herd/free50", LeaderElection.Watching.PREDECESSOR, 50,
                failures);
        HerdBench.Row naive50 = HerdBench.measure(target, "/it/herd/naive50", LeaderElection.Watching.SMALLEST, 50,
                failures);
        System.out.print(HerdBench.format(List.of(free10, naive10, free50, naive50)));

        for (HerdBench.Row free : List.of(free10, free50)) {
            assertThat(free.notificationsPerFailure()).as("herd-free notifications, N=%d", free.candidates())
                    .isEqualTo(1.0);
            assertThat(free.getChildrenPerFailure()).as("herd-free getChildren, N=%d", free.candidates())
                    .isBetween(1.0, 2.0);
        }
        // Every waiting candidate is woken: N-1 of them.
        assertThat(naive10.notificationsPerFailure()).isEqualTo(9.0);
        assertThat(naive50.notificationsPerFailure()).isEqualTo(49.0);
        assertThat(naive50.getChildrenPerFailure()).isGreaterThanOrEqualTo(49.0);
        assertThat(naive50.getChildrenPerFailure()).isGreaterThan(4 * naive10.getChildrenPerFailure());
    }
}
