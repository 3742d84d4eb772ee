package io.zkchaos.checkers.fenced;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import java.util.List;
import org.junit.jupiter.api.Test;

class FencedWritesCheckerTest {

    private final FencedWritesChecker checker = new FencedWritesChecker();

    private static Object w(long token, String value) {
        return map("token", token, "value", value);
    }

    /** Leader with token 1 writes a; token 2 takes over and writes b; the stale leader's c is rejected. */
    private static HistoryBuilder fenced() {
        return new HistoryBuilder()
                .invoke(1, "fenced-write", w(1, "a"), 0).ok(1, null, 1)
                .invoke(2, "fenced-write", w(2, "b"), 2).ok(2, null, 3)
                .invoke(1, "fenced-write", w(1, "c"), 4).fail(1, 5)
                .invoke(2, "fenced-write", w(2, "d"), 6).ok(2, null, 7);
    }

    @Test
    void aStaleLeaderRejectedByItsTokenIsValid() {
        CheckResult r = checker.check(fenced()
                .okOp(9, "read", null, List.of(w(1, "a"), w(2, "b"), w(2, "d")), 10).build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).isEqualTo("3 write(s) accepted, 1 rejected as stale, 0 indeterminate; "
                + "log of 3 entries checked.");
        JsonAssert.toJson(r);
    }

    @Test
    void aLowerTokenAcceptedAfterAHigherOneFails() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(2, "fenced-write", w(2, "b"), 0).ok(2, null, 1)
                .invoke(1, "fenced-write", w(1, "c"), 2).ok(1, null, 3)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((FencedReport) r.details()).violations()).singleElement()
                .satisfies(v -> assertThat(v.kind()).isEqualTo("accepted-after-higher"));
        assertThat(r.summary()).startsWith("1 fencing violation(s): write c with token 1 (process 1, acknowledged at "
                + "index 3) was accepted after token 2 had been accepted at index 1.");
        assertThat(((FencedReport) r.details()).staleLanded()).isEqualTo(1);
        assertThat(r.summary()).contains("1 stale write(s) landed after a newer leader's");
    }

    @Test
    void staleWritesThatLandedAreCountedOnceWhateverRevealsThem() {
        // An unfenced store: the stale leader's c and e land after the newer leader's b, seen in real time and in the
        // log; each is counted once.
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "fenced-write", w(1, "a"), 0).ok(1, null, 1)
                .invoke(2, "fenced-write", w(2, "b"), 2).ok(2, null, 3)
                .invoke(1, "fenced-write", w(1, "c"), 4).ok(1, null, 5)
                .invoke(1, "fenced-write", w(1, "e"), 6).ok(1, null, 7)
                .okOp(9, "read", null, List.of(w(1, "a"), w(2, "b"), w(1, "c"), w(1, "e")), 10).build());
        FencedReport d = (FencedReport) r.details();
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(d.violations()).extracting(FencedViolation::kind).containsExactly("accepted-after-higher",
                "accepted-after-higher", "log-order", "log-order");
        assertThat(d.staleLanded()).isEqualTo(2);
        assertThat(checker.check(fenced().build()).details()).extracting("staleLanded").isEqualTo(0);
    }

    @Test
    void theLogRevealsAStaleWriteStoredAfterAHigherTokenAndARejectedOneStored() {
        // concurrent writes: real time cannot tell, the store's log can
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(1, "fenced-write", w(1, "a"), 0).invoke(2, "fenced-write", w(2, "b"), 0)
                .ok(2, null, 1).ok(1, null, 2)
                .invoke(1, "fenced-write", w(1, "c"), 3).fail(1, 4)
                .okOp(9, "read", null, List.of(w(2, "b"), w(1, "a"), w(1, "c")), 10).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((FencedReport) r.details()).violations()).extracting(FencedViolation::kind)
                .containsExactly("log-order", "log-order", "rejected-but-stored");
        assertThat(r.summary()).contains("log entry 1 (a, token 1) was stored after entry 0 with the higher token 2")
                .contains("log entry 2 (c, token 1) was rejected as stale at index 5 yet stored");
    }

    @Test
    void anIndeterminateWriteMayBeInTheLogOrNot() {
        // e's outcome is unknown (info) and it was stored; f's is unknown and it was not; g was invoked and never
        // completed (the process died), and it was stored. None of this is a violation.
        CheckResult r = checker.check(fenced()
                .invoke(2, "fenced-write", w(2, "e"), 8).info(2, 9)
                .invoke(3, "fenced-write", w(2, "f"), 10).info(3, 11)
                .invoke(4, "fenced-write", w(2, "g"), 12)
                .okOp(9, "read", null, List.of(w(1, "a"), w(2, "b"), w(2, "d"), w(2, "e"), w(2, "g")), 20).build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).isEqualTo("3 write(s) accepted, 1 rejected as stale, 3 indeterminate; "
                + "log of 5 entries checked.");
        FencedReport report = (FencedReport) r.details();
        assertThat(report.indeterminate()).isEqualTo(3);
        assertThat(report.violations()).isEmpty();
        JsonAssert.toJson(r);
    }

    @Test
    void anIndeterminateWriteStoredOutOfTokenOrderIsStillAViolation() {
        // The stale leader's write timed out (info), yet the store took it after token 2: the log shows it.
        CheckResult r = checker.check(fenced()
                .invoke(1, "fenced-write", w(1, "e"), 8).info(1, 9)
                .okOp(9, "read", null, List.of(w(1, "a"), w(2, "b"), w(2, "d"), w(1, "e")), 20).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((FencedReport) r.details()).violations()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo("log-order");
            assertThat(v.explanation()).isEqualTo("log entry 3 (e, token 1) was stored after entry 1 with the "
                    + "higher token 2");
        });
        assertThat(r.summary()).endsWith("3 write(s) accepted, 1 rejected as stale, 1 indeterminate; 1 stale "
                + "write(s) landed after a newer leader's; log of 4 entries checked.");
    }

    @Test
    void aLogEntryNoWriteInvokedFails() {
        CheckResult r = checker.check(fenced()
                .okOp(9, "read", null, List.of(w(1, "a"), w(2, "b"), w(2, "d"), w(2, "z")), 10).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((FencedReport) r.details()).violations()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo("never-written");
            assertThat(v.value()).isEqualTo("z");
        });
        assertThat(r.summary()).isEqualTo("1 fencing violation(s): log entry 3 (z, token 2) was never written. "
                + "3 write(s) accepted, 1 rejected as stale, 0 indeterminate; log of 4 entries checked.");
    }

    @Test
    void anAcknowledgedWriteMissingFromTheLogFails() {
        CheckResult r = checker.check(fenced().okOp(9, "read", null, List.of(w(1, "a"), w(2, "d")), 10).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("write b with token 2 was acknowledged at index 3 but is not in the log");
    }
}
