package io.zkchaos.checkers;

import static io.zkchaos.checkers.watches.WatchHistory.K1;
import static io.zkchaos.checkers.watches.WatchHistory.K2;
import static io.zkchaos.checkers.watches.WatchHistory.T;
import static io.zkchaos.checkers.watches.WatchHistory.absent;
import static io.zkchaos.checkers.watches.WatchHistory.stat;

import io.zkchaos.checkers.watches.WatchFixtures;
import io.zkchaos.checkers.watches.WatchHistory;
import java.util.List;
import java.util.Map;

/** The {@code watches} examples of docs/watches.md, in the doc's order ({@link DocExamplesTest}). */
final class WatchesDocExamples {

    private WatchesDocExamples() {
    }

    static List<DocExamplesTest.Example> examples() {
        // Session 1 sets a data watch on k1 and a persistent-recursive one on the tree; k1 is set, then deleted;
        // an exists watch on k2 is set, the session is disconnected while k2 comes and goes, and reconnects.
        DocExamplesTest.Example kept = new DocExamplesTest.Example("watches", Map.of(), new WatchHistory()
                .addWatch(1, T, "persistent-recursive")
                .create(K1, "a", 0x10)
                .event(1, "recursive", "created", K1, 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .set(K1, "b", 0x11)
                .event(1, "recursive", "data-changed", K1, 0x11)
                .event(1, "data", "data-changed", K1, 0x11)
                .getData(1, K1, stat(0x10, 0x11, 0x10, 1))
                .exists(1, K2, absent())
                .sessionState(1, "disconnected")
                .create(K2, "c", 0x12)
                .delete(K2, "d", 0x13)
                .sessionState(1, "sync-connected")
                .sync(1)
                .delete(K1, "e", 0x14)
                .event(1, "recursive", "deleted", K1, 0x14)
                .event(1, "data", "deleted", K1, 0x14)
                .sync(1)
                .build());
        // Planted: the client hands the events of k2's and k1's changes over in the wrong order.
        DocExamplesTest.Example reordered = new DocExamplesTest.Example("watches", Map.of(),
                WatchFixtures.reordered(false).build());
        // Planted: k1 is set while session 1 watches it; the session's sync after that completes, and no event came.
        DocExamplesTest.Example lost = new DocExamplesTest.Example("watches", Map.of(),
                WatchFixtures.lostInAConnectedSession(false).build());
        // Planted: the session reads k1's new version before the event of its watch on k1.
        DocExamplesTest.Example early = new DocExamplesTest.Example("watches", Map.of(),
                WatchFixtures.readBeforeEvent(true).build());
        return List.of(kept, reordered, lost, early);
    }
}
