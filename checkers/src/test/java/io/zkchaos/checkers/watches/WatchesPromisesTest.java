package io.zkchaos.checkers.watches;

import static io.zkchaos.checkers.watches.WatchHistory.K1;
import static io.zkchaos.checkers.watches.WatchHistory.T;
import static io.zkchaos.checkers.watches.WatchHistory.absent;
import static io.zkchaos.checkers.watches.WatchHistory.stat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.PromiseTally;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The watches checker says which of its guarantees a history tested, counting the events of each kind. */
class WatchesPromisesTest {

    /** Session 1 sets one-time child, exists and data watches; session 2 a persistent-recursive one on the tree. */
    private static CheckResult check() {
        return new WatchesChecker().check(new WatchHistory()
                .addWatch(2, T, "persistent-recursive")
                .getChildren(1, T, stat(0x1, 0x1, 0x1, 0))
                .exists(1, K1, absent())
                .create(K1, "a", 0x10)
                .event(1, "child", "children-changed", T, 0x10)
                .event(1, "data", "created", K1, 0x10)
                .event(2, "recursive", "created", K1, 0x10)
                .getData(1, K1, stat(0x10, 0x10, 0x10, 0))
                .set(K1, "b", 0x11)
                .event(1, "data", "data-changed", K1, 0x11)
                .event(2, "recursive", "data-changed", K1, 0x11)
                .sync(1)
                .sync(2)
                .build());
    }

    private static Map<String, Long> counts(Iterable<PromiseTally> tallies) {
        Map<String, Long> m = new LinkedHashMap<>();
        tallies.forEach(t -> m.put(t.id(), t.tested()));
        return m;
    }

    @Test
    void eachKindOfTriggerIsCountedAndTheOnesNeverFiredAreTestedNoTime() {
        CheckResult r = check();
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        WatchesReport report = (WatchesReport) r.details();
        assertThat(report.eventTypes()).containsExactly(Map.entry("children-changed", 1), Map.entry("created", 2),
                Map.entry("data-changed", 2));
        assertThat(report.eventWatchers()).containsExactly(Map.entry("child", 1), Map.entry("data", 2),
                Map.entry("recursive", 2));
        assertThat(counts(report.promises())).containsExactly(
                Map.entry("one-time", 3L), Map.entry("persistent", 0L), Map.entry("persistent-recursive", 2L),
                Map.entry("data-changed", 2L), Map.entry("created", 2L), Map.entry("deleted", 0L),
                Map.entry("children-changed", 1L), Map.entry("none-lost", 2L));
        assertThat(report.promises()).filteredOn(t -> !t.wasTested()).extracting(PromiseTally::id)
                .containsExactly("persistent", "deleted");
    }

    @Test
    void readBackFromJsonItSaysTheSameAndAnOlderFileReadsWithKindsUncounted() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        WatchesReport report = (WatchesReport) check().details();
        String json = mapper.writeValueAsString(report);
        WatchesReport back = (WatchesReport) mapper.readValue(json, Findings.class);
        assertThat(back.promises()).isEqualTo(report.promises());

        ObjectNode old = (ObjectNode) mapper.readTree(json);
        old.remove("eventTypes");
        old.remove("eventWatchers");
        WatchesReport before = (WatchesReport) mapper.treeToValue(old, Findings.class);
        assertThat(before.eventTypes()).isEmpty();
        assertThat(counts(before.promises())).containsEntry("one-time", 0L).containsEntry("none-lost", 2L);
    }
}
