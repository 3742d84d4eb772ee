package io.zkchaos.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Validity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunStoreTest {

    @TempDir
    Path tmp;

    @Test
    void createsRunDirectoriesWithLatestLinks() throws Exception {
        RunStore store = new RunStore(tmp);
        Instant t = Instant.parse("2026-11-29T18:00:00Z");
        RunDirectory first = store.create("set-kill-leader", t);
        RunDirectory second = store.create("set-kill-leader", t);
        assertThat(first.path()).isNotEqualTo(second.path());
        assertThat(first.path().getFileName().toString()).isEqualTo("20261129T180000.000Z");
        assertThat(tmp.resolve("set-kill-leader/latest").toRealPath()).isEqualTo(second.path().toRealPath());
        assertThat(tmp.resolve("latest").toRealPath()).isEqualTo(second.path().toRealPath());
        assertThat(store.runs()).extracting(RunDirectory::path).containsExactly(first.path(), second.path());
    }

    @Test
    void writesConfigAndResultsAsJson() throws Exception {
        RunDirectory run = new RunStore(tmp).create("register-none", Instant.now());
        run.writeConfig(new CheckSettings("h.edn", "/tmp/h.edn", "linearizable", "register",
                CheckerOptions.defaults()));
        CheckResult result = new CheckResult("all", Validity.INVALID, "lost 2 values", null,
                List.of(CheckResult.of("no-lost-commit", Validity.INVALID, "lost 2 values", FindingSamples.set()),
                        CheckResult.of("timeline", Validity.UNKNOWN, "ran out of time", null)));
        run.writeResults(result);
        assertThat(Files.readString(run.configFile())).contains("\"command\" : \"check\"");
        var saved = run.readResults();
        assertThat(saved.get("valid").asBoolean(true)).isFalse();
        assertThat(saved.get("parts").get(0).get("details").get("lost").get(0).get("value").asLong()).isEqualTo(7);
        assertThat(saved.get("parts").get(1).get("valid").asText()).isEqualTo("unknown");
        assertThat(run.nodeDir("n1")).isDirectory().startsWith(run.path());
        // Each file is written to FILE.tmp next to it and renamed into place: none may be left over.
        try (Stream<Path> files = Files.walk(run.path())) {
            assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(RunDirectory.CONFIG, RunDirectory.RESULTS);
        }
    }

    @Test
    void rejectsScenarioNamesThatAreNotFileNames() {
        assertThatThrownBy(() -> new RunStore(tmp).create("../escape", Instant.now()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("../escape");
    }
}
