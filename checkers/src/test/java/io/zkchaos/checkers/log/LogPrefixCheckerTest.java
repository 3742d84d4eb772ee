package io.zkchaos.checkers.log;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogPrefixCheckerTest {

    private final LogPrefixChecker checker = new LogPrefixChecker();

    private static final long E1 = 1L << 32;
    private static final long E2 = 2L << 32;

    private static Object log(String node, List<?>... entries) {
        return map("node", node, "log", Arrays.asList(entries));
    }

    private static List<?> e(long zxid, String value) {
        return List.of(zxid, value);
    }

    @Test
    void laggingFollowersAndGrowingLogsAreValid() {
        CheckResult r = checker.check(new HistoryBuilder()
                .okOp(1, "read-log", null, log("n1", e(E1 + 1, "a")), 1)
                .okOp(1, "read-log", null, log("n1", e(E1 + 1, "a"), e(E1 + 2, "b"), e(E2 + 1, "c")), 2)
                .okOp(1, "read-log", null, log("n2", e(E1 + 1, "a"), e(E1 + 2, "b")), 3)
                .okOp(1, "read-log", null, log("n3"), 4)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).isEqualTo("4 log read(s) of 3 node(s) are prefixes of one another; "
                + "the longest has 3 entries.");
        assertThat(((LogReport) r.details()).nodes()).extracting(NodeLog::node, NodeLog::reads, NodeLog::finalLength)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("n1", 2, 3),
                        org.assertj.core.groups.Tuple.tuple("n2", 1, 2),
                        org.assertj.core.groups.Tuple.tuple("n3", 1, 0));
        JsonAssert.toJson(r);
    }

    @Test
    void twoLeadersInterleavingWritesMakeLogsDiverge() {
        CheckResult r = checker.check(new HistoryBuilder()
                .okOp(1, "read-log", null, log("n1", e(E1 + 1, "a"), e(E1 + 2, "b"), e(E1 + 3, "d")), 1)
                .okOp(1, "read-log", null, log("n2", e(E1 + 1, "a"), e(E1 + 2, "c")), 2)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((LogReport) r.details()).violations()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo("diverged");
            assertThat(v.node()).isEqualTo("n2");
            assertThat(v.position()).isEqualTo(1);
        });
        assertThat(r.summary()).startsWith("1 violation(s): the logs of n2 (read at index 3) and n1 (read at index 1) "
                + "diverge at position 1: 0x100000002=c vs 0x100000002=b.");
    }

    @Test
    void aCommittedEntryRolledBackOnEveryNodeFails() {
        CheckResult r = checker.check(new HistoryBuilder()
                .okOp(1, "read-log", null, log("n1", e(E1 + 1, "a"), e(E1 + 2, "b")), 1)
                .okOp(1, "read-log", null, log("n1", e(E1 + 1, "a")), 2)
                .okOp(1, "read-log", null, log("n2", e(E1 + 1, "a")), 3)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((LogReport) r.details()).violations()).extracting(LogViolation::kind)
                .containsExactly("disappeared", "lost-everywhere");
        assertThat(r.summary()).contains("n1 lost committed [0x100000002=b]: read at index 1 it had 2 entries, "
                        + "read at index 3 it has 1 entries")
                .contains("committed [0x100000002=b] (read on n1 at index 1) is in no node's final log; "
                        + "the longest final log, n1's, has 1 entries");
    }

    @Test
    void zxidsGoingBackwardsWithinALogFail() {
        CheckResult r = checker.check(new HistoryBuilder()
                .okOp(1, "read-log", null, log("n1", e(E2 + 1, "a"), e(E1 + 5, "b")), 1).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("n1's log (read at index 1) has 0x100000005=b at position 1 "
                + "after 0x200000001=a");
    }

    @Test
    void noReadIsUnknownAndAMalformedEntryIsNamed() {
        assertThat(checker.check(new HistoryBuilder().build()).validity()).isEqualTo(Validity.UNKNOWN);
        assertThatThrownBy(() -> checker.check(new HistoryBuilder()
                .okOp(1, "read-log", null, map("node", "n1", "log", List.of(List.of(1L))), 1).build()))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("log entry 0 must be [zxid, value] but is [1]");
    }
}
