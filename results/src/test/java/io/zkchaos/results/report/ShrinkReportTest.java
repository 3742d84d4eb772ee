package io.zkchaos.results.report;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shrink page: the original and the smallest run side by side, linked to their reports, then every step. */
class ShrinkReportTest {

    @TempDir
    Path store;

    private RunDirectory run(String name, int faults) {
        HistoryBuilder h = new HistoryBuilder().invoke(1, "add", 1L, 10).ok(1, null, 12);
        for (int i = 0; i < faults; i++) {
            h.nemesis("kill-leader", map("fault", "kill-leader", "description", "kill n2"), 20 + i * 10, 21 + i * 10);
        }
        History history = h.invoke(9, "read", null, 90).ok(9, map("node", "n1", "values", List.of()), 91).build();
        RunDirectory run = RunDirs.write(store.resolve(name), RunDirs.run("set", "mixed"), history,
                CheckerCatalog.create("no-lost-commit", CheckerOptions.defaults()), List.of());
        RunReport.write(run);
        return run;
    }

    @Test
    void showsBothRunsSideBySideWithTheirFaultsSizesRatesAndLinksThenEveryStep() throws Exception {
        Path dir = store.resolve("original/shrink");
        ShrinkReport.Side original = ShrinkReport.side(dir, "original", run("original", 3), "no-lost-commit:lost",
                List.of("isolate-leader 5.0–11.0 s on n2 (leader)", "kill-random 16.0–22.0 s", "halves 27.0–33.0 s"),
                "60.0 s", "3 nodes, 5 clients", "3 of 3 replays found it again");
        ShrinkReport.Side shrunk = ShrinkReport.side(dir, "shrunk", run("original/shrink/runs/small", 1),
                "no-lost-commit:lost", List.of("isolate-leader 2.5–5.5 s on n3 (leader)"), "6.5 s",
                "3 nodes, 2 clients", "2 of 3 replays found it again");
        Path page = ShrinkReport.write(dir.resolve("index.html"), new ShrinkReport.Page("store/original",
                "no-lost-commit:lost: from 3 fault(s) in 60.0 s to 1 in 6.5 s", original, shrunk, List.of(
                new ShrinkReport.Step(1, "keep 1 of 3 faults (<isolate-leader>)", List.of("valid", "INVALID "
                        + "no-lost-commit:lost"), true)), "schedule.json"));

        Document doc = Jsoup.parse(Files.readString(page));
        assertThat(doc.select("header.banner").hasClass("invalid")).isTrue();
        assertThat(doc.getElementById("headline").text()).contains("from 3 fault(s) in 60.0 s to 1 in 6.5 s");
        var sides = doc.getElementById("sides").select("tr");
        assertThat(sides.get(0).select("th").eachText()).containsExactly("original", "shrunk");
        assertThat(sides.get(2).select("td").get(0).html()).contains("kill-random 16.0–22.0 s");
        assertThat(sides.get(2).select("td").get(1).text()).isEqualTo("isolate-leader 2.5–5.5 s on n3 (leader)");
        assertThat(doc.getElementById("sides").text()).contains("3 of 3 replays found it again",
                "2 of 3 replays found it again", "6.5 s", "3 nodes, 2 clients");
        assertThat(doc.getElementById("sides").select("a").eachAttr("href"))
                .containsExactly("../index.html", "runs/small/index.html");
        assertThat(dir.resolve("runs/small/index.html")).isRegularFile();
        assertThat(doc.getElementById("steps").text()).contains("keep 1 of 3 faults (<isolate-leader>)", "kept");
        assertThat(Files.readString(page)).as("text from runs is escaped").contains("&lt;isolate-leader&gt;");
    }
}
