package io.zkchaos.checkers.readmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-session analysis of plain reads, on its own. */
class SessionOrderTest {

    private static HistoryBuilder writes() {
        // x: 1 then 2 then 3, acknowledged one after another
        return new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 10)
                .invoke(1, "write", "x", 2L, 20).ok(1, null, 30)
                .invoke(1, "cas", "x", List.of(2L, 3L), 40).ok(1, null, 50);
    }

    @Test
    void aStaleButMonotonicSessionIsAllowedAndTheStalenessReported() {
        SessionReport r = SessionOrder.analyse(writes()
                .invoke(2, "read", "x", null, 60).ok(2, 1L, 61)
                .invoke(2, "read", "x", null, 70).ok(2, 2L, 71)
                .invoke(2, "read", "x", null, 80).ok(2, 3L, 81)
                .build(), null);
        assertThat(r.violations()).isEmpty();
        assertThat(r.staleReads()).hasSize(2);
        assertThat(r.staleReads().get(0)).satisfies(s -> {
            assertThat(s.value()).isEqualTo(1L);
            assertThat(s.newerValue()).isEqualTo(2L); // the first acknowledged overwrite
            assertThat(s.stalenessNanos()).isEqualTo(30_000_000L);
            assertThat(s.explanation()).isEqualTo("stale read, allowed by ZooKeeper's guarantees: process 2 read 1 "
                    + "from key x at index 7, though 2 had been acknowledged at index 3, 30.0 ms before the read "
                    + "began");
        });
    }

    @Test
    void aSessionReadingBackwardsIsAViolation() {
        SessionReport r = SessionOrder.analyse(writes()
                .invoke(2, "read", "x", null, 60).ok(2, 2L, 61)
                .invoke(2, "read", "x", null, 70).ok(2, 1L, 71)
                .build(), null);
        assertThat(r.violations()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo("read-backwards");
            assertThat(v.explanation()).isEqualTo("process 2 read 1 from key x at index 9, older than 2 which the "
                    + "same session had already seen at index 7");
        });
    }

    @Test
    void aSessionMustReadItsOwnWrites() {
        SessionReport r = SessionOrder.analyse(writes()
                .invoke(1, "read", "x", null, 60).ok(1, 2L, 61)
                .build(), null);
        assertThat(r.violations()).extracting(ReadViolation::kind).containsExactly("read-backwards");
        assertThat(r.violations().get(0).seenValue()).isEqualTo(3L);
    }

    @Test
    void concurrentWritesAreNeverHeldAgainstEachOther() {
        // 1 and 2 are concurrent: any order is possible, so reading 2 then 1 is not provably backwards
        SessionReport r = SessionOrder.analyse(new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).invoke(2, "write", "x", 2L, 1).ok(1, null, 10).ok(2, null, 11)
                .invoke(3, "read", "x", null, 20).ok(3, 2L, 21)
                .invoke(3, "read", "x", null, 22).ok(3, 1L, 23)
                .build(), null);
        assertThat(r.violations()).isEmpty();
        assertThat(r.staleReads()).isEmpty();
    }

    @Test
    void aSyncReadOrdersConcurrentWrites() {
        // the same, but a sync-read that began after both acks saw 2: so 1 came before 2, and reading 1 after
        // having seen 2 goes backwards
        SessionReport r = SessionOrder.analyse(new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).invoke(2, "write", "x", 2L, 1).ok(1, null, 10).ok(2, null, 11)
                .invoke(4, "sync-read", "x", null, 15).ok(4, 2L, 16)
                .invoke(3, "read", "x", null, 20).ok(3, 2L, 21)
                .invoke(3, "read", "x", null, 22).ok(3, 1L, 23)
                .build(), null);
        assertThat(r.violations()).extracting(ReadViolation::kind).containsExactly("read-backwards");
        assertThat(r.staleReads()).isEmpty(); // a read that goes backwards is reported as that, not also as stale
    }

    @Test
    void valuesNeverWrittenFailedOrFromTheFutureAreViolations() {
        SessionReport r = SessionOrder.analyse(new HistoryBuilder()
                .invoke(1, "write", "x", 5L, 0).fail(1, 1)
                .invoke(2, "read", "x", null, 2).ok(2, 5L, 3)
                .invoke(3, "read", "x", null, 4).ok(3, 42L, 5)
                .invoke(4, "read", "x", null, 6).ok(4, 7L, 7)
                .invoke(5, "write", "x", 7L, 8).ok(5, null, 9)
                .invoke(6, "read", "x", null, 10).ok(6, null, 11) // the initial value: fine
                .build(), null);
        assertThat(r.violations()).extracting(ReadViolation::kind)
                .containsExactly("failed-write", "never-written", "future-read");
        assertThat(r.violations().get(2).explanation()).isEqualTo("process 4 read 7 from key x at index 7, but its "
                + "write was invoked only at index 8");
    }

    @Test
    void keysAreIndependent() {
        SessionReport r = SessionOrder.analyse(new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 1)
                .invoke(1, "write", "y", 2L, 2).ok(1, null, 3)
                .invoke(2, "read", "y", null, 4).ok(2, 2L, 5)
                .invoke(2, "read", "x", null, 6).ok(2, 1L, 7)
                .build(), 0L);
        assertThat(r.violations()).isEmpty();
        assertThat(r.staleReads()).isEmpty();
    }

    @Test
    void aValueWrittenTwiceIsRejectedAsMalformed() {
        assertThatThrownBy(() -> SessionOrder.analyse(new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 1)
                .invoke(2, "write", "x", 1L, 2).ok(2, null, 3)
                .build(), null))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("value 1 is written twice on key x (also by process 1 at history index 0)");
    }
}
