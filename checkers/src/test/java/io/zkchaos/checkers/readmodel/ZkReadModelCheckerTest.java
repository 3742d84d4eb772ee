package io.zkchaos.checkers.readmodel;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The whole read model, with the real WGL linearizability checker for writes, cas and sync-reads. */
class ZkReadModelCheckerTest {

    private static ZkReadModelChecker checker(boolean strict) {
        return ZkReadModelChecker.of(null, strict, Duration.ofSeconds(10));
    }

    /** Writes 1, 2, cas 2→3 on x; a follower-connected session then reads 1 (stale), a sync-read sees 3. */
    private static HistoryBuilder staleFollower() {
        return new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(1, "cas", "x", List.of(2L, 3L), 40).ok(1, null, 50)
                .invoke(2, "read", "x", null, 60).ok(2, 1L, 61)
                .invoke(3, "sync-read", "x", null, 70).ok(3, 3L, 71);
    }

    @Test
    void aStaleReadIsAllowedByDefault() {
        CheckResult r = checker(false).check(staleFollower().build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(r.parts()).singleElement().satisfies(p -> {
            assertThat(p.checker()).isEqualTo("linearizable");
            assertThat(p.validity()).isEqualTo(Validity.VALID);
        });
        ReadModelReport d = (ReadModelReport) r.details();
        assertThat(d.staleReads()).singleElement().satisfies(s -> assertThat(s.explanation())
                .startsWith("stale read, allowed by ZooKeeper's guarantees: process 2 read 1 from key x"));
        assertThat(r.summary()).isEqualTo("3 write(s)/cas and 1 sync-read(s) checked for linearizability "
                + "(linearizable); 1 plain read(s) checked per session, 1 stale (allowed by ZooKeeper's guarantees; "
                + "first: stale read, allowed by ZooKeeper's guarantees: process 2 read 1 from key x at index 7, "
                + "though 2 had been acknowledged at index 3, 30.0 ms before the read began).");
        JsonAssert.toJson(r);
    }

    @Test
    void aStaleReadFailsWhenStrict() {
        CheckResult r = checker(true).check(staleFollower().build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("1 stale (strict: stale reads fail the run; first: stale read");
    }

    @Test
    void aStaleSyncReadIsALinearizabilityViolation() {
        CheckResult r = checker(false).check(new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(3, "sync-read", "x", null, 70).ok(3, 1L, 71)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.parts().get(0).validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).startsWith("writes, cas and sync-reads (a sync-read shows as read): On key x, "
                + "process 3's read[x] -> 1 (history entries 4-5) cannot be linearized");
        assertThat(((ReadModelReport) r.details()).violations()).isEmpty();
    }

    @Test
    void aSessionGoingBackInTimeFailsEvenWithoutStrict() {
        CheckResult r = checker(false).check(staleFollower()
                .invoke(3, "read", "x", null, 80).ok(3, 2L, 81) // after its sync-read saw 3
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.parts().get(0).validity()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).startsWith("1 read(s) break ZooKeeper's guarantees: process 3 read 2 from key "
                + "x at index 11, older than 3 which the same session had already seen at index 9.");
    }

    @Test
    void aSyncReadOfTheInitialNullAfterAnAcknowledgedWriteFails() {
        // the cas-register model lets a nil read match any state (as Knossos does), so the session half catches it
        CheckResult r = checker(false).check(new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(2, "sync-read", "x", null, 20).ok(2, null, 21)
                .invoke(2, "read", "x", null, 30).ok(2, 1L, 31)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.parts().get(0).validity()).isEqualTo(Validity.VALID);
        assertThat(((ReadModelReport) r.details()).violations()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo("stale-sync-read");
            assertThat(v.explanation()).isEqualTo("process 2 sync-read the initial value null from key x at index 3, "
                    + "though 1 had been acknowledged at index 1");
        });
    }

    @Test
    void aValueNeverWrittenFails() {
        CheckResult r = checker(false).check(staleFollower()
                .invoke(4, "read", "x", null, 80).ok(4, 99L, 81)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("process 4 read 99 from key x at index 11, a value never written");
    }
}
