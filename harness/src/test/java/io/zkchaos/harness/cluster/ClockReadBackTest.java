package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the server's own line for a four-letter command in its log, as a server writes it. */
class ClockReadBackTest {

    @TempDir
    Path dir;

    @Test
    void theLineNamingTheRequestsPortGivesTheServersTime() throws Exception {
        Path log = dir.resolve("server.log");
        Files.write(log, List.of(
                "2026-12-06T09:43:22.894Z INFO  [NIOWorkerThread-1] NIOServerCnxn - Processing srvr command from "
                        + "/127.0.0.1:42064",
                "2026-12-06T09:43:22.950Z WARN  [QuorumPeer] Follower - Exception when following the leader",
                "java.io.EOFException: null",
                "\tat java.base/java.io.DataInputStream.readInt(DataInputStream.java:397)",
                "2026-12-06T11:00:05.015+01:00 INFO  [NIOWorkerThread-2] NIOServerCnxn - Processing srvr command "
                        + "from /127.0.0.1:42078",
                "2026-12-06T09:43:23.100Z INFO  [NIOWorkerThread-1] NIOServerCnxn - Processing srvr command from "
                        + "/127.0.0.1:420"));

        assertThat(ClockReadBack.find(log, "Processing srvr command from ", ":42078"))
                .contains(Instant.parse("2026-12-06T10:00:05.015Z").toEpochMilli());
        assertThat(ClockReadBack.find(log, "Processing srvr command from ", ":42064"))
                .contains(Instant.parse("2026-12-06T09:43:22.894Z").toEpochMilli());
        assertThat(ClockReadBack.find(log, "Processing srvr command from ", ":1")).isEmpty();
        assertThat(ClockReadBack.find(dir.resolve("absent.log"), "Processing", ":1")).isEmpty();
    }
}
