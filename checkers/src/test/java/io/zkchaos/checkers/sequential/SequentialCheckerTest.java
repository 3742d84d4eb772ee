package io.zkchaos.checkers.sequential;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static io.zkchaos.checkers.ZnodeHistories.asked;
import static io.zkchaos.checkers.ZnodeHistories.child;
import static io.zkchaos.checkers.ZnodeHistories.got;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SequentialCheckerTest {

    private final SequentialChecker checker = new SequentialChecker();

    private static Map<String, Object> finalRead(String node, Map<String, Object> children) {
        return map("node", node, "children", children);
    }

    /**
     * p1 creates 1 (seq 0) then 3 (seq 2); p2 creates 2 (seq 1) concurrently with 3; p3's create of 4 ends info and
     * is absent; p4's ephemeral 5 (seq 3) is read by its own session; then both servers' final reads.
     */
    private static HistoryBuilder good() {
        return new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).ok(1, got(1, "persistent", 0), 1)
                .invoke(2, "create", "p0", asked(2, "persistent"), 2)
                .invoke(1, "create", "p0", asked(3, "persistent"), 3)
                .ok(1, got(3, "persistent", 2), 4).ok(2, got(2, "persistent", 1), 5)
                .invoke(3, "create", "p0", asked(4, "persistent"), 6).info(3, 7)
                .invoke(4, "create", "p0", asked(5, "ephemeral"), 8).ok(4, got(5, "ephemeral", 3), 9)
                .invoke(4, "read", "p0", null, 10).ok(4, map("children", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2), child(5, 3)))), 11);
    }

    @Test
    void uniqueOrderedAndKeptIsValid() {
        CheckResult r = checker.check(good()
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2)))), 20)
                .okOp(1_000_001, "read", null, finalRead("n2", map("p0", List.of(child(3, 2), child(1, 0),
                        child(2, 1)))), 21)
                .build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        SequentialReport d = (SequentialReport) r.details();
        assertThat(d.acknowledged()).isEqualTo(4);
        assertThat(d.ephemeral()).isEqualTo(1);
        assertThat(d.indeterminate()).isEqualTo(1);
        assertThat(d.indeterminatePresent()).isZero();
        assertThat(d.finalReads()).containsExactly("n1", "n2");
        assertThat(r.summary()).isEqualTo("4 acknowledged sequential create(s) under 1 parent(s) (1 ephemeral), "
                + "1 indeterminate (0 present once, 1 absent), 0 failed; 3 read(s) checked, the final reads of n1, "
                + "n2.");
        JsonAssert.toJson(r);
    }

    @Test
    void anIndeterminateCreatePresentOnceIsValidTwiceIsADuplicate() {
        CheckResult once = checker.check(good()
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2), child(4, 4)))), 20)
                .build());
        assertThat(once.validity()).as(once.summary()).isEqualTo(Validity.VALID);
        assertThat(((SequentialReport) once.details()).indeterminatePresent()).isEqualTo(1);

        CheckResult twice = checker.check(good()
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2), child(4, 4), child(4, 5)))), 20)
                .build());
        assertThat(twice.validity()).isEqualTo(Validity.INVALID);
        assertThat(twice.summary()).startsWith("1 violation(s): duplicate: the final read of n1 (index 12) holds "
                + "value 4 twice under p0 ('v4-0000000004', 'v4-0000000005'): a create happens once or not at all.");
    }

    @Test
    void twoAcknowledgementsOfOneNameOrOneNumberAreNotUnique() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0)
                .invoke(2, "create", "p0", asked(2, "persistent"), 1)
                .ok(1, got(1, "persistent", 7), 2).ok(2, got(2, "persistent", 7), 3)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 7), child(2, 7)))), 20)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        SequentialReport d = (SequentialReport) r.details();
        assertThat(d.violations()).extracting(SequentialViolation::rule).containsExactly("unique-name",
                "unique-name");
        assertThat(d.violations().get(0).text()).isEqualTo("process 2's create of 2 under p0 and process 1's "
                + "create of 1 under p0 both got sequence number 7 ('v1-0000000007', 'v2-0000000007')");
        assertThat(d.violations().get(1).text()).isEqualTo("the final read of n1 (index 4) holds 'v1-0000000007' "
                + "and 'v2-0000000007' under p0: one sequence number, two children");
    }

    @Test
    void aCreateBegunAfterAnotherWasAcknowledgedGetsAHigherNumber() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).ok(1, got(1, "persistent", 5), 1)
                .invoke(2, "create", "p0", asked(2, "persistent"), 2).ok(2, got(2, "persistent", 4), 3)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 5), child(2, 4)))), 20)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).startsWith("1 violation(s): order: process 2's create of 2 under p0 (invoked at "
                + "index 2) got sequence number 4, lower than 5 of process 1's create of 1 under p0, acknowledged "
                + "before it began (index 1).");
    }

    @Test
    void concurrentCreatesMayBeNumberedEitherWay() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0)
                .invoke(2, "create", "p0", asked(2, "persistent"), 1)
                .ok(1, got(1, "persistent", 1), 2).ok(2, got(2, "persistent", 0), 3)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(2, 0), child(1, 1)))), 20)
                .build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void aMadeUpNameIsCaughtByItsOwnNumberAndByTheServers() {
        // The client reported seq 9 for a child the servers hold as seq 1.
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0)
                .ok(1, map("value", 1L, "mode", "persistent", "name", child(1, 9), "seq", 9L), 1)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 1)))), 20)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        SequentialReport d = (SequentialReport) r.details();
        assertThat(d.violations()).extracting(SequentialViolation::rule).containsExactly("name-mismatch", "lost");
        assertThat(d.violations().get(0).text()).isEqualTo("process 1's create of 1 under p0 was acknowledged as "
                + "'v1-0000000009' (index 1), but the final read of n1 (index 2) holds it as 'v1-0000000001'");
        assertThat(d.violations().get(1).text()).isEqualTo("process 1's create of 1 under p0 was acknowledged as "
                + "'v1-0000000009' (index 1), but the final read of n1 (index 2) does not hold it");

        CheckResult wrongValue = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0)
                .ok(1, map("value", 1L, "mode", "persistent", "name", child(7, 0), "seq", 0L), 1)
                .build());
        assertThat(((SequentialReport) wrongValue.details()).violations()).extracting(SequentialViolation::rule)
                .containsExactly("name-mismatch");
    }

    @Test
    void anAcknowledgedChildMissingFromAFinalReadOrASyncedReadIsLost() {
        CheckResult r = checker.check(good()
                .invoke(6, "read", "p0", null, 12).ok(6, map("children", map("p0", List.of(child(1, 0), child(3, 2)))),
                        13)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2)))), 20)
                .okOp(1_000_001, "read", null, finalRead("n2", map("p0", List.of(child(1, 0), child(3, 2)))), 21)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        SequentialReport d = (SequentialReport) r.details();
        assertThat(d.violations()).extracting(SequentialViolation::rule).containsExactly("lost", "lost");
        assertThat(d.violations().get(0).text()).isEqualTo("process 6's read of p0 (index 12, synced) misses "
                + "'v2-0000000001', process 2's create of 2 under p0, acknowledged before it began (index 5)");
        assertThat(d.violations().get(1).text()).isEqualTo("process 2's create of 2 under p0 was acknowledged as "
                + "'v2-0000000001' (index 5), but the final read of n2 (index 16) does not hold it");
    }

    @Test
    void anEphemeralIsRequiredOnlyInItsOwnSessionsReads() {
        // p6 reads without p4's ephemeral (another session: it may have ended) -- fine; p4 itself must see it.
        CheckResult others = checker.check(good()
                .invoke(6, "read", "p0", null, 12).ok(6, map("children", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2)))), 13)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2)))), 20)
                .build());
        assertThat(others.validity()).as(others.summary()).isEqualTo(Validity.VALID);
        CheckResult own = checker.check(good()
                .invoke(4, "read", "p0", null, 12).ok(4, map("children", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2)))), 13)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 0), child(2, 1),
                        child(3, 2)))), 20)
                .build());
        assertThat(own.validity()).isEqualTo(Validity.INVALID);
        assertThat(own.summary()).contains("(an ephemeral of its own session)");
    }

    @Test
    void aChildNoCreateMadeOrWhoseCreateFailedIsAPhantom() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).ok(1, got(1, "persistent", 0), 1)
                .invoke(2, "create", "p0", asked(2, "persistent"), 2).fail(2, 3)
                .okOp(1_000_000, "read", null, finalRead("n1", map("p0", List.of(child(1, 0), child(2, 1),
                        child(8, 2)))), 20)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((SequentialReport) r.details()).violations()).extracting(SequentialViolation::text)
                .containsExactly("the final read of n1 (index 4) holds 'v2-0000000001' under p0, though process 2's "
                                + "create of 2 under p0 failed (index 3)",
                        "the final read of n1 (index 4) holds 'v8-0000000002' under p0, which no create made");
    }

    @Test
    void nothingAcknowledgedOrNoFinalReadIsUnknown() {
        CheckResult none = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).info(1, 1).build());
        assertThat(none.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(none.summary()).startsWith("No sequential create was acknowledged: nothing to check.");
        CheckResult unread = checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).ok(1, got(1, "persistent", 0), 1).build());
        assertThat(unread.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(unread.summary()).startsWith("No server's final read completed");
    }

    @Test
    void aCreateWithoutItsModeIsMalformed() {
        assertThatThrownBy(() -> checker.check(new HistoryBuilder()
                .invoke(1, "create", "p0", map("value", 1L), 0).ok(1, null, 1).build()))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("the create's \"mode\" must be persistent or ephemeral, got null");
    }
}
