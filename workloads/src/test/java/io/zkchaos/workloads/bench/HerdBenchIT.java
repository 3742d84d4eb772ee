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
 *
 * <p>The assertions are on the shape, not on exact counts, because the counts {@link HerdBench} takes can vary with
 * timing on a loaded machine. It decides that the candidates have settled when its counters have not moved for
 * 300 ms, and a candidate thread that is not scheduled for that long (CPU starvation, a GC pause) breaks that in two
 * ways: a failure's count can be taken before a woken candidate's re-read is counted (an under-count, which the next
 * failure may then count instead), and the next failure can start before the candidate that just joined has set its
 * watch (it then finds the node gone instead of being notified: N-2 woken instead of N-1). What cannot vary is
 * structural: in the herd-free recipe only the successor watches the leader's node, so at most one candidate is woken
 * per failure, and the new leader must have read the children to know it leads; in the naive recipe every waiting
 * candidate watches it.
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
        String table = HerdBench.format(List.of(free10, naive10, free50, naive50));
        System.out.print(table);

        // Herd-free: O(1) per failure, the same small constant at N = 10 and N = 50.
        for (HerdBench.Row free : List.of(free10, free50)) {
            assertThat(free.maxNotifications()).as("herd-free, N=%d: most candidates woken by one failure (only the "
                    + "successor watches the leader's node)%n%s", free.candidates(), table).isLessThanOrEqualTo(1);
            assertThat(free.getChildrenPerFailure()).as("herd-free, N=%d: getChildren calls per failure (the new "
                    + "leader's re-read, and at most a re-check or two)%n%s", free.candidates(), table)
                    .isBetween(1.0, 3.0);
        }
        // Naive: O(N) per failure. Every waiting candidate watches the leader's node; at least half of them must
        // have been seen woken however the timing went, which 10 candidates (at most 9) cannot reach at N = 50.
        for (HerdBench.Row naive : List.of(naive10, naive50)) {
            int waiting = naive.candidates() - 1;
            assertThat(naive.notificationsPerFailure()).as("naive, N=%d: candidates woken per failure (%d wait)%n%s",
                    naive.candidates(), waiting, table).isBetween(waiting / 2.0, (double) waiting);
            assertThat(naive.getChildrenPerFailure()).as("naive, N=%d: getChildren calls per failure%n%s",
                    naive.candidates(), table).isGreaterThanOrEqualTo(waiting / 2.0);
        }
        assertThat(naive50.notificationsPerFailure()).as("naive grows with N%n%s", table)
                .isGreaterThan(naive10.notificationsPerFailure());
        assertThat(naive50.notificationsPerFailure()).as("naive at N=50 against herd-free at N=50%n%s", table)
                .isGreaterThan(10 * free50.notificationsPerFailure());
    }
}
