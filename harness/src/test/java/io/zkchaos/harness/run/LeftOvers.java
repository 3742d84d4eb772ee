package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Finds the server processes (ZooKeeper servers, fle nodes) and client processes of a run by their command line in
 * /proc (Linux). */
public final class LeftOvers {

    private LeftOvers() {
    }

    /** Pids of live server processes whose command line names a path under {@code runDir}. */
    static List<Long> serversOf(Path runDir) throws IOException {
        return pidsOf(runDir, cmd -> cmd.contains("QuorumPeerMain") || cmd.contains("io.zkchaos.fle.node.NodeMain"));
    }

    /** Pids of live client processes ({@code -Dzkchaos.process=client}) whose command line names {@code runDir}. */
    static List<Long> clientsOf(Path runDir) throws IOException {
        return pidsOf(runDir, cmd -> cmd.contains("-Dzkchaos.process=client"));
    }

    private static List<Long> pidsOf(Path runDir, Predicate<String> command) throws IOException {
        String marker = runDir.toAbsolutePath().normalize().toString();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> {
                        String cmd = cmdline(p);
                        return command.test(cmd) && cmd.contains(marker);
                    })
                    .map(p -> Long.parseLong(p.getFileName().toString()))
                    .toList();
        }
    }

    static void assertNoClientOf(Path runDir) throws IOException {
        assertThat(clientsOf(runDir)).as("client processes left running from " + runDir).isEmpty();
    }

    private static String cmdline(Path proc) {
        try {
            return new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException | SecurityException e) {
            return ""; // gone meanwhile, or not ours to read
        }
    }

    public static void assertNoServerOf(Path runDir) throws IOException {
        assertThat(serversOf(runDir)).as("servers left running from " + runDir).isEmpty();
    }
}
