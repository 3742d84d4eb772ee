package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run's bug path totals from the nodes' per-process counts, as the observer's polls see them. */
class BugPathTallyTest {

    private static final String ABD = "ack-before-durable";
    private static final String NFW = "no-finalize-wait";

    @Test
    void aNodesCountsAreItsLatestAndNodesAddUp() {
        BugPathTally t = new BugPathTally();
        t.observed("n1", Map.of(ABD, 3L));
        t.observed("n1", Map.of(ABD, 7L));
        t.observed("n2", Map.of(ABD, 5L));
        assertThat(t.totals()).containsOnly(entry(ABD, 12L));
    }

    @Test
    void aCountThatDropsIsARestartAndWhatTheEarlierProcessCountedIsKept() {
        BugPathTally t = new BugPathTally();
        t.observed("n1", Map.of(ABD, 40L, NFW, 2L));
        t.observed("n1", Map.of()); // killed: no answer
        t.observed("n1", Map.of(ABD, 0L, NFW, 2L)); // restarted; one flag's count happens to be the same again
        t.observed("n1", Map.of(ABD, 9L, NFW, 3L));
        assertThat(t.totals()).containsOnly(entry(ABD, 49L), entry(NFW, 5L));
        t.observed("n1", Map.of(ABD, 1L, NFW, 0L)); // and once more
        assertThat(t.totals()).containsOnly(entry(ABD, 50L), entry(NFW, 5L));
    }

    @Test
    void nodesWithoutCountsMakeNoTotals() {
        BugPathTally t = new BugPathTally();
        t.observed("n1", Map.of());
        assertThat(t.any()).isFalse();
        assertThat(t.totals()).isEmpty();
        t.observed("n2", Map.of(NFW, 0L));
        assertThat(t.any()).isTrue();
        assertThat(t.totals()).containsOnly(entry(NFW, 0L));
    }
}
