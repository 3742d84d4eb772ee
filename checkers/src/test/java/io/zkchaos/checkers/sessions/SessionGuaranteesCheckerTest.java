package io.zkchaos.checkers.sessions;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static io.zkchaos.checkers.ZnodeHistories.event;
import static io.zkchaos.checkers.ZnodeHistories.open;
import static io.zkchaos.checkers.ZnodeHistories.partitioned;
import static io.zkchaos.checkers.ZnodeHistories.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.PromiseTally;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionGuaranteesCheckerTest {

    private final SessionGuaranteesChecker checker = new SessionGuaranteesChecker();

    /** p1 opens, creates e1-1, reads it, closes; p2 then reads nothing of it. */
    private static HistoryBuilder closedCleanly() {
        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        h.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11);
        read(h, 1, 20, map("e1-1", "0x1"));
        h.invoke(1, "close", null, 30).ok(1, null, 31);
        event(h, 1, "Disconnected", 31);
        event(h, 1, "Closed", 31);
        return open(h, 2, "0x2", 40);
    }

    @Test
    void aClosedSessionsEphemeralsAreGoneAndItsEventsInOrder() {
        CheckResult r = checker.check(read(closedCleanly(), 2, 50, map()).build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        SessionsReport d = (SessionsReport) r.details();
        assertThat(d.sessions()).isEqualTo(2);
        assertThat(d.closed()).isEqualTo(1);
        assertThat(d.events()).isEqualTo(4);
        assertThat(r.summary()).isEqualTo("2 session(s): 1 closed, 0 closed by another handle, 0 told Expired; 1 "
                + "ephemeral(s) created, 2 read(s), 4 event(s); 0 cut-off session(s) held to timeout + 3.000 s.");
        JsonAssert.toJson(r);
    }

    @Test
    void aReadAfterTheCloseThatListsItsEphemeralIsCaught() {
        CheckResult r = checker.check(read(closedCleanly(), 2, 50, map("e1-1", "0x1")).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).startsWith("1 violation(s): closed-ephemeral: the read of process 2 (index 18) "
                + "lists e1-1, an ephemeral of process 1 (session 0x1), though that session's close was "
                + "acknowledged at index 9, before the read began.");
    }

    @Test
    void aCutOffSessionsEphemeralReadPastTimeoutAndBoundIsCaught() {
        // cut at 1.001 s, timeout 4 s, bound 3 s: reads that begin after 8.001 s must not list it
        CheckResult early = checker.check(read(partitioned(6500), 2, 7000, map("e1-1", "0x1")).build());
        assertThat(early.validity()).as(early.summary()).isEqualTo(Validity.VALID);
        assertThat(((SessionsReport) early.details()).cutOffJudged()).isEqualTo(1);

        CheckResult late = checker.check(read(partitioned(6500), 2, 8500, map("e1-1", "0x1")).build());
        assertThat(late.validity()).isEqualTo(Validity.INVALID);
        assertThat(late.summary()).startsWith("1 violation(s): expiry-bound: the read of process 2 (index 18), 7.499 "
                + "s after client-partition cut process 1 (session 0x1) off (index 7), lists its ephemeral e1-1: more "
                + "than its timeout of 4000 ms plus 3.000 s.");
    }

    @Test
    void aCutShorterThanTheTimeoutOrFollowedByAnotherFaultIsExcused() {
        CheckResult short_ = checker.check(read(partitioned(4500), 2, 9000, map("e1-1", "0x1")).build());
        assertThat(short_.validity()).as(short_.summary()).isEqualTo(Validity.VALID);
        assertThat(((SessionsReport) short_.details()).cutOffExcused()).containsExactly("process 1 (session 0x1) "
                + "cut off by client-partition for 3.499 s, less than its timeout plus 1.000 s: it may have kept its "
                + "session");

        HistoryBuilder h = partitioned(6500).nemesis("kill-leader", map("fault", "kill-leader", "nodes",
                List.of("n2")), 7000, 7010);
        CheckResult killed = checker.check(read(h, 2, 9000, map("e1-1", "0x1")).build());
        assertThat(killed.validity()).as(killed.summary()).isEqualTo(Validity.VALID);
        assertThat(((SessionsReport) killed.details()).cutOffExcused()).singleElement().asString()
                .contains("another fault began 5.999 s after the cut");
    }

    @Test
    void aFrozenClientProcessIsCutOffToo() {
        HistoryBuilder h = open(new HistoryBuilder(), 3, "0x3", 0);
        h.invoke(3, "create", "e3-1", null, 10).ok(3, null, 11)
                .nemesis("pause-random-client", map("fault", "pause-random-client", "nodes", List.of("p3")), 1000,
                        1001)
                .heal("pause-random-client", map("fault", "resume-clients", "nodes", List.of("p3")), 9000, 9001);
        open(h, 4, "0x4", 100);
        CheckResult r = checker.check(read(h, 4, 8100, map("e3-1", "0x3")).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((SessionsReport) r.details()).violations()).singleElement()
                .satisfies(v -> assertThat(v.rule()).isEqualTo("expiry-bound"));
    }

    @Test
    void eventsAfterExpiredRepeatsAndAFirstEventOtherThanSyncConnectedAreOutOfOrder() {
        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        event(h, 1, "Disconnected", 10);
        event(h, 1, "Expired", 20);
        event(h, 1, "SyncConnected", 30); // a wrapper that reconnected silently, passing the new session's event on
        h.invoke(2, "open", null, 40).ok(2, map("session", "0x2", "timeout", 4000L), 41);
        event(h, 2, "Disconnected", 42);
        event(h, 2, "Disconnected", 43);
        CheckResult r = checker.check(read(h, 2, 50, map()).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((SessionsReport) r.details()).violations()).extracting(SessionViolation::text).containsExactly(
                "process 1 (session 0x1) was delivered SyncConnected at index 8, after Expired at index 6: nothing "
                        + "follows the end of a session",
                "process 2 (session 0x2) was first delivered Disconnected at index 12: a session's first event is "
                        + "SyncConnected (or Closed, for a handle closed before it connected)",
                "process 2 (session 0x2) was delivered Disconnected twice in a row (index 14): the client reports "
                        + "changes of state");
    }

    @Test
    void aCreateThatSucceedsAfterTheSessionWasExpiredIsCaughtAndSoIsItsOwner() {
        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        h.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11);
        h.invoke(1, "expire", null, 20).ok(1, null, 21);
        h.invoke(1, "create", "e1-2", null, 30).ok(1, null, 31); // on a new session, reported as the old one's
        open(h, 2, "0x2", 40);
        CheckResult r = checker.check(read(h, 2, 50, map("e1-2", "0x7")).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((SessionsReport) r.details()).violations()).extracting(SessionViolation::text).containsExactly(
                "the read of process 2 (index 14) lists e1-2, an ephemeral of process 1 (session 0x1), though another "
                        + "handle's close of that session was acknowledged at index 7, before the read began",
                "process 1 (session 0x1)'s create of e1-2 (index 8-9) succeeded, though another handle's close was "
                        + "acknowledged at index 7, before it began",
                "the read of process 2 (index 14) found e1-2, which process 1 (session 0x1) created, owned by "
                        + "session 0x7: the create did not happen in the session that reported it");
    }

    /**
     * p1 holds e1-1 when the workload silences its relay at 1 s, for 5.5 s (timeout 4 s): its client is told
     * Disconnected and, once the relay passes again, Expired by the servers; p2 reads at {@code readMs}.
     */
    private static HistoryBuilder cutByTheWorkload(long readMs, Object... owners) {
        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        h.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11);
        open(h, 2, "0x2", 100);
        h.invoke(1, "cut", null, 1000).ok(1, map("silenced", 5500L), 6500);
        h.okOp(1, "event", map("state", "Disconnected", "during", "cut"), map("state", "Disconnected", "during",
                "cut"), 6500);
        event(h, 1, "Expired", 6700);
        return read(h, 2, readMs, map(owners));
    }

    @Test
    void aSessionTheWorkloadCutOffIsAnExpiryWhoseEphemeralsAreFollowed() {
        CheckResult r = checker.check(cutByTheWorkload(8500).build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        SessionsReport d = (SessionsReport) r.details();
        assertThat(d.cutByWorkload()).isEqualTo(1);
        assertThat(d.cutOffJudged()).isEqualTo(1);
        assertThat(d.expiredFollowed()).as("a read began past the timeout plus the bound").isEqualTo(1);
        assertThat(d.ephemeralsFollowed()).isEqualTo(1);
        assertThat(d.promises()).extracting(PromiseTally::id, PromiseTally::tested).containsExactly(
                tuple("closed", 0L), tuple("closed-by-other", 0L), tuple("expired", 1L), tuple("ephemerals", 1L));
        assertThat(r.summary()).contains("1 cut-off session(s) held to timeout + 3.000 s (1 cut off by the "
                + "workload), 1 expired session(s) followed past the bound");
        JsonAssert.toJson(r);

        CheckResult late = checker.check(cutByTheWorkload(8500, "e1-1", "0x1").build());
        assertThat(late.validity()).isEqualTo(Validity.INVALID);
        assertThat(late.summary()).startsWith("1 violation(s): expiry-bound: the read of process 2 (index 16), "
                + "7.500 s after the workload cut process 1 (session 0x1) off (index 10), lists its ephemeral "
                + "e1-1: more than its timeout of 4000 ms plus 3.000 s.");
    }

    @Test
    void anExpiryNoReadFollowedOrThatAFaultOverlapsIsNotCountedAsTested() {
        SessionsReport early = (SessionsReport) checker.check(cutByTheWorkload(7000).build()).details();
        assertThat(early.cutOffJudged()).isEqualTo(1);
        assertThat(early.expiredFollowed()).as("no read began past the bound").isZero();
        assertThat(early.promises()).filteredOn(p -> p.id().equals("expired")).singleElement()
                .satisfies(p -> assertThat(p.wasTested()).isFalse());

        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        h.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11)
                .nemesis("kill-leader", map("fault", "kill-leader", "nodes", List.of("n2")), 500, 510);
        h.invoke(1, "cut", null, 1000).ok(1, map("silenced", 5500L), 6500);
        open(h, 2, "0x2", 7000);
        CheckResult killed = checker.check(read(h, 2, 9000, map("e1-1", "0x1")).build());
        assertThat(killed.validity()).as("a new leader restarts the session's clock").isEqualTo(Validity.VALID);
        SessionsReport k = (SessionsReport) killed.details();
        assertThat(k.expiredFollowed()).isZero();
        assertThat(k.cutOffExcused()).singleElement().asString().isEqualTo("process 1 (session 0x1) cut off by the "
                + "workload: kill-leader began 500.0 ms before the cut, within the bound (a new ZooKeeper "
                + "leader restarts every session's clock)");

        HistoryBuilder healed = cutByTheWorkload(9000).heal("all", map("fault", "heal", "nodes", List.of()), 7000,
                7010);
        SessionsReport noop = (SessionsReport) checker.check(read(healed, 2, 9500, map()).build()).details();
        assertThat(noop.expiredFollowed()).as("a heal that ended no fault changes no leader: %s",
                noop.cutOffExcused()).isEqualTo(1);

        HistoryBuilder shortCut = open(new HistoryBuilder(), 1, "0x1", 0);
        shortCut.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11);
        shortCut.invoke(1, "cut", null, 1000).ok(1, map("silenced", 3000L), 4000);
        open(shortCut, 2, "0x2", 5000);
        SessionsReport s = (SessionsReport) checker.check(read(shortCut, 2, 9000, map()).build()).details();
        assertThat(s.cutOffJudged()).isZero();
        assertThat(s.cutOffExcused()).singleElement().asString().contains("less than its timeout plus 1.000 s");
    }

    @Test
    void closesAreTestedWhenALaterReadFollowsTheirEphemerals() {
        SessionsReport d = (SessionsReport) checker.check(read(closedCleanly(), 2, 50, map()).build()).details();
        assertThat(d.closedFollowed()).isEqualTo(1);
        assertThat(d.ephemeralsFollowed()).isEqualTo(1);
        assertThat(d.promises()).extracting(PromiseTally::id, PromiseTally::tested).containsExactly(
                tuple("closed", 1L), tuple("closed-by-other", 0L), tuple("expired", 0L), tuple("ephemerals", 1L));

        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        h.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11);
        read(open(h, 2, "0x2", 12), 2, 14, map("e1-1", "0x1"));
        h.invoke(1, "expire", null, 20).ok(1, null, 21);
        SessionsReport unread = (SessionsReport) checker.check(h.build()).details();
        assertThat(unread.closedByOtherFollowed()).as("no read after the close").isZero();
        SessionsReport followed = (SessionsReport) checker.check(read(h, 2, 40, map()).build()).details();
        assertThat(followed.closedByOtherFollowed()).isEqualTo(1);
    }

    @Test
    void aReportWithoutTheNewFieldsReadsBackAsNothingTested() throws Exception {
        String old = "{\"kind\":\"session-guarantees\",\"sessions\":3,\"closed\":1,\"expiredByOp\":1,"
                + "\"expiredEvents\":1,\"ephemerals\":2,\"reads\":4,\"events\":9,\"cutOffJudged\":1,\"cutOffExcused\":[],\"boundMillis\":3000,"
                + "\"violationCount\":0,\"violationsByRule\":{},\"violations\":[]}";
        SessionsReport r = (SessionsReport) new com.fasterxml.jackson.databind.ObjectMapper().readValue(old,
                io.zkchaos.checkers.Findings.class);
        assertThat(r.closed()).isEqualTo(1);
        assertThat(r.promises()).allSatisfy(p -> assertThat(p.tested()).isZero());
    }

    @Test
    void nothingReadIsUnknown() {
        CheckResult r = checker.check(open(new HistoryBuilder(), 1, "0x1", 0).build());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).startsWith("No read was acknowledged: nothing saw the ephemerals.");
    }
}
