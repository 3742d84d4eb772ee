package io.zkchaos.harness.run;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The CLI's {@code run} in a JVM of its own, writing into a store: for the tests that SIGKILL a harness mid-run (so
 * that no shutdown hook runs) and look at what it left behind. Its output goes to {@code harness.out} in the store.
 */
final class HarnessJvm {

    private final Process process;
    private final Path store;

    private HarnessJvm(Process process, Path store) {
        this.process = process;
        this.store = store;
    }

    /** Starts {@code zkchaos run ARGS --out STORE} on this JVM's class path. */
    static HarnessJvm run(Path store, String... runArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.zkchaos.harness.cli.Main", "run"));
        cmd.addAll(List.of(runArgs));
        cmd.addAll(List.of("--out", store.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(store.resolve("harness.out").toFile()).start();
        return new HarnessJvm(p, store);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** What the harness printed so far. */
    String output() throws IOException {
        return Files.readString(store.resolve("harness.out"));
    }

    /** The run's history.jsonl; null before the run has made it. */
    Path history() throws IOException {
        try (Stream<Path> s = Files.find(store, 3, (p, a) -> p.getFileName().toString().equals("history.jsonl"))) {
            return s.findFirst().orElse(null);
        }
    }

    /** Waits until the run's history holds {@code lines} lines; fails with the harness's output if it exits first. */
    Path awaitHistory(int lines, Duration bound) {
        return await("a history of " + lines + " lines").atMost(bound).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("the harness exited early (" + process.exitValue() + "): "
                                + output());
                    }
                    Path h = history();
                    return h != null && countLines(h) >= lines ? h : null;
                }, h -> h != null);
    }

    /** SIGKILL: the harness gets no chance to clean up. Returns once it is gone (or 30 s have passed). */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    private static long countLines(Path p) throws IOException {
        try (Stream<String> s = Files.lines(p)) {
            return s.count();
        }
    }
}
