package io.zkchaos.checkers.leader;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SingleLeaderCheckerTest {

    private static Object lead(long token, String node) {
        return map("token", token, "czxid", 100 + token, "node", node);
    }

    private static Object release(long token, String reason) {
        return map("token", token, "reason", reason);
    }

    /** n1 leads, a partition expires its session, it steps down, n2 takes over after the heal. */
    private static History cleanHandover() {
        return new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, lead(1, "n1"), 10)
                .nemesis("partition", 100, 101)
                .invoke(1, "release", release(1, "session-expired"), 150).ok(1, null, 151)
                .nemesis("heal", 300, 310)
                .ok(2, lead(2, "n2"), 810)
                .invoke(3, "acquire", null, 900)
                .build();
    }

    @Test
    void aCleanHandoverIsValidAndListsTheFailoverTime() {
        CheckResult r = new SingleLeaderChecker(null, Duration.ofSeconds(1)).check(cleanHandover());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        SingleLeaderReport d = (SingleLeaderReport) r.details();
        assertThat(d.intervals()).extracting(LeaderInterval::node).containsExactly("n1", "n2");
        assertThat(d.intervals().get(0).endReason()).isEqualTo("session-expired");
        assertThat(d.intervals().get(1).endReason()).isEqualTo("still leading at end of history");
        assertThat(d.overlaps()).isEmpty();
        assertThat(d.failovers()).singleElement().satisfies(f -> {
            assertThat(f.failoverNanos()).isEqualTo(500_000_000L); // heal info at 310 ms, n2 leads at 810 ms
            assertThat(f.leader().node()).isEqualTo("n2");
            assertThat(f.withinBound()).isTrue();
        });
        // the partition started at 100 ms; the next leader acquired at 810 ms
        assertThat(d.faultFailovers()).singleElement().satisfies(f -> {
            assertThat(f.trigger()).isEqualTo("partition");
            assertThat(f.failoverNanos()).isEqualTo(710_000_000L);
        });
        assertThat(JsonAssert.toJson(r)).contains("\"failoverNanos\" : 500000000");
    }

    @Test
    void aSlowFailoverBeyondTheBoundFails() {
        CheckResult r = new SingleLeaderChecker(null, Duration.ofMillis(200)).check(cleanHandover());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("no leader within 200.0 ms of the heal at index 8: the next, "
                + "n2 (token 2, process 2), took 500.0 ms");
    }

    /** n1 is paused; its session expires and n2 leads, but n1 only learns it lost 700 ms later. */
    private static History pausedLeader() {
        return new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, lead(1, "n1"), 10)
                .nemesis("pause", 100, 101)
                .ok(2, lead(2, "n2"), 200)
                .nemesis("heal", 850, 860)
                .invoke(1, "release", release(1, "session-expired"), 900).ok(1, null, 901)
                .build();
    }

    @Test
    void anOverlapIsAFindingWithItsLengthAndFencingVerdict() {
        CheckResult r = new SingleLeaderChecker().check(pausedLeader());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        SingleLeaderReport d = (SingleLeaderReport) r.details();
        assertThat(d.overlaps()).singleElement().satisfies(o -> {
            assertThat(o.stale().node()).isEqualTo("n1");
            assertThat(o.newer().node()).isEqualTo("n2");
            assertThat(o.startNanos()).isEqualTo(200_000_000L);
            assertThat(o.lengthNanos()).isEqualTo(700_000_000L);
            assertThat(o.fencingWouldReject()).isTrue();
        });
        assertThat(r.summary()).contains("1 real-time overlap(s) of two leaders (longest 700.0 ms: "
                + "n1 (token 1, process 1) still believed it led after n2 (token 2, process 2) acquired; "
                + "fencing tokens would have rejected every stale leader's writes; reported, not failed");
        // a leader (both, in fact) held at the heal: failover 0
        assertThat(d.failovers()).singleElement().satisfies(f -> {
            assertThat(f.failoverNanos()).isZero();
            assertThat(f.leader().node()).isEqualTo("n2"); // the newest of the two, not the stale one
        });
    }

    @Test
    void anOverlapLongerThanMaxOverlapFails() {
        CheckResult r = new SingleLeaderChecker(Duration.ofMillis(500), Duration.ofSeconds(30))
                .check(pausedLeader());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("leaders n1 (token 1, process 1) and n2 (token 2, process 2) overlapped "
                + "for 700.0 ms, more than max-overlap 500.0 ms");
        assertThat(new SingleLeaderChecker(Duration.ofMillis(700), Duration.ofSeconds(30))
                .check(pausedLeader()).validity()).isEqualTo(Validity.VALID);
    }

    /**
     * The nemesis freezes client process p1 (the leader) at 100 ms and resumes it at the heal (info at 2 000 ms);
     * p2 leads at 1 200 ms; p1, awake again, learns it lost at 2 150 ms.
     */
    private static History frozenLeaderClient() {
        return new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, lead(1, "p1"), 10)
                .nemesis("pause-leader-client", map("fault", "pause-leader-client", "description", "pause client p1",
                        "nodes", java.util.List.of("p1")), 100, 101)
                .ok(2, lead(2, "p2"), 1200)
                .nemesis("heal", map("fault", "resume-clients", "description", "resume client p1", "nodes",
                        java.util.List.of("p1")), 1990, 2000)
                .invoke(1, "release", release(1, "session-expired"), 2150).ok(1, null, 2151)
                .build();
    }

    @Test
    void theTimeAStaleLeaderSpentFrozenIsReportedAndNotHeldAgainstMaxOverlap() {
        CheckResult r = new SingleLeaderChecker(Duration.ofMillis(500), Duration.ofSeconds(30))
                .check(frozenLeaderClient());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        SingleLeaderReport d = (SingleLeaderReport) r.details();
        assertThat(d.overlaps()).singleElement().satisfies(o -> {
            assertThat(o.stale().node()).isEqualTo("p1");
            assertThat(o.lengthNanos()).isEqualTo(950_000_000L);  // 1 200 .. 2 150 ms
            assertThat(o.frozenNanos()).isEqualTo(800_000_000L);  // 1 200 .. 2 000 ms: frozen until the heal's info
            assertThat(o.awakeNanos()).isEqualTo(150_000_000L);   // 2 000 .. 2 150 ms: awake and still believing
            assertThat(o.fencingWouldReject()).isTrue();
        });
        assertThat(r.summary()).contains("longest 950.0 ms: p1 (token 1, process 1) still believed it led after "
                + "p2 (token 2, process 2) acquired; 800.0 ms of it frozen by a nemesis pause, 150.0 ms awake; "
                + "fencing tokens would have rejected every stale leader's writes)");
        // Awake longer than max-overlap: that is the recipe's doing, and fails.
        CheckResult strict = new SingleLeaderChecker(Duration.ofMillis(100), Duration.ofSeconds(30))
                .check(frozenLeaderClient());
        assertThat(strict.validity()).isEqualTo(Validity.INVALID);
        assertThat(strict.summary()).contains("leaders p1 (token 1, process 1) and p2 (token 2, process 2) "
                + "overlapped for 950.0 ms (awake 150.0 ms after 800.0 ms frozen by the nemesis), more than "
                + "max-overlap 100.0 ms");
    }

    @Test
    void aPauseOfAnotherProcessOrOfAServerFreezesNoStaleLeader() {
        History h = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, lead(1, "p1"), 10)
                .nemesis("pause-random-client", map("fault", "pause-random-client", "nodes",
                        java.util.List.of("p2")), 100, 101)
                .nemesis("pause-leader", map("fault", "pause-leader", "nodes", java.util.List.of("n1")), 150, 151)
                .ok(2, lead(2, "p2"), 1200)
                .nemesis("heal", map("fault", "resume-clients", "nodes", java.util.List.of("p2")), 1990, 2000)
                .invoke(1, "release", release(1, "disconnected"), 2150).ok(1, null, 2151)
                .build();
        SingleLeaderReport d = (SingleLeaderReport) new SingleLeaderChecker().check(h).details();
        assertThat(d.overlaps()).singleElement().satisfies(o -> {
            assertThat(o.frozenNanos()).isZero();
            assertThat(o.awakeNanos()).isEqualTo(o.lengthNanos()).isEqualTo(950_000_000L);
        });
    }

    @Test
    void twoHoldersOfOneTokenFail() {
        History h = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, lead(3, "n1"), 10)
                .invoke(1, "release", release(3, "closed"), 20).ok(1, null, 21)
                .ok(2, lead(3, "n2"), 30)
                .build();
        CheckResult r = new SingleLeaderChecker().check(h);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        SingleLeaderReport d = (SingleLeaderReport) r.details();
        assertThat(d.tokenViolations()).extracting(TokenViolation::kind)
                .containsExactly("duplicate-token", "duplicate-czxid");
        assertThat(r.summary()).contains("two holders of token 3: n1 (token 3, process 1) and n2 (token 3, process 2)");
        assertThat(d.overlaps()).isEmpty();
    }

    @Test
    void aTokenGoingBackwardsFails() {
        History h = new HistoryBuilder()
                .invoke(1, "acquire", null, 0)
                .ok(1, lead(5, "n1"), 10)
                .invoke(1, "release", release(5, "closed"), 20).ok(1, null, 21)
                .invoke(2, "acquire", null, 30)
                .ok(2, lead(4, "n2"), 40)
                .build();
        CheckResult r = new SingleLeaderChecker().check(h);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("token went backwards: n2 (token 4, process 2) volunteered at index 4, "
                + "after n1 (token 5, process 1) had acquired at index 1, yet got the lower token");
    }

    @Test
    void concurrentVolunteersMayAcquireInEitherOrderOfTokens() {
        // n2 volunteered before n1 had acquired: a lower token acquired later is no violation by itself
        History h = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 1)
                .ok(1, lead(5, "n1"), 10)
                .invoke(1, "release", release(5, "closed"), 20).ok(1, null, 21)
                .ok(2, lead(4, "n2"), 40)
                .build();
        assertThat(new SingleLeaderChecker().check(h).validity()).isEqualTo(Validity.VALID);
    }

    @Test
    void noLeaderAfterAHealFailsOnceTheBoundHasElapsedAndIsUnknownBefore() {
        HistoryBuilder b = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).ok(1, lead(1, "n1"), 10)
                .nemesis("kill", 50, 51)
                .invoke(1, "release", release(1, "disconnected"), 60).ok(1, null, 61)
                .nemesis("heal", 100, 110)
                .invoke(2, "acquire", null, 200);
        History shortRun = b.build();
        CheckResult unknown = new SingleLeaderChecker(null, Duration.ofSeconds(1)).check(shortRun);
        assertThat(unknown.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(unknown.summary()).startsWith("Undecided: no leader after the heal at index 7 before the history "
                + "ended, less than the bound 1.000 s later.");
        History longRun = b.info(2, 5_000).build();
        CheckResult r = new SingleLeaderChecker(null, Duration.ofSeconds(1)).check(longRun);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("no leader within 1.000 s of the heal at index 7 "
                + "(none until the history ended 4.890 s later)");
    }

    @Test
    void aHealCutShortByTheNextFaultBeforeTheBoundIsNotJudged() {
        HistoryBuilder b = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).ok(1, lead(1, "n1"), 10)
                .nemesis("kill", 50, 51)
                .invoke(1, "release", release(1, "disconnected"), 60).ok(1, null, 61)
                .nemesis("heal", 100, 110)
                .nemesis("kill", 400, 401)           // 290 ms after the heal, within the 1 s bound
                .invoke(2, "acquire", null, 500).ok(2, lead(2, "n2"), 3_000)
                .nemesis("heal", 3_100, 3_110);
        CheckResult r = new SingleLeaderChecker(null, Duration.ofSeconds(1)).check(b.build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("1 cut short by the next fault within the bound: not judged");
        // With a bound shorter than the healed window, the same heal is judged, and fails.
        CheckResult strict = new SingleLeaderChecker(null, Duration.ofMillis(200)).check(b.build());
        assertThat(strict.validity()).isEqualTo(Validity.INVALID);
        assertThat(strict.summary()).contains("no leader within 200.0 ms of the heal at index 7");
    }

    @Test
    void theFinalHealAfterEveryCandidateStoppedIsNotJudged() {
        HistoryBuilder b = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).ok(1, lead(1, "n1"), 10)
                .invoke(1, "release", release(1, "closed"), 60).ok(1, null, 61)
                .nemesis("heal", 100, 110);
        CheckResult r = new SingleLeaderChecker(null, Duration.ofSeconds(1)).check(b.build());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        // ... but a heal while a candidate still waits is judged.
        CheckResult waiting = new SingleLeaderChecker(null, Duration.ofSeconds(1))
                .check(b.invoke(2, "acquire", null, 120).build());
        assertThat(waiting.validity()).isEqualTo(Validity.UNKNOWN);
    }

    @Test
    void anAcquireWithoutATokenIsAMalformedHistoryNamingTheOp() {
        History h = new HistoryBuilder().invoke(1, "acquire", null, 0).ok(1, map("node", "n1"), 10).build();
        assertThatThrownBy(() -> new SingleLeaderChecker().check(h))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("operation acquire by process 1 (history index 0..1): the acquire result "
                        + "has no \"token\" field");
        assertThat(Checkers.runSafely(new SingleLeaderChecker(), h).validity()).isEqualTo(Validity.UNKNOWN);
    }
}
