package io.zkchaos.results.report;

import static io.zkchaos.results.report.RunDirs.server;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.RunDirectory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The terminal's account of a run says the same as the report's header. */
class RunStoryTest {

    @TempDir
    Path tmp;

    @Test
    void tellsTheFaultsWhoLedAndHowTheOperationsEnded() {
        History h = new HistoryBuilder()
                .invoke(1, "write", "r0", 1L, 0).ok(1, null, 10)
                .nemesis("isolate-leader", FaultRecords.isolate("n3", "n1", "n2"), 100, 110)
                .invoke(1, "write", "r0", 2L, 120).info(1, 300)
                .invoke(6, "read", "r0", null, 310).ok(6, 2L, 320)
                .nemesis("heal", FaultRecords.healed(), 400, 405)
                .build();
        RunDirectory run = RunDirs.write(tmp.resolve("run"), RunDirs.run("register", "isolate-leader"), h,
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of(
                server(1, "n1", "follower", 1), server(1, "n3", "leader", 1), server(150, "n1", "leader", 2)));

        List<String> story = RunStory.of(run);

        assertThat(story).containsSubsequence("faults: 1", "  0.100 s  isolate n3 from {n1, n2} (for 305.0 ms)");
        assertThat(story).contains("ZooKeeper leaders: n3 (epoch 1) → n1 (epoch 2) at 0.150 s",
                "client operations: 3 (2 ok, 0 fail, 1 info)", "processes: 2");
    }

    @Test
    void aRunWithoutFaultsSaysSo() {
        History h = new HistoryBuilder().invoke(1, "write", "r0", 1L, 0).ok(1, null, 10).build();
        RunDirectory run = RunDirs.write(tmp.resolve("quiet"), RunDirs.run("register", "none"), h,
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of());

        assertThat(RunStory.of(run)).startsWith("faults: none").contains("client operations: 1 (1 ok, 0 fail, 0 info)");
    }

    @Test
    void aRunThatRecordedWhatItExercisedSaysItInOneLine() {
        History h = new HistoryBuilder().invoke(1, "write", "r0", 1L, 0).ok(1, null, 10).build();
        RunDirectory run = RunDirs.write(tmp.resolve("exercised"), RunDirs.run("register", "isolate-leader"), h,
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of(), Evidence.enough());

        assertThat(RunStory.of(run)).last().isEqualTo("exercised: 412 of 420 client operations acknowledged (210 "
                + "while a fault was in force, 72 after the final heal); 5 of 6 fault starts applied; protocol "
                + "triggers fired 2 of 3 armed");
        assertThat(RunStory.of(RunDirs.write(tmp.resolve("old"), RunDirs.run("register", "none"), h,
                CheckerCatalog.create("zk-read-model", CheckerOptions.defaults()), List.of())))
                .noneMatch(line -> line.startsWith("exercised"));
    }
}
