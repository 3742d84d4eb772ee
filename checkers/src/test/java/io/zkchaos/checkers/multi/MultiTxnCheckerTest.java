package io.zkchaos.checkers.multi;

import static io.zkchaos.checkers.ZnodeHistories.m;
import static io.zkchaos.checkers.ZnodeHistories.ops;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MultiTxnCheckerTest {

    private final MultiTxnChecker checker = new MultiTxnChecker(Duration.ofSeconds(30), false);
    private final MultiTxnChecker strict = new MultiTxnChecker(Duration.ofSeconds(30), true);

    /** A read of r0, r1 and e0 in one read-only multi: invoked with nils, answered with {@code values}. */
    private static HistoryBuilder readAll(HistoryBuilder h, int process, long ms, Long r0, Long r1, Long e0) {
        return h.invoke(process, "read", ops(m("read", "r0", null), m("read", "r1", null), m("read", "e0", null)), ms)
                .ok(process, ops(m("read", "r0", r0), m("read", "r1", r1), m("read", "e0", e0)), ms + 1);
    }

    /** p1 checks r0, sets r1 and creates e0; p3 sets r0 and deletes e0; p2 reads before and after. */
    private static HistoryBuilder good() {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(1, "txn", ops(m("check", "r0", null), m("set", "r1", 1L), m("create", "e0", 2L)), 0)
                .ok(1, ops(m("check", "r0", 0L), m("set", "r1", 1L), m("create", "e0", 2L)), 1);
        readAll(h, 2, 2, 0L, 1L, 2L);
        h.invoke(3, "txn", ops(m("set", "r0", 3L), m("delete", "e0", null)), 4)
                .ok(3, ops(m("set", "r0", 3L), m("delete", "e0", null)), 5);
        return readAll(h, 2, 6, 3L, 1L, null);
    }

    @Test
    void atomicLinearizableTransactionsAreValid() {
        CheckResult r = checker.check(good().build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        MultiReport d = (MultiReport) r.details();
        assertThat(d.registers()).containsExactly("r0", "r1");
        assertThat(d.nodes()).containsExactly("e0");
        assertThat(d.multiReads()).isEqualTo(2);
        assertThat(r.summary()).isEqualTo("2 transaction(s) acknowledged, 0 failed, 0 indeterminate, over 2 "
                + "register(s) and 1 node(s), linearizable as one multi-register; 2 read(s) of several znodes in one "
                + "read-only multi, held to ZooKeeper's read guarantees.");
        assertThat(r.parts()).singleElement().satisfies(p -> assertThat(p.checker()).isEqualTo("linearizable"));
        JsonAssert.toJson(r);
    }

    @Test
    void aValueOnlyAFailedTransactionWroteIsAnAbortedRead() {
        // The split client: its set of r1 landed, its create of e0 found e0 there, and it reported the whole failed.
        HistoryBuilder h = good()
                .invoke(4, "txn", ops(m("set", "r1", 7L), m("create", "e0", 8L)), 10);
        h.invoke(5, "txn", ops(m("create", "e0", 9L)), 11).ok(5, ops(m("create", "e0", 9L)), 12);
        h.fail(4, 13);
        CheckResult r = checker.check(readAll(h, 2, 14, 3L, 7L, 9L).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        MultiReport d = (MultiReport) r.details();
        assertThat(d.violations()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("aborted-read");
            assertThat(v.text()).isEqualTo("the read of process 2 (index 12-13, ok) read r1 = 7, which only the "
                    + "transaction of process 4 (index 8-11, fail) wrote: that transaction failed, so none of it "
                    + "happened (rejected)");
        });
        // Reads are not in the search unless strict; there the read of 7 cannot be placed either.
        assertThat(r.parts().get(0).validity()).isEqualTo(Validity.VALID);
        assertThat(strict.check(readAll(h, 2, 14, 3L, 7L, 9L).build()).parts().get(0).validity())
                .isEqualTo(Validity.INVALID);
    }

    @Test
    void aReadThatSeesHalfATransactionBesideWhatItReplacedIsFractured() {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L), m("set", "r1", 2L)), 0)
                .ok(1, ops(m("set", "r0", 1L), m("set", "r1", 2L)), 1)
                .invoke(1, "txn", ops(m("set", "r0", 3L), m("set", "r1", 4L)), 2)
                .ok(1, ops(m("set", "r0", 3L), m("set", "r1", 4L)), 3);
        CheckResult r = checker.check(h.invoke(2, "read", ops(m("read", "r0", null), m("read", "r1", null)), 4)
                .ok(2, ops(m("read", "r0", 3L), m("read", "r1", 2L)), 5).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((MultiReport) r.details()).violations()).singleElement().satisfies(v -> assertThat(v.text())
                .isEqualTo("the read of process 2 (index 4-5, ok) saw r0 = 3, written by the transaction of process "
                        + "1 (index 2-3, ok), but r1 = 2, written by the transaction of process 1 (index 0-1, ok), "
                        + "which completed before that transaction began, though that transaction made it 4"));
    }

    @Test
    void aCreatedNodeSeenAbsentBesideItsTransactionIsFracturedUnlessADeleteMayFollow() {
        CheckResult fractured = checker.check(setAndCreate()
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "e0", null)), 2)
                .ok(2, ops(m("read", "r0", 1L), m("read", "e0", null)), 3).build());
        assertThat(fractured.validity()).isEqualTo(Validity.INVALID);
        assertThat(((MultiReport) fractured.details()).violations()).singleElement().satisfies(v -> assertThat(
                v.text()).endsWith("but e0 = absent, and no delete of e0 that could follow it, though that "
                + "transaction made it 2"));

        CheckResult deleted = checker.check(setAndCreate()
                .invoke(3, "txn", ops(m("delete", "e0", null)), 2)
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "e0", null)), 3)
                .ok(2, ops(m("read", "r0", 1L), m("read", "e0", null)), 4)
                .ok(3, ops(m("delete", "e0", null)), 5).build());
        assertThat(deleted.validity()).as(deleted.summary()).isEqualTo(Validity.VALID);
    }

    /** p1 sets r0 to 1 and creates e0 with 2, in one transaction. */
    private static HistoryBuilder setAndCreate() {
        return new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L), m("create", "e0", 2L)), 0)
                .ok(1, ops(m("set", "r0", 1L), m("create", "e0", 2L)), 1);
    }

    /** p1 sets r0 to 1 (acknowledged); p2 then reads r0 = 0, the initial value. */
    private static HistoryBuilder staleRead() {
        return new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L)), 0).ok(1, ops(m("set", "r0", 1L)), 1)
                .invoke(2, "read", ops(m("read", "r0", null)), 2).ok(2, ops(m("read", "r0", 0L)), 3);
    }

    @Test
    void aStaleReadIsReportedAsAllowedAndFailsOnlyWhenStrict() {
        // ZooKeeper's reads are not linearizable, even after sync: a stale read is allowed and counted.
        CheckResult allowed = checker.check(staleRead().build());
        assertThat(allowed.validity()).as(allowed.summary()).isEqualTo(Validity.VALID);
        MultiReport d = (MultiReport) allowed.details();
        assertThat(d.staleReads()).isEqualTo(1);
        assertThat(d.stale()).containsExactly("the read of process 2 (index 2-3, ok) saw r0 = 0, though the "
                + "transaction of process 1 (index 0-1, ok), which made it 1, was acknowledged before it began");
        assertThat(allowed.summary()).endsWith("held to ZooKeeper's read guarantees; 1 stale (allowed: a read, "
                + "even after sync, is not linearizable; first: " + d.stale().get(0) + ").");

        CheckResult held = strict.check(staleRead().build());
        assertThat(held.validity()).isEqualTo(Validity.INVALID);
        assertThat(((MultiReport) held.details()).violations()).isEmpty();
        assertThat(held.summary()).startsWith("Transactions and reads as the multi-register model reads them: "
                + "Process 2's txn");
        assertThat(held.summary()).contains("held to real time (strict); 1 stale (strict: failed");
    }

    /** p1 sets r0 to 1, then p3 sets it to 2, then p1 sets it to 3; {@code reader} then reads 2. */
    private static HistoryBuilder readOfTwoAfterThree(int reader) {
        return new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L)), 0).ok(1, ops(m("set", "r0", 1L)), 1)
                .invoke(3, "txn", ops(m("set", "r0", 2L)), 2).ok(3, ops(m("set", "r0", 2L)), 3)
                .invoke(1, "txn", ops(m("set", "r0", 3L)), 4).ok(1, ops(m("set", "r0", 3L)), 5)
                .invoke(reader, "read", ops(m("read", "r0", null)), 6).ok(reader, ops(m("read", "r0", 2L)), 7);
    }

    @Test
    void aReadOlderThanItsOwnSessionsTransactionIsCaught() {
        // p1's own read returns 2: older than what its own session wrote last (p3's write completed before p1's
        // second began).
        CheckResult r = checker.check(readOfTwoAfterThree(1).build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        assertThat(((MultiReport) r.details()).violations()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("own-write");
            assertThat(v.text()).startsWith("the read of process 1 (index 6-7, ok) saw r0 = 2, ");
            assertThat(v.text()).endsWith("though the transaction of process 1 (index 4-5, ok), of the same "
                    + "session, had made it 3");
        });
        // The same read by another process is only stale: allowed.
        CheckResult other = checker.check(readOfTwoAfterThree(2).build());
        assertThat(other.validity()).as(other.summary()).isEqualTo(Validity.VALID);
        assertThat(((MultiReport) other.details()).staleReads()).isEqualTo(1);
    }

    @Test
    void aCheckThatSawAValueNoTransactionWroteIsCaught() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "txn", ops(m("check", "r0", null), m("set", "r1", 1L)), 0)
                .ok(1, ops(m("check", "r0", 42L), m("set", "r1", 1L)), 1).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((MultiReport) r.details()).violations()).extracting(MultiViolation::rule)
                .containsExactly("unwritten-read");
    }

    @Test
    void anIndeterminateTransactionMayHaveHappenedAsAWhole() {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L), m("set", "r1", 2L)), 0).info(1, 1);
        h.invoke(2, "txn", ops(m("set", "r0", 3L)), 2).ok(2, ops(m("set", "r0", 3L)), 3);
        CheckResult whole = checker.check(h.invoke(3, "read", ops(m("read", "r0", null), m("read", "r1", null)), 4)
                .ok(3, ops(m("read", "r0", 3L), m("read", "r1", 2L)), 5).build());
        assertThat(whole.validity()).as(whole.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void znodesNoTransactionWritesMustReadAlike() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L)), 0).ok(1, ops(m("set", "r0", 1L)), 1)
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "r9", null)), 2)
                .ok(2, ops(m("read", "r0", 1L), m("read", "r9", 0L)), 3)
                .invoke(2, "read", ops(m("read", "r9", null)), 4).ok(2, ops(m("read", "r9", 5L)), 5).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((MultiReport) r.details()).violations()).singleElement().satisfies(v -> assertThat(v.text())
                .isEqualTo("the read of process 2 (index 4-5, ok) read r9 = 5, but the read of process 2 (index 2-3, "
                        + "ok) read 0, and no transaction writes r9"));
    }

    @Test
    void nothingAcknowledgedIsUnknownAndMixedKindsAreMalformed() {
        CheckResult none = checker.check(new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L)), 0).fail(1, 1).build());
        assertThat(none.validity()).isEqualTo(Validity.UNKNOWN);
        assertThatThrownBy(() -> checker.check(new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "x", 1L)), 0).ok(1, ops(m("set", "x", 1L)), 1)
                .invoke(1, "txn", ops(m("delete", "x", null)), 2).ok(1, ops(m("delete", "x", null)), 3).build()))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("znode x is both checked or set (a register) and created or deleted (a node)");
        assertThatThrownBy(() -> checker.check(new HistoryBuilder()
                .invoke(1, "txn", ops(m("read", "x", null)), 0).ok(1, ops(m("read", "x", 1L)), 1).build()))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("a txn holds check, create, delete, set, not read");
    }

    /**
     * Issue 35: the headline rule, transactions linearizable as one multi-register, made to fail in the default mode.
     * p1's transaction sets r0 to 1 and is acknowledged; then p2's transaction, begun after that, checks r0 and finds
     * its initial 0 and sets r1 on the strength of it. No read rule sees it (the check saw the initial value, which
     * is no unwritten or aborted value, and no read is stale), only the search: no order puts p2's check before p1's
     * set. A mutant with the search skipped calls the same history valid, so the test would catch a checker that
     * lost its search.
     */
    @Test
    void aCheckThatMissedAnAcknowledgedTransactionIsNotLinearizableAndOnlyTheSearchSaysSo() {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L)), 0)
                .ok(1, ops(m("set", "r0", 1L)), 1)
                .invoke(2, "txn", ops(m("check", "r0", null), m("set", "r1", 5L)), 2)
                .ok(2, ops(m("check", "r0", 0L), m("set", "r1", 5L)), 3);
        h.invoke(3, "read", ops(m("read", "r0", null), m("read", "r1", null)), 4)
                .ok(3, ops(m("read", "r0", 1L), m("read", "r1", 5L)), 5);
        CheckResult real = checker.check(h.build());
        assertThat(real.validity()).as(real.summary()).isEqualTo(Validity.INVALID);
        assertThat(((MultiReport) real.details()).violationCount()).as("no read rule is broken").isZero();
        assertThat(real.parts()).singleElement().satisfies(p -> assertThat(p.validity()).isEqualTo(Validity.INVALID));
        assertThat(real.summary()).startsWith("Transactions as the multi-register model reads them: ");

        CheckResult mutant = new MultiTxnChecker(Duration.ofSeconds(30), false, false).check(h.build());
        assertThat(mutant.validity()).as("the mutant without the search: " + mutant.summary())
                .isEqualTo(Validity.VALID);
    }
}
