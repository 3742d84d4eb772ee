package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node started by a {@code LocalGroup} does not outlive the JVM that started it, however that JVM ends. */
class NodeLifetimeIT {

    @TempDir
    Path dir;

    private final List<ProcessHandle> started = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() {
        started.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void nodesStopOnceTheJvmThatStartedThemIsKilledOutright() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process launcher = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                GroupLauncherMain.class.getName(), dir.toString(), "3")
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("launcher.err").toFile())).start();
        started.add(launcher.toHandle());
        List<ProcessHandle> nodes = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
            for (int i = 1; i <= 3; i++) {
                String line = out.readLine();
                assertThat(line).as("the launcher's line for node %d (stderr: %s)", i, stderr()).isNotNull()
                        .startsWith("node " + i + " pid ");
                long pid = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
                Optional<ProcessHandle> node = ProcessHandle.of(pid);
                node.ifPresent(nodes::add);
                node.ifPresent(started::add);
            }
        }
        assertThat(nodes).as("running nodes").hasSize(3);
        // The node watches its launcher once it runs; before that a kill would test nothing.
        for (int i = 1; i <= 3; i++) {
            Path log = dir.resolve("n" + i).resolve("node.log");
            await("n" + i + " running").atMost(Duration.ofSeconds(60)).until(() ->
                    Files.exists(log) && Files.readString(log).contains(" running (pid "));
        }

        launcher.destroyForcibly();
        assertThat(launcher.waitFor()).as("the launcher's exit status (SIGKILL)").isEqualTo(128 + 9);

        await("every node gone").atMost(Duration.ofSeconds(30)).until(() ->
                nodes.stream().noneMatch(ProcessHandle::isAlive));
        for (int i = 1; i <= 3; i++) {
            assertThat(Files.readString(dir.resolve("n" + i).resolve("node.log"))).as("n%d's log", i)
                    .contains("has ended; stopping");
        }
    }

    @Test
    void aNodeToStopWithAProcessThatIsNotRunningDoesNotStart() {
        assertThat(NodeMain.launcher(null)).isEmpty();
        assertThat(NodeMain.launcher(Long.toString(ProcessHandle.current().pid()))).isPresent();
        assertThatThrownBy(() -> NodeMain.launcher("abc"))
                .hasMessageContaining("zkchaos.fle.stopWith must be a process id, was 'abc'");
        assertThatThrownBy(() -> NodeMain.launcher(Long.toString(Long.MAX_VALUE)))
                .hasMessageContaining("is not running");
    }

    private String stderr() {
        try {
            return Files.readString(dir.resolve("launcher.err"));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
