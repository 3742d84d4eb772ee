package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code ./zkchaos} script as a separate process, after Maven's package phase built the classes and
 * {@code target/lib}. It runs from an unrelated directory with a relative file argument, to show the launcher finds
 * its classes from anywhere while files stay relative to where the user is. ZKCHAOS_NO_BUILD=1 keeps the script
 * from starting a Maven build inside this one.
 */
class LauncherIT {

    @TempDir
    Path cwd;

    record Result(int exit, String out, String err) {
    }

    private Result zkchaos(String... args) throws IOException, InterruptedException {
        Path root = Path.of(System.getProperty("zkchaos.repo.root"));
        List<String> command = new ArrayList<>();
        command.add(root.resolve("zkchaos").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(cwd.resolve("out.txt").toFile())
                .redirectError(cwd.resolve("err.txt").toFile());
        pb.environment().put("ZKCHAOS_NO_BUILD", "1");
        Process p = pb.start();
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("zkchaos finished within 120 s").isTrue();
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        return new Result(p.exitValue(), Files.readString(cwd.resolve("out.txt"), StandardCharsets.UTF_8),
                Files.readString(cwd.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    @Test
    void checksAGoodAndABadHistoryFromAnyDirectory() throws Exception {
        Path data = Path.of(System.getProperty("zkchaos.repo.root")).resolve("../shared/data").normalize();
        Files.copy(data.resolve("knossos/cas-register/good/cas-register-bug.edn"), cwd.resolve("good.edn"));
        Files.copy(data.resolve("knossos/cas-register/bad/rethink-fail-minimal.edn"), cwd.resolve("bad.edn"));

        Result good = zkchaos("check", "--model", "cas-register", "--init", "0", "good.edn");
        assertThat(good.exit()).as(good.err()).isZero();
        assertThat(good.out())
                .matches("good\\.edn: valid \\(6 operations, 11 entries; read in \\d+ ms, checked in \\d+ ms\\)\\R");

        Result bad = zkchaos("check", "--model", "cas-register", "--init", "0", "--json", "good.edn", "bad.edn");
        assertThat(bad.exit()).as(bad.err()).isEqualTo(1);
        assertThat(bad.out().lines().toList()).hasSize(2);
        assertThat(bad.out().lines().toList().get(1))
                .startsWith("{\"file\":\"bad.edn\",\"valid\":false,\"operations\":4,\"entries\":8,\"readMillis\":");

        Result missing = zkchaos("check", "--model", "cas-register", "nope.edn");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("error: nope.edn: no such file\n");
    }
}
