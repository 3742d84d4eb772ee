package io.zkchaos.fle.bugs;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.sim.SimCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The three server-account flags under {@link GeneralFaults} — crashes and isolations of random servers while clients
 * write, seeded, the same schedule for the correct build: each flag's code path is reached, and what it does shows
 * (an exception and a rejoin; a server ending itself; nothing of either in the correct build).
 */
class UnderGeneralFaultsTest {

    private static final Duration LENGTH = Duration.ofSeconds(120);
    private static final long SEED = 1;

    @Test
    void theCorrectBuildNeitherThrowsNorExits() {
        GeneralFaults.Run r = GeneralFaults.run(Bugs.NONE, SEED, LENGTH);
        assertThat(r.settled()).as("every server serves after the last heal").isTrue();
        assertThat(r.exceptions()).isEmpty();
        assertThat(r.cluster().exits()).isEmpty();
        assertThat(r.bugPaths()).isEmpty();
    }

    @Test
    void anEarlyCommitIsMetAndTheThrowingFollowerRejoinsEveryTime() {
        GeneralFaults.Run r = GeneralFaults.run(Bugs.of(Bug.THROW_ON_EARLY_COMMIT), SEED, LENGTH);
        SimCluster c = r.cluster();
        System.out.printf("throw-on-early-commit, seed %d, %s virtual, %d faults: code path %s, %d exception(s)%n",
                SEED, LENGTH, r.faults(), r.bugPaths(), r.exceptions().size());
        assertThat(r.bugPaths().get(Bug.THROW_ON_EARLY_COMMIT)).isPositive();
        List<SimCluster.Looking> thrown = r.exceptions();
        assertThat(thrown).hasSize(r.bugPaths().get(Bug.THROW_ON_EARLY_COMMIT).intValue());
        for (SimCluster.Looking l : thrown) {
            assertThat(c.servings()).as("n%d served again after its exception at %d ms", l.sid(), l.time())
                    .anyMatch(s -> s.sid() == l.sid() && s.time() > l.time());
        }
        assertThat(r.settled()).isTrue();
    }

    @Test
    void aTruncIsMetAndTheServerEndsItself() {
        GeneralFaults.Run r = GeneralFaults.run(Bugs.of(Bug.EXIT_ON_TRUNC), SEED, LENGTH);
        System.out.printf("exit-on-trunc, seed %d, %s virtual, %d faults: code path %s, %d exit(s)%n", SEED, LENGTH,
                r.faults(), r.bugPaths(), r.cluster().exits().size());
        assertThat(r.cluster().exits()).isNotEmpty().allSatisfy(e -> assertThat(e.code()).isEqualTo(5));
        assertThat(r.bugPaths().get(Bug.EXIT_ON_TRUNC)).isEqualTo(r.cluster().exits().size());
    }

    @Test
    void writesAreHeldPastTheirQuorum() {
        GeneralFaults.Run r = GeneralFaults.run(Bugs.of(Bug.COMMIT_ON_ALL_ACKS), SEED, LENGTH);
        System.out.printf("commit-on-all-acks, seed %d, %s virtual, %d faults: code path %s%n", SEED, LENGTH,
                r.faults(), r.bugPaths());
        assertThat(r.bugPaths().get(Bug.COMMIT_ON_ALL_ACKS)).isPositive();
    }
}
