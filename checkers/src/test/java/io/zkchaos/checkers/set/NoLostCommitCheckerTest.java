package io.zkchaos.checkers.set;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoLostCommitCheckerTest {

    private final NoLostCommitChecker checker = new NoLostCommitChecker();

    /** Adds 1, 2 (ok), 3 (info), 4 (fail); then the per-server final reads. */
    private static HistoryBuilder adds() {
        return new HistoryBuilder()
                .invoke(1, "add", 1L, 10).ok(1, null, 12)
                .invoke(2, "add", 2L, 20).ok(2, null, 25)
                .invoke(1, "add", 3L, 30).info(1, 40)
                .invoke(3, "add", 4L, 50).fail(3, 55)
                .nemesis("heal", 60, 61);
    }

    @Test
    void everyAcknowledgedAddOnEveryServerIsValidWhateverTheInfoAddDid() {
        CheckResult r = checker.check(adds()
                .okOp(9, "read", null, map("node", "n1", "values", List.of(1L, 2L, 3L)), 100)
                .okOp(9, "read", null, map("node", "n2", "values", List.of(2L, 1L)), 101)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        SetReport d = (SetReport) r.details();
        assertThat(d.acknowledged()).isEqualTo(2);
        assertThat(d.indeterminate()).isEqualTo(1);
        assertThat(d.infoPresent()).isEqualTo(1);
        assertThat(d.finalReads()).extracting(FinalRead::source).containsExactly("n1", "n2");
        assertThat(r.summary()).isEqualTo("2 of 4 add(s) acknowledged, checked against 2 final read(s); "
                + "1 indeterminate (1 present, 0 absent).");
        JsonAssert.toJson(r);
    }

    @Test
    void aLostAddIsListedWithItsTimesAndTheServersThatLackIt() {
        CheckResult r = checker.check(adds()
                .okOp(9, "read", null, map("node", "n1", "values", List.of(1L, 2L)), 100)
                .okOp(9, "read", null, map("node", "n2", "values", List.of(1L)), 101)
                .okOp(9, "read", null, map("node", "n3", "values", List.of(1L)), 102)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        SetReport d = (SetReport) r.details();
        assertThat(d.lost()).singleElement().satisfies(l -> {
            assertThat(l.value()).isEqualTo(2L);
            assertThat(l.invokeNanos()).isEqualTo(20_000_000L);
            assertThat(l.ackNanos()).isEqualTo(25_000_000L);
            assertThat(l.lackingIn()).containsExactly("n2", "n3");
        });
        assertThat(r.summary()).startsWith("1 acknowledged add(s) lost: 2 (added by process 2, invoked at 20.0 ms, "
                + "acknowledged at 25.0 ms, missing on n2, n3).");
        assertThat(JsonAssert.toJson(r)).contains("\"lackingIn\" : [ \"n2\", \"n3\" ]");
    }

    @Test
    void aValueNeverAddedOrWhoseAddFailedIsUnexpected() {
        CheckResult r = checker.check(adds()
                .okOp(9, "read", null, List.of(1L, 2L, 4L, 99L), 100)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((SetReport) r.details()).unexpected()).extracting(UnexpectedValue::value, UnexpectedValue::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(4L, "add failed"),
                        org.assertj.core.groups.Tuple.tuple(99L, "never added"));
        assertThat(r.summary()).startsWith("2 unexpected value(s) read: 4 (add failed, read on process 9); "
                + "99 (never added, read on process 9).");
    }

    @Test
    void onlyTheLastReadOfAServerCountsAndOnlyForAddsAcknowledgedBeforeItBegan() {
        CheckResult r = checker.check(new HistoryBuilder()
                .invoke(9, "read", null, 0)
                .invoke(1, "add", "a", 1).ok(1, null, 2)
                .ok(9, map("node", "n1", "values", List.of()), 3) // began before "a" was acked: not required
                .okOp(8, "read", null, map("node", "n2", "values", List.of()), 4) // an earlier read of n2...
                .okOp(8, "read", null, map("node", "n2", "values", List.of("a")), 5) // ...superseded by this one
                .build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(((SetReport) r.details()).notCovered()).isZero();
    }

    @Test
    void aServerThatCouldNotBeReadIsNamedNotJudged() {
        CheckResult r = checker.check(adds()
                .okOp(9, "read", null, map("node", "n1", "values", List.of(1L, 2L)), 100)
                .invoke(10, "read", null, 101).info(10, 102)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(((SetReport) r.details()).unreadErrors()).containsExactly("read by process 10 at index 12 ended "
                + "info: timeout");
        assertThat(r.summary()).endsWith("1 read(s) did not complete (read by process 10 at index 12 ended info: "
                + "timeout): servers not read cannot be judged.");
    }

    @Test
    void noReadAtAllIsUnknown() {
        CheckResult r = checker.check(adds().build());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).startsWith("No ok read to check 2 acknowledged add(s) against.");
    }
}
