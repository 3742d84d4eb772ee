package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.process.Libfaketime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands the ssh backend runs on a host for the replaced disk and the clock faults, run here by a real
 * {@code sh} on real files (a host's shell is the same): what they leave, what they print, how they quote.
 */
class NodeCommandsTest {

    @TempDir
    Path dir;

    @Test
    void emptyingTheDataDirectoryKeepsOnlyMyidWhateverTheNamesAndFailsWhenItIsMissing() throws Exception {
        Path data = Files.createDirectories(dir.resolve("it's a \"data\" dir $HOME"));
        Files.writeString(data.resolve("myid"), "2\n");
        Files.createDirectories(data.resolve("version-2"));
        Files.writeString(data.resolve("version-2").resolve("log.100000001"), "txns");
        Files.writeString(data.resolve("version-2").resolve("myid"), "a myid deeper down goes too");
        Files.writeString(data.resolve(".hidden"), "x");
        Files.writeString(data.resolve("-rf"), "a name like an option");
        Files.writeString(data.resolve("myid.bak"), "1\n");
        Path outside = Files.writeString(dir.resolve("beside"), "stays");

        assertThat(sh(NodeCommands.emptyData(data.toString())).exit).isZero();
        try (Stream<Path> left = Files.list(data)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("myid");
        }
        assertThat(data.resolve("myid")).hasContent("2");
        assertThat(outside).hasContent("stays");

        Result missing = sh(NodeCommands.emptyData(dir.resolve("nowhere").toString()));
        assertThat(missing.exit).as("a missing data directory").isNotZero();
        assertThat(outside).as("nothing outside is touched when cd fails").exists();
    }

    @Test
    void theEnvironmentReachesTheCommandWordForWordAndNoneLeavesItAsItIs() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ZKC_A", "two words, a ' and a \"");
        env.put("ZKC_B", "$HOME=x");
        List<String> command = List.of("sh", "-c", "printf '%s|%s|%s' \"$ZKC_A\" \"$ZKC_B\" \"$1\"", "sh", "$arg");
        List<String> words = NodeCommands.withEnvironment(env, command);
        assertThat(words).startsWith("env").endsWith(command.toArray(String[]::new));
        assertThat(sh(Shell.command(words)).out).isEqualTo("two words, a ' and a \"|$HOME=x|$arg");
        assertThat(NodeCommands.withEnvironment(Map.of(), command)).isSameAs(command);

        Map<String, String> clock = Libfaketime.environment("/lib/x/libfaketime.so.1", "/r/n1/clock");
        assertThat(NodeCommands.withEnvironment(clock, List.of("java")))
                .containsExactly("env", "LD_PRELOAD=/lib/x/libfaketime.so.1", "FAKETIME_TIMESTAMP_FILE=/r/n1/clock",
                        "FAKETIME_DONT_FAKE_MONOTONIC=1", "FAKETIME_FORCE_MONOTONIC_FIX=0",
                        "FAKETIME_CACHE_DURATION=1", "java");
        assertThat(Libfaketime.controlLine(Duration.ofMillis(-800))).isEqualTo("-0.800\n");
        assertThat(Libfaketime.controlLine(Duration.ofHours(2).plusMillis(5))).isEqualTo("+7200.005\n");
    }

    @Test
    void theLibraryProbePrintsTheFirstReadableCandidateOrADashAndEndsOnlyItsSearch() throws Exception {
        Path first = Files.writeString(dir.resolve("first lib.so"), "");
        Path second = Files.writeString(dir.resolve("second.so"), "");
        String probe = HostFacts.faketimeProbe(List.of(dir.resolve("missing.so").toString(), first.toString(),
                second.toString()));
        assertThat(sh(probe + "\necho after").out).isEqualTo(first + "\nafter\n");
        assertThat(sh(HostFacts.faketimeProbe(List.of(dir.resolve("missing.so").toString())) + "\necho after").out)
                .isEqualTo("-\nafter\n");
    }

    @Test
    void aHostWithoutLibfaketimeIsAProblemOnlyWhenClocksMove() {
        SshSettings settings = SshSettings.of(List.of(new SshHost("db-1", null, null, null)));
        HostFacts without = new HostFacts("/root/zkchaos", "db-1", "10.0.0.1", "0", "/usr/bin/java",
                "/usr/sbin/iptables-restore", false, null, Map.of());
        assertThat(without.problems(settings, false)).isEmpty();
        assertThat(without.problems(settings, true)).singleElement().asString()
                .startsWith("no libfaketime: the clock faults preload it into the servers (install the package "
                        + "libfaketime; looked for [/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
        HostFacts with = new HostFacts("/root/zkchaos", "db-1", "10.0.0.1", "0", "/usr/bin/java",
                "/usr/sbin/iptables-restore", false, "/usr/lib/faketime/libfaketime.so.1", Map.of());
        assertThat(with.problems(settings, true)).isEmpty();
    }

    private record Result(int exit, String out) {
    }

    private static Result sh(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("sh ended").isTrue();
        return new Result(p.exitValue(), out);
    }
}
