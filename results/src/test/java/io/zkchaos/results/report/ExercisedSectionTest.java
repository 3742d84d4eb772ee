package io.zkchaos.results.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's "What the run exercised" section, rendered from evidence.json. */
class ExercisedSectionTest {

    @TempDir
    Path tmp;

    private static final History HISTORY = new HistoryBuilder()
            .invoke(1, "write", "r0", 1L, 0).ok(1, null, 10)
            .invoke(2, "read", "r0", null, 20).ok(2, 1L, 25)
            .build();

    private RunDirectory run(String name, String nemesis, io.zkchaos.checkers.CheckResult evidence) {
        return RunDirs.write(tmp.resolve(name), RunDirs.run("register", nemesis), HISTORY,
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of(), evidence);
    }

    private static List<String> cells(Element row) {
        return row.select("td, th").eachText();
    }

    @Test
    void aRunThatExercisedEnoughShowsItsOperationsFaultsAndWhatTheHarnessSaw() {
        Document doc = RunDirs.render(run("enough", "isolate-leader", Evidence.enough()));

        assertThat(doc.select("nav.toc a[href=#exercised-section]").text()).isEqualTo("What the run exercised");
        assertThat(doc.getElementById("facts").text()).contains("exercised 412 acknowledged, 210 under faults")
                .doesNotContain("too little");
        Element section = doc.getElementById("exercised-section");
        assertThat(section.getElementById("evidence-verdict").text()).startsWith("Enough to be evidence");
        assertThat(section.getElementById("evidence-relaxed").text()).contains("acked-after-heal");
        assertThat(section.select("ul.requirements li.req").eachText()).containsExactly("acked-main: met",
                "acked-after-heal: relaxed", "fault-applied: met", "acked-under-fault: met");

        Elements functions = section.select("table.exercised-functions tr");
        assertThat(cells(functions.get(0))).containsExactly("function", "over the run", "in the main phase",
                "while a fault was in force", "after the final heal");
        assertThat(cells(functions.get(1))).containsExactly("write", "300 ok / 5 fail / 2 info",
                "250 ok / 5 fail / 2 info", "120 ok / 3 fail / 2 info", "50 ok / 0 fail / 0 info");
        assertThat(cells(functions.get(2))).containsExactly("read", "112 ok / 0 fail / 1 info",
                "90 ok / 0 fail / 1 info", "90 ok / 0 fail / 1 info", "22 ok / 0 fail / 0 info");
        assertThat(cells(functions.get(3))).containsExactly("every function", "412 ok / 5 fail / 3 info",
                "340 ok / 5 fail / 3 info", "210 ok / 3 fail / 3 info", "72 ok / 0 fail / 0 info");

        Elements faults = section.select("table.exercised-faults tr:has(td)");
        assertThat(faults).hasSize(2);
        assertThat(cells(faults.get(0))).containsExactly("isolate-leader", "3 of 4", "not measured", "1", "0",
                "210 (of 216 in flight)", "none armed", "no leader to aim at");
        assertThat(cells(faults.get(1))).containsExactly("stall-during-snapshot", "2 of 2", "not measured", "0", "0",
                "0 (of 10 in flight)", "2 of 3 armed"); // and no reason
        assertThat(faults.select("tr.bad")).isEmpty();

        assertThat(section.select("table.exercised-observed tr").eachText()).containsExactly(
                "quorum syncs DIFF 4, SNAP 1, TRUNC 0", "leader changes 2",
                "client processes retired (an operation of unknown outcome) 3",
                "bug code paths run none counted (no bug switched on in the project's own nodes)",
                "the harness's own reads after the run read 3 ok / 0 fail / 0 info");

        Element card = doc.selectFirst("article[data-checker=evidence]");
        assertThat(card.select(".badge").text()).isEqualTo("valid");
        assertThat(card.select(".summary").text()).startsWith("412 of 420 client operations acknowledged");
        assertThat(card.select("ul.facts-inline li").eachText()).containsExactly("requirements met: 3 of 4");
    }

    @Test
    void eachCheckersPromisesAreListedWithTheirCountsAndTheUntestedNamedNotJudged() {
        io.zkchaos.checkers.evidence.EvidenceReport e = (io.zkchaos.checkers.evidence.EvidenceReport)
                Evidence.enough().details();
        io.zkchaos.checkers.evidence.Exercised withPromises = e.exercised().withPromises(java.util.Map.of(
                "multi-txn", List.of(new io.zkchaos.checkers.evidence.PromiseTally("committed", "whole", 1_200),
                        new io.zkchaos.checkers.evidence.PromiseTally("aborted", "none of it", 0))));
        Document doc = RunDirs.render(run("promises", "isolate-leader",
                Evidence.minimum("isolate-leader").judge(withPromises, List.of("acked-after-heal"))));
        assertThat(doc.getElementById("exercised-section").select("table.exercised-observed tr").eachText())
                .contains("promises multi-txn judged committed 1,200, aborted 0 (not judged)");
    }

    @Test
    void aRunBelowItsMinimumSaysProminentlyWhichRequirementsItMissed() {
        Document doc = RunDirs.render(run("short", "kill-leader", Evidence.tooLittle()));

        assertThat(doc.getElementById("verdict").text()).isEqualTo("UNKNOWN");
        assertThat(doc.getElementById("facts").text())
                .contains("exercised 0 acknowledged, 0 under faults — too little to be evidence");
        Element verdict = doc.getElementById("evidence-verdict");
        assertThat(verdict.hasClass("short")).isTrue();
        assertThat(verdict.text()).startsWith("Too little to be evidence");
        assertThat(verdict.select("ul.unmet li").eachText()).containsExactly(
                "no cas or write was acknowledged in the main phase (0 ok / 4 fail / 0 info)",
                "no operation was acknowledged after the final heal (none was made)",
                "the nemesis never acted: 3 of 3 actions could not act: no leader");
        assertThat(doc.select("ul.requirements li.unmet").eachText()).containsExactly("acked-main: NOT MET",
                "acked-after-heal: NOT MET", "fault-applied: NOT MET");
        assertThat(doc.getElementById("evidence-relaxed")).isNull();
        Element fault = doc.selectFirst("table.exercised-faults tr:has(td)");
        assertThat(fault.hasClass("bad")).isTrue();
        assertThat(cells(fault)).containsSubsequence("kill-leader", "0 of 3", "3", "0");
        assertThat(doc.select("table.exercised-functions tr:has(td)")).singleElement()
                .satisfies(row -> assertThat(cells(row)).containsExactly("write", "0 ok / 4 fail / 0 info",
                        "0 ok / 4 fail / 0 info", "none", "none"));
        assertThat(doc.getElementById("exercised-section").text()).contains("holds no final heal");
        assertThat(doc.select("table.exercised-observed tr").eachText()).contains("leader changes 0",
                "quorum syncs not watched (no fault tapped the quorum links)");
        assertThat(doc.selectFirst("article[data-checker=evidence] .badge").text()).isEqualTo("UNKNOWN");
    }

    @Test
    void aRunWithoutEvidenceJsonSaysSoInOneLine() {
        Document doc = RunDirs.render(run("old", "none", null));

        assertThat(doc.getElementById("evidence-missing").text()).startsWith("No evidence.json");
        assertThat(doc.select("#exercised-section table")).isEmpty();
        assertThat(doc.getElementById("facts").text()).doesNotContain("exercised");
        assertThat(doc.getElementById("notes")).isNull();
    }

    @Test
    void anUnreadableEvidenceJsonIsANoteNotABrokenPage() throws Exception {
        RunDirectory r = run("broken", "none", null);
        Files.writeString(r.evidenceFile(), "{\"exercised\": 3");

        Document doc = RunDirs.render(r);

        assertThat(doc.getElementById("notes").text()).contains("evidence.json cannot be read");
        assertThat(doc.getElementById("evidence-missing")).isNotNull();
        assertThat(doc.getElementById("verdict").text()).isEqualTo("valid");
    }
}
