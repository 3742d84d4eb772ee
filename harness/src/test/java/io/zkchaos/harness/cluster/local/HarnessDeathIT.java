package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.process.Reaper;
import io.zkchaos.harness.testing.RunsAlone;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Servers die with the harness: through the shutdown hook, or through the reaper when the harness was SIGKILLed. */
@RunsAlone
class HarnessDeathIT {

    @TempDir
    Path runs;

    private Process harness;
    private long server = -1;

    @AfterEach
    void cleanUp() throws InterruptedException {
        if (harness != null && harness.isAlive()) {
            harness.destroyForcibly();
            harness.waitFor(10, TimeUnit.SECONDS);
        }
        if (server > 0) {
            ProcessHandle.of(server).ifPresent(ProcessHandle::destroyForcibly);
        }
        ClusterChecks.assertNoProcessUnder(runs);
    }

    /** Starts the stand-in harness and returns its server's pid once it serves. */
    private long startHarness(String run) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        harness = new ProcessBuilder(java, "-Xmx64m", "-XX:-UsePerfData",
                "-D" + Reaper.SWEEP_PROPERTY + "=" + System.getProperty(Reaper.SWEEP_PROPERTY, "true"),
                "-cp", System.getProperty("java.class.path"), HarnessMain.class.getName(),
                runs.resolve(run).toString()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(harness.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        // readLine blocks; the harness ends (and the stream with it) if it cannot start within its own bounds
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("SERVER ")) {
                server = Long.parseLong(line.substring(7).trim());
                Thread drain = new Thread(() -> {
                    try {
                        out.transferTo(Writer.nullWriter());
                    } catch (IOException ignored) {
                        // the harness ended
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return server;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("stand-in harness ended without a server:\n" + seen);
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    void aHarnessThatIsTerminatedTakesItsServersWithIt() throws Exception {
        long pid = startHarness("terminated");
        assertThat(alive(pid)).isTrue();
        harness.destroy(); // SIGTERM: shutdown hooks run
        assertThat(harness.waitFor(60, TimeUnit.SECONDS)).as("the harness ended within 60 s of SIGTERM").isTrue();
        await("server " + pid + " ended by the shutdown hook").atMost(Duration.ofSeconds(30))
                .until(() -> !alive(pid));
    }

    @Test
    void theNextStartReapsTheServersOfAKilledHarness() throws Exception {
        long pid = startHarness("killed");
        harness.destroyForcibly(); // SIGKILL: no hook runs
        assertThat(harness.waitFor(30, TimeUnit.SECONDS)).as("the harness ended within 30 s of SIGKILL").isTrue();
        assertThat(alive(pid)).as("orphaned server survives its SIGKILLed harness").isTrue();

        try (LocalCluster next = LocalCluster.start(ClusterConfig.builder().nodes(1).proxied(false)
                .runDirectory(runs.resolve("next")).build())) {
            assertThat(alive(pid)).as("orphan reaped when the next cluster started").isFalse();
            assertThat(runs.resolve("killed").resolve("n1").resolve("server.pid")).doesNotExist();
            assertThat(next.leader()).contains("n1");
        }
    }
}
