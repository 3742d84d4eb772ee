package io.zkchaos.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.checkers.servers.ServerEvent.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerEventLogTest {

    @TempDir
    Path dir;

    private static final ServerEvent STARTED = new ServerEvent("n1", Kind.STARTED, -2_000_000, 1_765_000_000_000L,
            "harness", null, null, null, List.of(), null, null);
    private static final ServerEvent CRASHED = new ServerEvent("n2", Kind.EXITED, 4_200_000_000L, 1_765_000_004_200L,
            null, null, 134, "ABRT", List.of("2026-12-06T06:11:01.365Z ERROR [main] QuorumPeer - Severe", "# A fatal"),
            "isolate-leader", null);
    private static final ServerEvent KILLED = new ServerEvent("n3", Kind.EXITED, 5_000_000_000L, 1_765_000_005_000L,
            "nemesis", "kill-leader", 137, "KILL", List.of(), null, null);
    private static final ServerEvent CLOCK = new ServerEvent("n1", Kind.CLOCK, 6_000_000_000L, 1_765_000_006_000L,
            "nemesis", "clock-skew", null, null, List.of(), null, -250_000L);
    private static final ServerEvent RESET = new ServerEvent("n1", Kind.CLOCK, 7_000_000_000L, 1_765_000_007_000L,
            "nemesis", "final-heal", null, null, List.of(), null, 0L);

    @Test
    void eventsReadBackAsWrittenAndACutOffLastLineIsDropped() throws Exception {
        RunDirectory run = new RunDirectory(dir);
        assertThat(run.readServerEvents()).as("a run without the file").isEmpty();
        try (ServerEventLog.Appender log = ServerEventLog.append(run.serversFile())) {
            log.write(STARTED);
            log.write(CRASHED);
            log.write(KILLED);
            log.write(CLOCK);
            log.write(RESET);
            // each line is in the file as soon as it is written: a run killed now keeps it
            assertThat(Files.readAllLines(run.serversFile())).hasSize(5);
        }
        assertThat(run.serversFile()).hasFileName("servers.jsonl");
        List<String> lines = Files.readAllLines(run.serversFile());
        assertThat(lines.get(0)).as("nulls and no last lines left out").doesNotContain("null")
                .doesNotContain("lastLines").contains("\"by\":\"harness\"");
        assertThat(lines.get(4)).as("a reset is an offset of 0, kept").contains("\"clockOffsetMillis\":0");
        Files.writeString(run.serversFile(), "{\"node\":\"n3\",\"ki", StandardOpenOption.APPEND);
        assertThat(run.readServerEvents()).containsExactly(STARTED, CRASHED, KILLED, CLOCK, RESET);
        assertThat(run.readServerEvents().get(1).endedByItself()).isTrue();
    }

    @Test
    void aMalformedLineInTheMiddleNamesItsFileAndLine() throws Exception {
        Path file = dir.resolve(RunDirectory.SERVERS);
        Files.writeString(file, "{\"node\":\"n1\",\"kind\":\"STARTED\",\"timeNanos\":1,\"epochMillis\":2}\n"
                + "{\"node\":\"n1\",\"kind\":\"VANISHED\"}\n"
                + "{\"node\":\"n1\",\"kind\":\"STARTED\",\"timeNanos\":3,\"epochMillis\":4}\n");
        assertThatThrownBy(() -> ServerEventLog.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file + " line 2: not a server event");
    }

    @Test
    void aClosedLogRefusesToWriteNamingTheFile() {
        ServerEventLog.Appender log = ServerEventLog.append(dir.resolve("sub").resolve(RunDirectory.SERVERS));
        log.close();
        log.close(); // idempotent
        assertThatThrownBy(() -> log.write(STARTED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("servers.jsonl is closed");
    }
}
