package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.local.LocalGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node process given something it cannot use exits non-zero with a message that names the problem. */
class BadConfigIT {

    @TempDir
    Path dir;

    private LocalGroup group;

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.close();
        }
    }

    private record Exit(int code, String output) {
    }

    private Exit run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(ended).as("the node exits on its own: %s", Files.readString(out)).isTrue();
        return new Exit(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    private List<String> commandWith(Path config) {
        List<String> c = new ArrayList<>(group.command(1));
        c.set(c.size() - 1, config.toString());
        return c;
    }

    private Path configWith(String extra, String replace, String by) throws IOException {
        String text = Files.readString(group.config(1)).replace(replace, by) + extra;
        return Files.writeString(dir.resolve("bad.cfg"), text);
    }

    @Test
    void duplicateServerIds() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        Exit e = run(commandWith(configWith("server.2=127.0.0.1:1:2\n", "", "")));
        assertThat(e.code()).isEqualTo(NodeStartException.CONFIG);
        assertThat(e.output()).contains("bad config").contains("duplicate server id 2");
    }

    @Test
    void aPortInUse() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        try (ServerSocket taken = new ServerSocket(group.clientAddress(1).getPort(), 1,
                InetAddress.getByName("127.0.0.1"))) {
            Exit e = run(group.command(1));
            assertThat(e.code()).isEqualTo(NodeStartException.BIND);
            assertThat(e.output()).contains("cannot bind the client address 127.0.0.1:" + taken.getLocalPort())
                    .contains("in use");
        }
    }

    @Test
    void aDataDirThatIsAFile() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        Path file = Files.writeString(dir.resolve("plain-file"), "not a dir");
        Path data = group.nodeDir(1).resolve("data");
        Exit e = run(commandWith(configWith("", "dataDir=" + data, "dataDir=" + file)));
        assertThat(e.code()).isEqualTo(NodeStartException.DATA_DIR);
        assertThat(e.output()).contains("data dir " + file + " is not a directory");
    }

    @Test
    void anUnreadableDataDir() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        Path data = Files.createDirectories(group.nodeDir(1).resolve("data"));
        Files.writeString(data.resolve("currentEpoch"), "7\n");
        Files.createDirectories(data.resolve("log")); // the log is a directory: it cannot be opened as a file
        Exit e = run(group.command(1));
        assertThat(e.code()).isEqualTo(NodeStartException.DATA_DIR);
        assertThat(e.output()).contains("data dir " + data).contains("log");
    }

    @Test
    void aDataDirOfAnotherNode() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        Path data = Files.createDirectories(group.nodeDir(1).resolve("data"));
        Files.writeString(data.resolve("myid"), "2\n");
        Exit e = run(group.command(1));
        assertThat(e.code()).isEqualTo(NodeStartException.DATA_DIR);
        assertThat(e.output()).contains("belongs to server 2, not to server 1");
    }

    @Test
    void noConfigArgument() throws Exception {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        List<String> c = new ArrayList<>(group.command(1));
        c.remove(c.size() - 1);
        Exit e = run(c);
        assertThat(e.code()).isEqualTo(NodeStartException.CONFIG);
        assertThat(e.output()).contains("usage:");
    }
}
