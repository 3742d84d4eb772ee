package io.zkchaos.checkers.churn;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The workloads' checkers judge a history with churn sessions in it as they judge it without. */
class ChurnOpsLeftOutTest {

    private static final int CHURN = ChurnEphemeralsChecker.PROCESS_BASE;

    /** A churn session's whole life, at {@code ms}: open, two creates (one unknown), an expiry. */
    private static HistoryBuilder churn(HistoryBuilder h, long ms) {
        return h.okOp(CHURN, ChurnEphemeralsChecker.OPEN, map("lane", 0L, "timeoutMs", 3_000L),
                        map("session", "0x1", "timeoutMs", 3_000L), ms)
                .okOp(CHURN, ChurnEphemeralsChecker.CREATE, map("path", "/zkchaos-churn/a", "sequential", false),
                        map("path", "/zkchaos-churn/a"), ms + 1)
                .invoke(CHURN, ChurnEphemeralsChecker.CREATE, map("path", "/zkchaos-churn/b-", "sequential", true),
                        ms + 2).info(CHURN, ms + 3)
                .okOp(CHURN, ChurnEphemeralsChecker.EXPIRE, null, null, ms + 4);
    }

    private static Validity judge(String checker, History h) {
        CheckResult r = CheckerCatalog.create(checker, CheckerOptions.defaults()).check(h);
        return r.validity();
    }

    @Test
    void setAndRegisterCheckersLeaveChurnOperationsOut() {
        for (boolean withChurn : List.of(false, true)) {
            HistoryBuilder set = new HistoryBuilder().okOp(0, "add", 1L, 1L, 0);
            if (withChurn) {
                churn(set, 1);
            }
            set.okOp(0, "add", 2L, 2L, 10)
                    .okOp(1_000_000, "read", map("node", "n1"), map("node", "n1", "values", List.of(1L, 2L)), 20);
            assertThat(judge(CheckerCatalog.NO_LOST_COMMIT, set.build())).as("churn " + withChurn)
                    .isEqualTo(Validity.VALID);

            HistoryBuilder register = new HistoryBuilder().invoke(0, "write", "x", 1L, 0).ok(0, 1L, 1);
            if (withChurn) {
                churn(register, 2);
            }
            register.invoke(1, "read", "x", null, 10).ok(1, 1L, 11)
                    .invoke(0, "cas", "x", List.of(1L, 2L), 12).ok(0, List.of(1L, 2L), 13)
                    .invoke(1, "read", "x", null, 14).ok(1, 2L, 15);
            assertThat(judge(CheckerCatalog.ZK_READ_MODEL, register.build())).as("churn " + withChurn)
                    .isEqualTo(Validity.VALID);
        }
    }
}
