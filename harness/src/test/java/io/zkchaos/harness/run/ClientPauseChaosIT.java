package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.leader.LeaderOverlap;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stalled-leader scenario of {@link ClientPauseFencingChaosIT} with Curator's LeaderLatch electing the leader, in the chaos
 * profile ({@code mvn -Pchaos verify}) to keep {@code mvn verify} short: the latch's frozen leader overlaps the new one
 * just as the own recipe's does, and the fenced store rejects what it writes when it wakes.
 */
class ClientPauseChaosIT {

    @TempDir
    Path store;

    @Test
    void curatorsLeaderLatchOverlapsAsWellWhenItsLeaderIsFrozen() throws Exception {
        RunOutcome o = ClientPauseFencingChaosIT.run(store, "election-curator", null);
        String frozen = ClientPauseFencingChaosIT.frozen(HistoryFiles.read(o.directory().historyFile()));
        LeaderOverlap overlap = ClientPauseFencingChaosIT.overlapOf(o, frozen);
        assertThat(overlap.frozenNanos()).isPositive();
        assertThat(overlap.fencingWouldReject()).isTrue();
        assertThat(o.result().validity()).as(o.result().summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void theFencedStoreRejectsTheFrozenLatchHoldersWrites() throws Exception {
        RunOutcome o = ClientPauseFencingChaosIT.run(store, "fenced-writes-curator", null);
        String frozen = ClientPauseFencingChaosIT.frozen(HistoryFiles.read(o.directory().historyFile()));
        assertThat(ClientPauseFencingChaosIT.overlapOf(o, frozen).fencingWouldReject()).isTrue();
        FencedReport fenced = (FencedReport) ClientPauseFencingChaosIT.part(o, "fenced-writes").details();
        assertThat(fenced.rejected()).isPositive();
        assertThat(fenced.staleLanded()).isZero();
        assertThat(o.result().validity()).as(o.result().summary()).isEqualTo(Validity.VALID);
    }
}
