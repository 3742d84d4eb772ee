package io.zkchaos.results.report;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.RunDirectory;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watches checker's card: its figures, and each broken guarantee linked to the entries it names. */
class WatchesCardTest {

    @TempDir
    Path tmp;

    @Test
    void eventsOutOfOrderAreListedWithLinksToTheEvents() {
        String k1 = "/w/tree/k1";
        String k2 = "/w/tree/k2";
        Object set = map("exists", true, "czxid", 16L, "mzxid", 16L, "pzxid", 16L, "version", 0L);
        Object set2 = map("exists", true, "czxid", 17L, "mzxid", 17L, "pzxid", 17L, "version", 0L);
        History h = new HistoryBuilder()
                .invoke(0, "create", k1, map("id", "a"), 1).ok(0, map("zxid", 16L), 2)
                .invoke(0, "create", k2, map("id", "b"), 3).ok(0, map("zxid", 17L), 4)
                .invoke(1, "get-data", k1, map("watch", true), 5).ok(1, set, 6)
                .invoke(1, "get-data", k2, map("watch", true), 7).ok(1, set2, 8)
                .invoke(0, "set", k1, map("id", "c"), 9).ok(0, map("zxid", 18L), 10)
                .invoke(0, "set", k2, map("id", "d"), 11).ok(0, map("zxid", 19L), 12)
                .invoke(500_001, "event", k2, map("watcher", "data", "type", "data-changed", "zxid", 19L), 13)
                .ok(500_001, null, 13)
                .invoke(500_001, "event", k1, map("watcher", "data", "type", "data-changed", "zxid", 18L), 14)
                .ok(500_001, null, 14)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("watches"), RunDirs.run("watches", "none"), h,
                CheckerCatalog.create("watches", CheckerOptions.defaults()), List.of());

        Document doc = RunDirs.render(run);

        assertThat(doc.getElementById("verdict").text()).isEqualTo("INVALID");
        Element card = doc.selectFirst("article[data-checker=watches]");
        assertThat(card.select("ol.findings li").text()).startsWith("ordering: data-changed on /w/tree/k1 to the "
                + "data watcher of process 1 at index 14 (zxid 0x12)");
        assertThat(card.select("ol.findings li a.ref").eachAttr("data-entry")).contains("14", "12");
        assertThat(card.text()).contains("events delivered", "one-time watches set");
    }
}
