package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A harness running the fle nodes, killed with SIGKILL mid-run (no shutdown hook runs), leaves a checkable history
 * and orphaned node processes, which the next run in the same store ends — the fle nodes are reaped exactly like
 * ZooKeeper servers.
 */
class FleKilledHarnessIT {

    @TempDir
    Path store;

    @Test
    void theNextRunReapsTheNodesOfAKilledHarness() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process harness = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.zkchaos.harness.cli.Main", "run", "--system", "fle", "--workload", "set", "--nemesis", "none",
                "--time-limit", "120s", "--seed", "5", "--out", store.toString())
                .redirectErrorStream(true)
                .redirectOutput(store.resolve("harness.out").toFile())
                .start();
        Path history;
        try {
            // a few hundred lines: the nodes serve, clients write, the observer records the leader
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!harness.isAlive()) {
                    throw new AssertionError("the harness exited early (" + harness.exitValue() + "): "
                            + Files.readString(store.resolve("harness.out")));
                }
                Path h = findHistory();
                return h != null && countLines(h) >= 300;
            });
            history = findHistory();
        } finally {
            harness.destroyForcibly(); // SIGKILL: the harness gets no chance to clean up
            harness.waitFor(30, TimeUnit.SECONDS);
        }
        Path runDir = history.getParent();
        assertThat(LeftOvers.serversOf(runDir)).as("the killed harness's fle nodes are orphaned").hasSize(3);

        History h = HistoryFiles.read(history);
        assertThat(h.operations()).extracting(o -> o.f()).contains("add", "acquire");

        // The next run in the store reaps them before it starts its own cluster.
        new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(RunConfig.builder()
                .system("fle").workload("register").nemesis("none").timeLimit(Duration.ofSeconds(2))
                .recover(Duration.ZERO).seed(1).out(store).build());
        assertThat(LeftOvers.serversOf(runDir)).as("orphans after the next run started").isEmpty();
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
