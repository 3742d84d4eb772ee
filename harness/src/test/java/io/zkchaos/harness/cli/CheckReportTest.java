package io.zkchaos.harness.cli;

import static io.zkchaos.harness.cli.CheckCommandTest.data;
import static io.zkchaos.harness.cli.CheckCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.results.CheckSettings;
import io.zkchaos.results.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --report DIR} and {@code report DIR}: run directories and pages from histories that a run did not make. */
class CheckReportTest {

    @TempDir
    Path dir;

    @Test
    void oneHistoryBecomesARunDirectoryWithItsReport() throws Exception {
        String bad = data("knossos/cas-register/bad/rethink-fail-minimal.edn");
        Path out = dir.resolve("one");
        CheckCommandTest.Run r = run("check", "--model", "cas-register", "--init", "0", "--report", out.toString(), bad);
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.lines()).hasSize(2);
        assertThat(r.lines().get(1)).isEqualTo("  report: " + out.toAbsolutePath().normalize().resolve("index.html"));
        RunDirectory run = new RunDirectory(out);
        assertThat(HistoryFiles.read(run.historyFile()).size()).isEqualTo(8);
        CheckResult result = run.readCheckResult();
        assertThat(result.validity()).isEqualTo(Validity.INVALID);
        assertThat(result.details()).isInstanceOfSatisfying(LinearizabilityDetails.class,
                d -> assertThat(d.counterexample().operation().invokeIndex()).isEqualTo(2));
        assertThat(run.readConfig()).get().isInstanceOfSatisfying(CheckSettings.class, c -> {
            assertThat(c.title()).isEqualTo("rethink-fail-minimal.edn");
            assertThat(c.checker()).isEqualTo("linearizable");
            assertThat(c.model()).isEqualTo("cas-register");
            assertThat(c.history()).endsWith("rethink-fail-minimal.edn");
        });
        assertThat(run.reportFile()).content().contains("INVALID").contains("id=\"linearizability\"");
    }

    @Test
    void severalHistoriesGetADirectoryEachAndASuiteIndexAndJsonLinesNameTheReport() throws Exception {
        String good = data("knossos/cas-register/good/memstress3-0.edn");
        String bad = data("knossos/cas-register/bad/rethink-fail-minimal.edn");
        Path out = dir.resolve("many");
        CheckCommandTest.Run r = run("check", "--model", "cas-register", "--init", "0", "--json", "--report",
                out.toString(), good, bad);
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.lines()).hasSize(2); // JSON lines only: the report paths are in them
        assertThat(new ObjectMapper().readTree(r.lines().get(1)).get("report").asText())
                .isEqualTo(out.toAbsolutePath().normalize().resolve("rethink-fail-minimal/index.html").toString());
        assertThat(out.resolve("memstress3-0/index.html")).isRegularFile();
        assertThat(out.resolve("index.html")).content().contains("1 INVALID, 1 valid")
                .contains("href=\"rethink-fail-minimal/index.html\"");
    }

    @Test
    void aDirectoryThatHoldsAHistoryIsNeverOverwritten() throws Exception {
        String bad = data("knossos/cas-register/bad/rethink-fail-minimal.edn");
        Path out = dir.resolve("once");
        assertThat(run("check", "--model", "cas-register", "--init", "0", "--report", out.toString(), bad).exit())
                .isEqualTo(1);
        String before = Files.readString(out.resolve("history.jsonl"));
        CheckCommandTest.Run again = run("check", "--model", "cas-register", "--init", "0", "--report",
                out.toString(), data("knossos/cas-register/good/memstress3-0.edn"));
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("already holds a history");
        assertThat(out.resolve("history.jsonl")).hasContent(before);
    }

    @Test
    void reportRendersARunAgainAndADirectoryOfRunsWithAnIndex() throws Exception {
        String good = data("knossos/cas-register/good/memstress3-0.edn");
        String bad = data("knossos/cas-register/bad/rethink-fail-minimal.edn");
        Path out = dir.resolve("store");
        run("check", "--model", "cas-register", "--init", "0", "--report", out.toString(), good, bad);
        Files.delete(out.resolve("memstress3-0/index.html"));
        Files.delete(out.resolve("index.html"));

        CheckCommandTest.Run one = run("report", out.resolve("memstress3-0").toString());
        assertThat(one.exit()).as(one.err()).isZero();
        assertThat(out.resolve("memstress3-0/index.html")).content().contains(">valid<");
        CheckCommandTest.Run all = run("report", out.toString());
        assertThat(all.exit()).as(all.err()).isZero();
        assertThat(all.out().trim()).isEqualTo(out.resolve("index.html").toString());
        assertThat(out.resolve("index.html")).isRegularFile();

        CheckCommandTest.Run empty = run("report", dir.resolve("nothing-here").toString());
        assertThat(empty.exit()).isEqualTo(2);
        assertThat(empty.err()).contains("not a directory");
        Files.createDirectories(dir.resolve("empty"));
        assertThat(run("report", dir.resolve("empty").toString()).err()).contains("no run directory");
    }
}
