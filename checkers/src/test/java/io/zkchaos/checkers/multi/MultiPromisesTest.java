package io.zkchaos.checkers.multi;

import static io.zkchaos.checkers.ZnodeHistories.m;
import static io.zkchaos.checkers.ZnodeHistories.ops;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.PromiseTally;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The multi-txn checker says how many committed, aborted and indeterminate transactions and reads it judged. */
class MultiPromisesTest {

    private final MultiTxnChecker checker = new MultiTxnChecker(Duration.ofSeconds(30), false);

    @Test
    void committedAbortedIndeterminateAndReadsAreCounted() {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(1, "txn", ops(m("check", "r0", null), m("set", "r1", 1L)), 0)
                .ok(1, ops(m("check", "r0", 0L), m("set", "r1", 1L)), 1)
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "r1", null)), 2)
                .ok(2, ops(m("read", "r0", 0L), m("read", "r1", 1L)), 3)
                .invoke(3, "txn", ops(m("check", "r1", null), m("set", "r0", 5L)), 4).fail(3, 5)
                .invoke(4, "txn", ops(m("set", "r0", 7L)), 6).info(4, 7)
                .invoke(1, "txn", ops(m("set", "r1", 2L)), 8).ok(1, ops(m("set", "r1", 2L)), 9);
        CheckResult r = checker.check(h.build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(((MultiReport) r.details()).promises()).extracting(PromiseTally::id, PromiseTally::tested)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("committed", 2L),
                        org.assertj.core.groups.Tuple.tuple("aborted", 1L),
                        org.assertj.core.groups.Tuple.tuple("indeterminate", 1L),
                        org.assertj.core.groups.Tuple.tuple("reads", 1L));
    }

    @Test
    void aRunWithoutAbortsSaysAbortsWereNotTested() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L)), 0).ok(1, ops(m("set", "r0", 1L)), 1).build());
        assertThat(((MultiReport) r.details()).promises()).filteredOn(t -> !t.wasTested())
                .extracting(PromiseTally::id).containsExactly("aborted", "indeterminate", "reads");
    }
}
