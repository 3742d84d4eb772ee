package io.zkchaos.harness.cli;

import static io.zkchaos.harness.cli.CheckCommandTest.data;
import static io.zkchaos.harness.cli.CheckCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.harness.run.config.RunConfig;
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

    @Test
    void reportMergesTheStoresOfShardsIntoOneIndexLinkingEveryRun() throws Exception {
        Path shard1 = dir.resolve("shard-1");
        Path shard2 = dir.resolve("shard-2");
        run("check", "--model", "cas-register", "--init", "0", "--report", shard1.toString(),
                data("knossos/cas-register/good/memstress3-0.edn"),
                data("knossos/cas-register/bad/rethink-fail-minimal.edn"));
        run("check", "--model", "cas-register", "--init", "0", "--report", shard2.toString(),
                data("knossos/cas-register/bad/cas-failure.edn"), data("knossos/cas-register/good/memstress3-0.edn"));
        // a run whose ensemble never served: its configuration and server logs, no history
        Path neverServed = Files.createDirectories(shard2.resolve("set-halves/20260101T000000.000Z"));
        new RunDirectory(neverServed).writeConfig(RunConfig.builder().workload("set").nemesis("halves")
                .out(shard2).build().saved());
        Path merged = dir.resolve("merged");

        CheckCommandTest.Run r = run("report", "--merge", merged.toString(), shard1.toString(), shard2.toString(),
                shard2.resolve("cas-failure").toString()); // a run named twice is listed once
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().trim()).isEqualTo(merged.resolve("index.html").toString());
        assertThat(merged.resolve("index.html")).content().contains("5 run(s): 2 INVALID, 1 UNCHECKED, 2 valid")
                .contains(">set-halves<").contains("no history.jsonl")
                .contains("href=\"../shard-1/memstress3-0/index.html\"")
                .contains("href=\"../shard-2/memstress3-0/index.html\"")
                .contains("href=\"../shard-1/rethink-fail-minimal/index.html\"")
                .contains("href=\"../shard-2/cas-failure/index.html\"");
        assertThat(shard1.resolve("index.html")).isRegularFile(); // each shard's own index stays as it was

        CheckCommandTest.Run alone = run("report", neverServed.toString());
        assertThat(alone.exit()).isEqualTo(2);
        assertThat(alone.err()).contains("a run without history.jsonl");

        CheckCommandTest.Run missing = run("report", "--merge", merged.toString(), shard1.toString(),
                dir.resolve("shard-3").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("shard-3: not a directory");
    }
}
