package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.history.History;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A harness killed with SIGKILL mid-run (no shutdown hook runs) leaves a checkable history, and its orphaned
 * ZooKeeper servers are ended by the next run that starts in the same store.
 */
class KilledHarnessIT {

    @TempDir
    Path store;

    @Test
    void aKilledRunLeavesItsHistoryAndTheNextRunReapsItsServers() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process harness = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.zkchaos.harness.cli.Main", "run", "--workload", "set", "--nemesis", "none", "--time-limit", "120s",
                "--seed", "5", "--out", store.toString())
                .redirectErrorStream(true)
                .redirectOutput(store.resolve("harness.out").toFile())
                .start();
        Path history;
        try {
            history = awaitHistoryOf(harness, 300, Duration.ofSeconds(90));
        } finally {
            harness.destroyForcibly(); // SIGKILL: the harness gets no chance to clean up
            harness.waitFor(30, TimeUnit.SECONDS);
        }
        Path runDir = history.getParent();
        assertThat(LeftOvers.serversOf(runDir)).as("the killed harness's servers are orphaned").isNotEmpty();

        // A SIGKILL can cut the line being written (see JsonLinesRecorder): at most that last line is dropped.
        List<String> cut = new ArrayList<>();
        History h = HistoryFiles.read(history, ReadOptions.tolerateTruncatedTail(cut::add));
        assertThat(cut).as("lines dropped").hasSizeLessThanOrEqualTo(1);
        assertThat(h.operations()).hasSizeGreaterThanOrEqualTo(150); // the 300 whole lines seen before the kill
        assertThat(h.operations()).extracting(o -> o.f()).containsOnly("add");

        // The next run in the store reaps them before it starts its own cluster.
        new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(RunConfig.builder()
                .workload("register").nemesis("none").timeLimit(Duration.ofSeconds(2)).recover(Duration.ZERO)
                .seed(1).out(store).build());
        assertThat(LeftOvers.serversOf(runDir)).as("orphans after the next run started").isEmpty();
    }

    /** Waits until the run's history.jsonl holds {@code lines} lines; fails with the harness's output if not. */
    private Path awaitHistoryOf(Process harness, int lines, Duration bound) {
        return await("a history of " + lines + " lines").atMost(bound).until(() -> {
            if (!harness.isAlive()) {
                throw new IllegalStateException("the harness exited early (" + harness.exitValue() + "): "
                        + Files.readString(store.resolve("harness.out")));
            }
            Path h = findHistory();
            return h != null && countLines(h) >= lines ? h : null;
        }, h -> h != null);
    }

    private Path findHistory() throws IOException {
        try (Stream<Path> s = Files.find(store, 3, (p, a) -> p.getFileName().toString().equals("history.jsonl"))) {
            List<Path> found = s.toList();
            return found.isEmpty() ? null : found.get(0);
        }
    }

    private static long countLines(Path p) throws IOException {
        try (Stream<String> s = Files.lines(p)) {
            return s.count();
        }
    }
}
