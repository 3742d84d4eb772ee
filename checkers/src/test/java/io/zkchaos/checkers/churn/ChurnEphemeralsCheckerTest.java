package io.zkchaos.checkers.churn;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChurnEphemeralsCheckerTest {

    private static final int S1 = ChurnEphemeralsChecker.PROCESS_BASE;
    private static final int S2 = S1 + 1;
    private static final int S3 = S1 + 2;
    private static final int LIVE = S1 + 3;
    private static final int R1 = ChurnEphemeralsChecker.READ_PROCESS_BASE;
    private static final int R2 = R1 + 1;
    /** Session timeout 2 s + the 5 s margin after the last end (3 s) or the heal (4 s): due from 11 s. */
    private static final long DUE_MS = 11_000;

    /** Three sessions, each ended its own way, one live session kept to the reads; a set client's ops beside. */
    private static HistoryBuilder sessions() {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(0, "add", 1L, 0).ok(0, 1L, 5);
        session(h, S1, "0x11", "/zkchaos-churn/s11-a", 100);
        h.okOp(S1, ChurnEphemeralsChecker.CLOSE, null, null, 1_000);
        session(h, S2, "0x12", "/zkchaos-churn/s12-0000000001", 1_100);
        h.okOp(S2, ChurnEphemeralsChecker.EXPIRE, null, null, 2_000);
        session(h, S3, "0x13", "/zkchaos-churn/s13-a", 2_100);
        h.okOp(S3, ChurnEphemeralsChecker.CRASH, null, null, 3_000);
        session(h, LIVE, "0x14", "/zkchaos-churn/s14-a", 3_100);
        return h.heal("all", map("healed", "all"), 3_500, 4_000);
    }

    private static void session(HistoryBuilder h, int p, String id, String path, long ms) {
        h.okOp(p, ChurnEphemeralsChecker.OPEN, map("lane", 0L, "timeoutMs", 2_000L),
                map("session", id, "timeoutMs", 2_000L), ms);
        h.okOp(p, ChurnEphemeralsChecker.CREATE, map("path", path.replaceAll("-\\d+$", "-"), "sequential",
                path.matches(".*-\\d+$")), map("path", path), ms + 10);
    }

    private static void reads(HistoryBuilder h, long ms, Map<String, Object> n1, Map<String, Object> n2) {
        h.okOp(R1, ChurnEphemeralsChecker.READ, map("node", "n1"), map("node", "n1", "children", n1), ms);
        h.okOp(R2, ChurnEphemeralsChecker.READ, map("node", "n2"), map("node", "n2", "children", n2), ms + 10);
    }

    private static CheckResult check(HistoryBuilder h) {
        return CheckerCatalog.create(ChurnEphemeralsChecker.NAME, CheckerOptions.defaults()).check(h.build());
    }

    @Test
    void knownGoodHistoryIsValid() {
        HistoryBuilder h = sessions();
        reads(h, DUE_MS, map("s14-a", "0x14"), map("s14-a", "0x14"));
        h.okOp(LIVE, ChurnEphemeralsChecker.ALIVE, null, null, DUE_MS + 50);
        h.okOp(LIVE, ChurnEphemeralsChecker.CLOSE, null, null, DUE_MS + 60);

        CheckResult r = check(h);

        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        ChurnReport report = (ChurnReport) r.details();
        assertThat(report.ended()).containsEntry("close", 2L).containsEntry("expire", 1L).containsEntry("crash", 1L);
        assertThat(report.live()).isEqualTo(1);
        assertThat(report.created()).isEqualTo(4);
    }

    @Test
    void leftoverEphemeralOfClosedSessionIsCaught() {
        HistoryBuilder h = sessions();
        reads(h, DUE_MS, map("s14-a", "0x14"), map("s11-a", "0x11", "s14-a", "0x14"));
        h.okOp(LIVE, ChurnEphemeralsChecker.ALIVE, null, null, DUE_MS + 50);

        CheckResult r = check(h);

        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        ChurnReport report = (ChurnReport) r.details();
        assertThat(report.left()).singleElement().satisfies(b -> {
            assertThat(b.node()).isEqualTo("n2");
            assertThat(b.session()).isEqualTo("0x11");
            assertThat(b.explanation()).contains("ended by close");
        });
    }

    @Test
    void leftoverOfAnExpiredSessionIsCaughtToo() {
        HistoryBuilder h = sessions();
        reads(h, DUE_MS, map("s12-0000000001", "0x12", "s14-a", "0x14"), map("s14-a", "0x14"));
        h.okOp(LIVE, ChurnEphemeralsChecker.ALIVE, null, null, DUE_MS + 50);

        assertThat(check(h).validity()).isEqualTo(Validity.INVALID);
    }

    @Test
    void sessionEndedTooRecentlyIsNotJudged() {
        HistoryBuilder h = sessions();
        // read 1 ms before the crashed session's bound (its end at 3 s, the heal at 4 s: due at 11 s)
        reads(h, DUE_MS - 11, map("s13-a", "0x13", "s14-a", "0x14"), map("s14-a", "0x14"));
        h.okOp(LIVE, ChurnEphemeralsChecker.ALIVE, null, null, DUE_MS + 50);

        CheckResult r = check(h);

        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.UNKNOWN);
        assertThat(((ChurnReport) r.details()).unjudged()).isEqualTo(1);
    }

    @Test
    void missingEphemeralOfLiveSessionIsCaught() {
        HistoryBuilder h = sessions();
        reads(h, DUE_MS, map("s14-a", "0x14"), map());
        h.okOp(LIVE, ChurnEphemeralsChecker.ALIVE, null, null, DUE_MS + 50);

        CheckResult r = check(h);

        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        assertThat(((ChurnReport) r.details()).missing()).singleElement()
                .satisfies(b -> assertThat(b.node()).isEqualTo("n2"));
    }

    @Test
    void liveSessionThatDidNotAnswerAfterTheReadsIsNotHeldToItsEphemerals() {
        HistoryBuilder h = sessions();
        reads(h, DUE_MS, map("s14-a", "0x14"), map());
        h.invoke(LIVE, ChurnEphemeralsChecker.ALIVE, null, DUE_MS + 50).info(LIVE, DUE_MS + 60);

        CheckResult r = check(h);

        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.UNKNOWN);
    }

    @Test
    void withoutReadsNothingIsJudged() {
        assertThat(check(sessions()).validity()).isEqualTo(Validity.UNKNOWN);
    }
}
