package io.zkchaos.harness.mutation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.suite.Shard;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MutationMatrixShareTest {

    @Test
    void theSharesAreTheMatrixWithEachScenarioWholeInOneShare() {
        List<Mutation> full = MutationMatrix.full();
        int scenarios = (int) full.stream().map(Mutation::scenario).distinct().count();
        for (int n = 1; n <= scenarios; n++) {
            List<Mutation> all = new ArrayList<>();
            Set<MutationScenario> seen = new HashSet<>();
            for (int k = 1; k <= n; k++) {
                List<Mutation> share = MutationMatrix.share(full, new Shard(k, n, "zkchaos.mutations.shard"));
                assertThat(share).as("share %d/%d", k, n).isNotEmpty();
                assertThat(full).containsSubsequence(share);
                Set<MutationScenario> here = new HashSet<>();
                share.forEach(m -> here.add(m.scenario()));
                // the correct build runs once per scenario: a scenario split over two shares would run it twice
                assertThat(here).as("share %d/%d", k, n).noneMatch(seen::contains);
                seen.addAll(here);
                all.addAll(share);
            }
            assertThat(all).as("%d shares", n).containsExactlyInAnyOrderElementsOf(full);
        }
        assertThat(MutationMatrix.share(full, Shard.all("--shard"))).isEqualTo(full);
    }

    @Test
    void moreSharesThanScenariosIsAnErrorNamingTheOption() {
        assertThatThrownBy(() -> MutationMatrix.share(MutationMatrix.quick(), new Shard(3, 3, "--shard")))
                .hasMessageContaining("--shard=3/3: 2 scenario(s) fill only 2 shard(s)");
    }
}
