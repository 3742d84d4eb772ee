package io.zkchaos.checkers.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.model.Models;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinearizabilityCheckerTest {

    private static CheckResult check(String model, Object init, History h) {
        return LinearizabilityChecker.builder(Models.byName(model, init)).parallelism(2).build().check(h);
    }

    private static LinearizabilityDetails details(CheckResult r) {
        return (LinearizabilityDetails) r.details();
    }

    @Test
    void aSequentialHistoryThatFollowsTheModelIsValid() {
        History h = HistoryBuilder.untimed().op(1, "write", 1L, 1L).op(2, "read", null, 1L).op(1, "write", 2L, 2L)
                .op(2, "read", null, 2L).build();
        CheckResult r = check("register", 0L, h);
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("All 4 operations").contains("register");
        assertThat(details(r).counterexample()).isNull();
    }

    @Test
    void theHarnessesOwnOperationsAreNotOperationsOnTheModel() {
        // the recovery probe's and final reads' processes (History.HARNESS_PROCESS_BASE up) use functions no model
        // knows: judged with the clients' operations they made the check fail
        int probe = History.HARNESS_PROCESS_BASE * 3 + 1;
        History h = HistoryBuilder.untimed().op(1, "write", 1L, 1L).op(probe, "recovery-serve", null, "leader")
                .op(2, "read", null, 1L).build();
        CheckResult r = check("register", 0L, h);
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("All 2 operations");
        // with only the harness's, nothing of the clients was checked
        History harnessOnly = HistoryBuilder.untimed().op(probe, "recovery-serve", null, "leader").build();
        assertThat(check("register", 0L, harnessOnly).validity()).isEqualTo(Validity.UNKNOWN);
    }

    @Test
    void aStaleReadIsInvalidAndExplained() {
        History h = HistoryBuilder.untimed().op(1, "write", 1L, 1L).op(2, "read", null, 1L).op(1, "write", 2L, 2L)
                .op(2, "read", null, 1L).build();
        CheckResult r = check("register", 0L, h);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        Counterexample cx = details(r).counterexample();
        assertThat(cx.operation().f()).isEqualTo("read");
        assertThat(cx.operation().value()).isEqualTo(1L);
        assertThat(cx.operation().invokeIndex()).isEqualTo(6);
        assertThat(cx.operation().completeIndex()).isEqualTo(7);
        assertThat(cx.linearizedPrefix()).extracting(OpView::f).containsExactly("write", "read", "write");
        assertThat(cx.possibleStates()).containsExactly("2");
        assertThat(r.summary()).startsWith("Process 2's read -> 1 (history entries 6-7) cannot be linearized")
                .contains("could only be 2");
        assertThat(cx.operation().description()).isEqualTo("read -> 1");
    }

    @Test
    void aReadConcurrentWithAWriteMaySeeEitherValue() {
        History h = HistoryBuilder.untimed().invoke(1, "write", 1L).invoke(2, "read", null).ok(2, 0L)
                .invoke(3, "read", null).ok(3, 1L).ok(1, 1L).build();
        assertThat(check("register", 0L, h).validity()).isEqualTo(Validity.VALID);
        // but not go back once the new value was seen
        History back = HistoryBuilder.untimed().invoke(1, "write", 1L).invoke(2, "read", null).ok(2, 1L)
                .invoke(3, "read", null).ok(3, 0L).ok(1, 1L).build();
        assertThat(check("register", 0L, back).validity()).isEqualTo(Validity.INVALID);
    }

    @Test
    void anIndeterminateWriteThatMustHaveHappenedIsAccepted() {
        History h = HistoryBuilder.untimed().invoke(1, "write", 5L).info(1).op(2, "read", null, 5L).build();
        assertThat(check("register", 0L, h).validity()).isEqualTo(Validity.VALID);
        // it may take effect long after its invoke, even after later operations
        History late = HistoryBuilder.untimed().invoke(1, "write", 5L).info(1).op(2, "read", null, 0L).op(3, "write", 7L, 7L)
                .op(2, "read", null, 5L).build();
        assertThat(check("register", 0L, late).validity()).isEqualTo(Validity.VALID);
    }

    @Test
    void anIndeterminateWriteMayNeverHappenButHappensAtMostOnce() {
        History never = HistoryBuilder.untimed().invoke(1, "write", 5L).info(1).op(2, "read", null, 0L).op(2, "read", null, 0L)
                .build();
        assertThat(check("register", 0L, never).validity()).isEqualTo(Validity.VALID);
        History twice = HistoryBuilder.untimed().invoke(1, "write", 5L).info(1).op(2, "read", null, 5L).op(3, "write", 7L, 7L)
                .op(2, "read", null, 5L).build();
        CheckResult r = check("register", 0L, twice);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(details(r).counterexample().possibleStates()).containsExactly("7");
    }

    @Test
    void unobservedIndeterminateWritesAreLeftOutAndCounted() {
        History h = HistoryBuilder.untimed().invoke(1, "write", 5L).info(1).invoke(3, "write", 6L).info(3)
                .op(2, "read", null, 0L).op(2, "read", null, 6L).build();
        CheckResult r = check("register", 0L, h);
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(details(r).unobservedDropped()).isEqualTo(1); // write 5: nobody read 5
        assertThat(details(r).operations()).isEqualTo(3);
    }

    @Test
    void anIndeterminateWriteCannotTakeEffectBeforeItsInvoke() {
        History h = HistoryBuilder.untimed().op(2, "read", null, 5L).invoke(1, "write", 5L).info(1).build();
        assertThat(check("register", 0L, h).validity()).isEqualTo(Validity.INVALID);
    }

    @Test
    void aNeverCompletedInvokeIsIndeterminate() {
        History h = HistoryBuilder.untimed().invoke(1, "write", 5L).op(2, "read", null, 5L).build();
        assertThat(h.operations().get(0).completeIndex()).isEqualTo(-1);
        assertThat(check("register", 0L, h).validity()).isEqualTo(Validity.VALID);
    }

    @Test
    void aFailedWriteDidNotHappen() {
        History h = HistoryBuilder.untimed().invoke(1, "read", null).invoke(2, "write", 3L).fail(2).ok(1, 3L).build();
        CheckResult r = check("cas-register", 0L, h);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(details(r).counterexample().possibleStates()).containsExactly("0");
    }

    @Test
    void casSucceedsOnlyFromItsExpectedValueAndIndeterminateCasMayHaveSucceeded() {
        History ok = HistoryBuilder.untimed().op(1, "cas", List.of(0L, 1L), List.of(0L, 1L)).op(2, "read", null, 1L).build();
        assertThat(check("cas-register", 0L, ok).validity()).isEqualTo(Validity.VALID);
        History wrong = HistoryBuilder.untimed().op(1, "cas", List.of(3L, 1L), List.of(3L, 1L)).build();
        assertThat(check("cas-register", 0L, wrong).validity()).isEqualTo(Validity.INVALID);
        History maybe = HistoryBuilder.untimed().invoke(1, "cas", List.of(0L, 2L)).info(1).op(2, "read", null, 2L).build();
        assertThat(check("cas-register", 0L, maybe).validity()).isEqualTo(Validity.VALID);
        History impossible = HistoryBuilder.untimed().invoke(1, "cas", List.of(9L, 2L)).info(1).op(2, "read", null, 2L).build();
        assertThat(check("cas-register", 0L, impossible).validity()).isEqualTo(Validity.INVALID);
        History failed = HistoryBuilder.untimed().invoke(1, "cas", List.of(0L, 2L)).fail(1).op(2, "read", null, 2L).build();
        assertThat(check("cas-register", 0L, failed).validity()).isEqualTo(Validity.INVALID);
    }

    @Test
    void keysAreCheckedIndependentlyAndTheInvalidKeyIsNamed() {
        HistoryBuilder.Untimed b = HistoryBuilder.untimed();
        for (int k = 0; k < 20; k++) {
            String key = "k" + k;
            b.invoke(1, "write", key, (long) k).ok(1, (long) k).invoke(2, "read", key, null).ok(2, (long) k);
        }
        b.invoke(3, "read", "k7", null).ok(3, 8L);
        CheckResult r = check("register", null, b.build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        Counterexample cx = details(r).counterexample();
        assertThat(cx.partition()).isEqualTo("k7");
        assertThat(cx.possibleStates()).containsExactly("7");
        assertThat(r.summary()).startsWith("On key k7, ");
        assertThat(details(r).partitions()).isEqualTo(20);
    }

    @Test
    void theFirstInvalidPartitionCancelsTheRest() {
        HistoryBuilder.Untimed b = HistoryBuilder.untimed();
        // the biggest partition (searched first) is invalid; 300 small valid ones follow
        for (int i = 0; i < 50; i++) {
            b.invoke(1, "write", "big", (long) i).ok(1, (long) i);
        }
        b.invoke(2, "read", "big", null).ok(2, 3L);
        for (int k = 0; k < 300; k++) {
            b.invoke(1, "write", "k" + k, 1L).ok(1, 1L).invoke(2, "read", "k" + k, null).ok(2, 1L);
        }
        CheckResult r = LinearizabilityChecker.builder(Models.byName("register", null)).parallelism(1).build()
                .check(b.build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(details(r).counterexample().partition()).isEqualTo("big");
        assertThat(details(r).partitions()).isEqualTo(301);
        assertThat(details(r).partitionsChecked()).isEqualTo(1);
        CheckResult parallel = LinearizabilityChecker.builder(Models.byName("register", null)).parallelism(2).build()
                .check(b.build());
        // (how many others finish before the cancellation lands depends on scheduling; the verdict does not)
        assertThat(parallel.validity()).isEqualTo(Validity.INVALID);
        assertThat(details(parallel).counterexample().partition()).isEqualTo("big");
    }

    @Test
    void unpartitionedCheckingReachesTheSameVerdicts() {
        HistoryBuilder.Untimed b = HistoryBuilder.untimed();
        for (int k = 0; k < 5; k++) {
            b.invoke(1, "put", "k" + k, "v" + k).ok(1, null).invoke(2, "get", "k" + k, null).ok(2, "v" + k);
        }
        History valid = b.build();
        LinearizabilityChecker whole = LinearizabilityChecker.builder(Models.byName("kv", null))
                .partitioned(false).build();
        CheckResult r = whole.check(valid);
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(details(r).partitions()).isEqualTo(1);
        b.invoke(2, "get", "k1", null).ok(2, "v2");
        CheckResult bad = whole.check(b.build());
        assertThat(bad.validity()).isEqualTo(Validity.INVALID);
        assertThat(details(bad).counterexample().partition()).isNull();
        assertThat(details(bad).counterexample().possibleStates()).singleElement().asString()
                .contains("\"k1\" \"v1\"");
    }

    @Test
    void theDetailsSerialiseToJson() throws Exception {
        History h = HistoryBuilder.untimed().op(1, "write", 1L, 1L).op(2, "read", null, 2L).build();
        CheckResult r = check("register", 0L, h);
        String json = new ObjectMapper().writeValueAsString(r);
        assertThat(json).contains("\"counterexample\"").contains("\"possibleStates\":[\"1\"]")
                .contains("\"linearizedPrefix\"");
    }

    @Test
    void anUnknownFunctionIsAClearError() {
        History h = HistoryBuilder.untimed().op(1, "cas", List.of(0L, 1L), List.of(0L, 1L)).build();
        assertThatThrownBy(() -> check("register", 0L, h))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("register model: unknown function 'cas'");
    }

    @Test
    void theBuilderNamesTheBadField() {
        var model = Models.byName("register", null);
        assertThatThrownBy(() -> LinearizabilityChecker.builder(model).parallelism(0).build())
                .hasMessageStartingWith("parallelism:");
        assertThatThrownBy(() -> LinearizabilityChecker.builder(model).timeLimit(Duration.ZERO).build())
                .hasMessageStartingWith("timeLimit:");
        assertThatThrownBy(() -> LinearizabilityChecker.builder(model).maxCacheEntries(0).build())
                .hasMessageStartingWith("maxCacheEntries:");
        assertThatThrownBy(() -> LinearizabilityChecker.builder(null).build())
                .hasMessageStartingWith("model:");
        assertThat(LinearizabilityChecker.of(model).name()).isEqualTo("linearizable");
    }

    @Test
    void anEmptyHistoryIsUnknownNotValid() {
        CheckResult r = check("cas-register", 0L, History.of(List.of()));
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).contains("nothing to check");
        assertThat(details(r).partitions()).isZero();
    }
}
