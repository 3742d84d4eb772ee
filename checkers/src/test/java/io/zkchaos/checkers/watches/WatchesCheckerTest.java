package io.zkchaos.checkers.watches;

import static io.zkchaos.checkers.watches.WatchHistory.K1;
import static io.zkchaos.checkers.watches.WatchHistory.K2;
import static io.zkchaos.checkers.watches.WatchHistory.T;
import static io.zkchaos.checkers.watches.WatchHistory.absent;
import static io.zkchaos.checkers.watches.WatchHistory.stat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Planted violations of each watch guarantee in small hand-written histories, and histories that keep them. Session
 * 1 watches (its events under 500 001); process 0 writes. {@code -1} as an event's zxid is what servers before 3.9
 * send: every such case runs both ways, the checker placing the event by the watch's read instead.
 */
class WatchesCheckerTest {

    private final WatchesChecker checker = new WatchesChecker();

    private CheckResult check(WatchHistory h) {
        CheckResult r = checker.check(h.build());
        JsonAssert.toJson(r);
        return r;
    }

    private static List<WatchViolation> violations(CheckResult r) {
        return ((WatchesReport) r.details()).violations();
    }

    /** zxid as the event carries it: the change's own (3.9 on), or -1 (before). */
    private static long z(boolean serverSendsZxid, long zxid) {
        return serverSendsZxid ? zxid : -1;
    }

    // ---- histories that keep the guarantees ------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aDataWatchThatFiresBeforeTheNewDataIsReadIsValid(boolean zxids) {
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .set(K1, "b", 0x11)
                .event(1, "data", "data-changed", K1, z(zxids, 0x11))
                .getData(1, K1, stat(0x10, 0x11, 0x10, 1))
                .delete(K1, "c", 0x12)
                .event(1, "data", "deleted", K1, z(zxids, 0x12))
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).isEqualTo("1 session(s) set 2 one-time watch(es) and added 0 persistent one(s); "
                + "2 event(s) delivered, 2 placed by the change that caused them; 3 change(s) committed, 0 of unknown "
                + "outcome; 1 sync barrier(s).");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void childAndExistsWatchesFireForTheirChanges(boolean zxids) {
        CheckResult r = check(new WatchHistory()
                .getChildren(1, T, stat(0x1, 0x1, 0x1, 0))
                .exists(1, K1, absent())
                .create(K1, "a", 0x10) // one transaction: children-changed on the tree and created on k1
                .event(1, "child", "children-changed", T, z(zxids, 0x10))
                .event(1, "data", "created", K1, z(zxids, 0x10))
                .getChildren(1, T, stat(0x1, 0x1, 0x10, 0))
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aPersistentRecursiveWatchFiresForEveryChangeInOrder(boolean zxids) {
        CheckResult r = check(new WatchHistory()
                .addWatch(1, T, "persistent-recursive")
                .create(K1, "a", 0x10)
                .set(K1, "b", 0x11)
                .create(K2, "c", 0x12)
                .event(1, "recursive", "created", K1, z(zxids, 0x10))
                .event(1, "recursive", "data-changed", K1, z(zxids, 0x11))
                .event(1, "recursive", "created", K2, z(zxids, 0x12))
                .delete(K1, "d", 0x13)
                .event(1, "recursive", "deleted", K1, z(zxids, 0x13))
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(((WatchesReport) r.details()).eventsPlaced()).isEqualTo(4);
    }

    @Test
    void aPersistentWatchOnTheTreeSeesItsChildrenChange() {
        CheckResult r = check(new WatchHistory()
                .addWatch(1, T, "persistent")
                .create(K1, "a", 0x10)
                .set(K1, "b", 0x11) // a child's data: nothing for the tree's persistent watch
                .create(K2, "c", 0x12)
                .event(1, "persistent", "children-changed", T, -1)
                .event(1, "persistent", "children-changed", T, -1)
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void anEventOfAChangeWhoseOutcomeIsUnknownIsAllowed() {
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .changeInfo(0, "set", K1, "b")
                .event(1, "data", "data-changed", K1, 0x11)
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("1 change(s) committed, 1 of unknown outcome");
    }

    @Test
    void aResolvedChangeIsPlacedByTheZxidItLandedAt() {
        // b ended info; the writer's next process found it landed at 0x11: the event names it, in order after a's.
        CheckResult r = check(new WatchHistory()
                .addWatch(1, T, "persistent-recursive")
                .create(K1, "a", 0x10)
                .changeInfo(0, "set", K1, "b")
                .resolve(2, List.of("b"), "b", 0x11L)
                .event(1, "recursive", "created", K1, -1)
                .event(1, "recursive", "data-changed", K1, -1)
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("2 placed by the change that caused them; 2 change(s) committed, 0 of "
                + "unknown outcome");
    }

    @Test
    void anExistsWatchMissedBecauseItsZnodeCameAndWentWhileDisconnectedIsExcused() {
        CheckResult r = check(new WatchHistory()
                .create(K2, "x", 0x9)
                .exists(1, K1, absent())
                .sessionState(1, "disconnected")
                .create(K1, "a", 0x10)
                .delete(K1, "b", 0x11)
                .sessionState(1, "sync-connected")
                .sync(1)
                .getData(1, K2, stat(0x9, 0x9, 0x9, 0))
                .set(K2, "y", 0x12)
                .event(1, "data", "data-changed", K2, 0x12));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(((WatchesReport) r.details()).excused())
                .containsEntry(SessionJudge.CREATED_AND_DELETED_WHILE_DISCONNECTED, 1);
    }

    @Test
    void aWatchCarriedOverADisconnectionFiresOnceForWhateverChanged() {
        // deleted and created again while disconnected: the re-registered data watch reports data-changed
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .sessionState(1, "disconnected")
                .delete(K1, "b", 0x11)
                .create(K1, "c", 0x12)
                .sessionState(1, "sync-connected")
                .event(1, "data", "data-changed", K1, -1)
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void aReconnectionTriggerHandedToPersistentWatchersIsNotPlaced() {
        // Seen on 3.9.5 under kill-random: the re-registered data watch on k1 fires data-changed (no zxid) on
        // reconnection, and the client hands it to the persistent watchers of k1 as well; the live events that
        // follow must not be judged as skipping the changes made while disconnected.
        CheckResult r = check(new WatchHistory()
                .addWatch(1, T, "persistent-recursive")
                .create(K1, "a", 0x10)
                .event(1, "recursive", "created", K1, 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .sessionState(1, "disconnected")
                .set(K1, "b", 0x11)
                .delete(K1, "c", 0x12)
                .create(K1, "d", 0x13)
                .sessionState(1, "sync-connected")
                .event(1, "recursive", "data-changed", K1, -1)
                .event(1, "data", "data-changed", K1, -1)
                .getData(1, K1, stat(0x13, 0x13, 0x13, 0))
                .set(K1, "e", 0x14)
                .event(1, "recursive", "data-changed", K1, 0x14)
                .event(1, "data", "data-changed", K1, 0x14)
                .sync(1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    // ---- planted violations ----------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void eventsDeliveredOutOfTheOrderOfTheirChangesAreCaught(boolean zxids) {
        CheckResult r = check(WatchFixtures.reordered(zxids));
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("ordering");
            assertThat(v.explanation()).startsWith("data-changed on /w/tree/k1 to the data watcher of process 1 at "
                    + "index 14").contains("caused by set /w/tree/k1 (c, zxid 0x12", "arrived after data-changed on "
                    + "/w/tree/k2 to the data watcher of process 1 at index 12", "caused by the later zxid 0x13");
        });
        assertThat(r.summary()).startsWith("1 watch guarantee(s) broken (1 ordering): ordering: data-changed on "
                + "/w/tree/k1");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readingTheNewDataBeforeTheEventIsCaught(boolean zxids) {
        CheckResult r = check(WatchFixtures.readBeforeEvent(zxids));
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("event-before-data");
            assertThat(v.explanation()).isEqualTo("process 1 read /w/tree/k1 at index 7 (version 1, mzxid 0x11) "
                    + "before the data watch on /w/tree/k1 set at index 3 (version 0, mzxid 0x10) fired: the data "
                    + "changed since the watch was set, and the client must see the event first");
        });
    }

    @Test
    void aPersistentWatchWhoseZnodeIsReadChangedBeforeItsEventIsCaught() {
        CheckResult r = check(new WatchHistory()
                .addWatch(1, T, "persistent-recursive")
                .create(K1, "a", 0x10)
                .read(1, "get-data", K1, false, stat(0x10, 0x10, 0x10, 0))
                .event(1, "recursive", "created", K1, 0x10));
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> assertThat(v.rule())
                .isEqualTo("event-before-data"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anEventNoChangeCausedIsAPhantom(boolean zxids) {
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .event(1, "data", "data-changed", K1, z(zxids, 0x11))
                .set(K1, "b", 0x11)); // invoked only after the event
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("phantom");
            assertThat(v.explanation()).startsWith("data-changed on /w/tree/k1 to the data watcher of process 1 at "
                    + "index 4");
        });
    }

    @Test
    void anEventNamingAZxidNoChangeMadeIsAPhantom() {
        CheckResult r = check(new WatchHistory()
                .addWatch(1, T, "persistent-recursive")
                .create(K1, "a", 0x10)
                .event(1, "recursive", "data-changed", K1, 0x77));
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> assertThat(v.explanation())
                .isEqualTo("data-changed on /w/tree/k1 to the recursive watcher of process 1 at index 4 (zxid 0x77): "
                        + "no committed change has that zxid"));
    }

    @Test
    void aFailedChangeExplainsNoEvent() {
        WatchHistory h = new WatchHistory().create(K1, "a", 0x10).getData(1, K1, stat(0x10, 0x10, 0x10, 0));
        // a set that failed (no-node elsewhere) and a resolve that proved another never landed
        h.changeInfo(0, "set", K1, "b").resolve(2, List.of("b"), null, null);
        CheckResult r = check(h.event(1, "data", "data-changed", K1, -1));
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> assertThat(v.rule()).isEqualTo("phantom"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aWatchThatNeverFiresInAConnectedSessionIsALostTrigger(boolean zxids) {
        CheckResult r = check(WatchFixtures.lostInAConnectedSession(zxids));
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("lost-trigger");
            assertThat(v.explanation()).startsWith("the data watch on /w/tree/k1 set at index 5 (version 0, mzxid "
                    + "0x10) of process 1 had not fired by index ").contains("though set /w/tree/k1 (c, zxid 0x12",
                    "(on the same connection)");
        });
    }

    @Test
    void aSyncAfterTheChangeWasAcknowledgedIsTheBarrier() {
        // the sync is invoked before the set is acknowledged: nothing says the session had to have heard of it
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .syncInvoked(1)
                .set(K1, "b", 0x11)
                .done(1)
                .event(1, "data", "data-changed", K1, -1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void aDroppedEventIsCaughtByTheZxidOfALaterOneWithoutASync() {
        CheckResult r = check(WatchFixtures.twoWatchedSets().event(1, "data", "data-changed", K2, 0x13));
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> assertThat(v.explanation())
                .contains("had not fired by index 12 though set /w/tree/k1 (c, zxid 0x12", "it received "
                        + "data-changed on /w/tree/k2 to the data watcher of process 1 at index 12 (zxid 0x13), a "
                        + "later change"));
    }

    @Test
    void aDataWatchLostAcrossADisconnectIsNotExcused() {
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .sessionState(1, "disconnected")
                .set(K1, "b", 0x11)
                .sessionState(1, "sync-connected")
                .sync(1));
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("lost-trigger");
            assertThat(v.explanation()).endsWith("(the session reconnected in between: its watches were "
                    + "re-registered and triggered if needed)");
        });
    }

    @Test
    void anExpiredSessionIsNotHeldToItsWatches() {
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .create(K2, "x", 0x11)
                .getData(2, K2, stat(0x11, 0x11, 0x11, 0))
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .sessionState(1, "disconnected")
                .set(K1, "b", 0x12)
                .set(K2, "y", 0x13)
                .sessionState(1, "expired")
                .event(2, "data", "data-changed", K2, 0x13));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aPersistentWatchThatSkipsAChangeWhileConnectedIsCaught(boolean zxids) {
        CheckResult r = check(new WatchHistory()
                .addWatch(1, T, "persistent-recursive")
                .create(K1, "a", 0x10)
                .set(K1, "b", 0x11)
                .set(K1, "c", 0x12)
                .event(1, "recursive", "created", K1, z(zxids, 0x10))
                .event(1, "recursive", "data-changed", K1, z(zxids, 0x12))
                .sync(1));
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(violations(r)).as(r.summary()).extracting(WatchViolation::rule).containsAnyOf("lost-trigger");
        assertThat(violations(r).get(0).explanation()).contains("set /w/tree/k1 (" + (zxids ? "b" : "c"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aOneTimeWatchThatFiresTwiceIsCaught(boolean zxids) {
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .set(K1, "b", 0x11)
                .set(K1, "c", 0x12)
                .event(1, "data", "data-changed", K1, z(zxids, 0x11))
                .event(1, "data", "data-changed", K1, z(zxids, 0x12)));
        assertThat(violations(r)).as(r.summary()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("fired-twice");
            assertThat(v.explanation()).startsWith("data-changed on /w/tree/k1 to the data watcher of process 1 at "
                    + "index 10").endsWith("its one-time data watch on /w/tree/k1 had already fired at index 8 and "
                    + "was not set again since");
        });
    }

    @Test
    void aOneTimeWatchSetAgainMayFireAgain() {
        CheckResult r = check(new WatchHistory()
                .create(K1, "a", 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .set(K1, "b", 0x11)
                .event(1, "data", "data-changed", K1, 0x11)
                .getData(1, K1, stat(0x10, 0x11, 0x10, 1))
                .set(K1, "c", 0x12)
                .event(1, "data", "data-changed", K1, 0x12));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    // ---- nothing to judge, and what cannot be read ---------------------------------------------------------

    @Test
    void aHistoryWithoutEventsIsUnknown() {
        CheckResult r = check(new WatchHistory().create(K1, "a", 0x10).getData(1, K1, stat(0x10, 0x10, 0x10, 0)));
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).startsWith("No watch event was delivered: nothing to check.");
        assertThat(check(new WatchHistory().getData(1, K1, absent())).summary())
                .startsWith("No change committed: no watch could fire, nothing to check.");
    }

    @Test
    void aServerWithoutAddWatchIsNamedInTheSummary() {
        CheckResult r = check(new WatchHistory()
                .addWatchUnimplemented(1, T)
                .create(K1, "a", 0x10)
                .exists(1, K2, absent())
                .create(K2, "b", 0x11)
                .event(1, "data", "created", K2, -1));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).endsWith("persistent watches not checked: this server answered addWatch with "
                + "Unimplemented (ZooKeeper has them from 3.6.0).");
    }

    @Test
    void aMalformedEventNamesTheOperation() {
        WatchHistory h = new WatchHistory().create(K1, "a", 0x10).event(1, "sideways", "created", K1, -1);
        assertThatThrownBy(() -> checker.check(h.build())).isInstanceOf(MalformedHistoryException.class)
                .hasMessageStartingWith("operation event by process 500001 (history index 2..3): an event names its "
                        + "\"watcher\"");
    }
}
