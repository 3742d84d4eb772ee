package io.zkchaos.results.report;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteIndexTest {

    @TempDir
    Path store;

    @Test
    void listsEveryRunTheOnesToLookAtFirstWithLinksToTheirReports() throws Exception {
        History good = new HistoryBuilder().invoke(1, "add", 1L, 10).ok(1, null, 12)
                .nemesis("kill-leader", map("fault", "kill-leader", "description", "kill n2"), 20, 21)
                .nemesis("heal", FaultRecords.healed(), 40, 41)
                .invoke(9, "read", null, 50).ok(9, map("node", "n1", "values", List.of(1L)), 51).build();
        History bad = new HistoryBuilder().invoke(1, "add", 1L, 10).ok(1, null, 12)
                .invoke(9, "read", null, 50).ok(9, map("node", "n1", "values", List.of()), 51).build();
        RunDirectory a = RunDirs.write(store.resolve("set-kill-leader/20260101T000000.000Z"),
                RunDirs.run("set", "kill-leader"), good,
                CheckerCatalog.create("no-lost-commit", CheckerOptions.defaults()), List.of());
        RunDirectory b = RunDirs.write(store.resolve("set-none/20260101T000100.000Z"),
                RunDirs.run("set", "none"), bad, CheckerCatalog.create("no-lost-commit", CheckerOptions.defaults()),
                List.of());
        RunDirectory c = RunDirs.write(store.resolve("set-halves/20260101T000200.000Z"),
                RunDirs.run("set", "halves"), good, null, List.of());
        RunReport.write(a);
        RunReport.write(b);

        List<RunDirectory> found = RunStore.find(store);
        assertThat(found).extracting(RunDirectory::path).containsExactlyInAnyOrder(a.path(), b.path(), c.path());
        Path index = SuiteIndex.write(store.resolve("index.html"), "chaos suite", found);

        Document doc = Jsoup.parse(Files.readString(index));
        assertThat(doc.select("header.banner").hasClass("invalid")).isTrue();
        assertThat(doc.getElementById("counts").text()).isEqualTo("3 run(s): 1 INVALID, 1 UNCHECKED, 1 valid");
        List<Element> rows = doc.select("tr.run");
        assertThat(rows).extracting(r -> r.child(0).text()).containsExactly("set-none", "set-halves",
                "set-kill-leader");
        assertThat(rows.get(0).child(1).text()).isEqualTo("INVALID");
        assertThat(rows.get(2).select("td").eachText()).containsSubsequence("set-kill-leader", "valid", "2 (2 ok)",
                "1", "51.0 ms");
        String link = rows.get(2).selectFirst("td:last-child a").attr("href");
        assertThat(rows.get(2).selectFirst("td a").attr("href")).isEqualTo(link);
        assertThat(link).isEqualTo("set-kill-leader/20260101T000000.000Z/index.html");
        assertThat(store.resolve(link)).isRegularFile();
        assertThat(rows.get(1).select("a")).isEmpty(); // never rendered: no link, but the command that makes one
        assertThat(rows.get(1).text()).contains("./zkchaos report");
    }

    @Test
    void perNemesisTheFaultsAppliedAndTheOperationsUnderThemAndEveryRunThatRestsOnNothingFlagged() throws Exception {
        History h = new HistoryBuilder().invoke(1, "write", "r0", 1L, 10).ok(1, null, 12).build();
        CheckerOptions options = CheckerOptions.defaults();
        RunDirectory enough = RunDirs.write(store.resolve("register-isolate-leader/1"),
                RunDirs.run("register", "isolate-leader"), h,
                CheckerCatalog.create("zk-read-model", options), List.of(), Evidence.enough());
        RunDirectory again = RunDirs.write(store.resolve("register-isolate-leader/2"),
                RunDirs.run("register", "isolate-leader"), h,
                CheckerCatalog.create("zk-read-model", options), List.of(), Evidence.enough());
        RunDirectory tooLittle = RunDirs.write(store.resolve("register-kill-leader/1"),
                RunDirs.run("register", "kill-leader"), h,
                CheckerCatalog.create("zk-read-model", options), List.of(), Evidence.tooLittle());
        RunDirectory old = RunDirs.write(store.resolve("register-none/1"),
                RunDirs.run("register", "none"), h,
                CheckerCatalog.create("zk-read-model", options), List.of());

        Path index = SuiteIndex.write(store.resolve("index.html"), "chaos suite",
                List.of(enough, again, tooLittle, old));

        Document doc = Jsoup.parse(Files.readString(index));
        List<Element> coverage = doc.select("#coverage tr:has(td)");
        assertThat(coverage).extracting(r -> r.select("td").eachText()).containsExactly(
                // two runs of 3 of 4 and 2 of 2 starts applied, 210 acknowledged under faults each
                List.of("isolate-leader", "2", "2 of 2", "10 of 12", "420", "0"),
                List.of("kill-leader", "1", "1 of 1", "0 of 3", "0", "1"),
                List.of("none", "1", "0 of 1", "0 of 0", "0", "0"));
        assertThat(coverage.get(1).hasClass("bad")).as("a nemesis that never acted").isTrue();
        assertThat(coverage.get(0).hasClass("bad")).isFalse();
        assertThat(coverage.get(2).hasClass("bad")).isFalse();

        assertThat(doc.getElementById("nothing").text()).startsWith("2 run(s) rest on nothing");
        List<Element> flagged = doc.select("tr.run.rests-on-nothing");
        assertThat(flagged).extracting(r -> r.child(0).text()).containsExactly("register-kill-leader",
                "register-none");
        assertThat(flagged.get(0).selectFirst("td.evidence-cell.short").text()).startsWith("too little: ")
                .contains("the nemesis never acted: 3 of 3 actions could not act: no leader")
                .contains("no cas or write was acknowledged in the main phase");
        assertThat(flagged.get(1).selectFirst("td.evidence-cell.short").text())
                .isEqualTo("not recorded (no evidence.json)");
        assertThat(doc.select("tr.run:not(.rests-on-nothing) td.evidence-cell").eachText())
                .containsExactly("enough (relaxed: acked-after-heal)", "enough (relaxed: acked-after-heal)");
        assertThat(doc.select("td.evidence-cell.short")).hasSize(2);
    }
}
