package io.zkchaos.checkers.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerLogTest {

    private static long millis(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void readsLogbackLinesAndTheStartMarkersOfZooKeeper395() {
        ServerLog log = Excerpts.log("n3", Excerpts.ZK395);
        assertThat(log.starts()).containsExactly(Instant.parse("2026-12-06T06:11:00.748085696Z"),
                Instant.parse("2026-12-06T06:11:07.687482464Z"));
        LogLine first = log.entries().get(0);
        assertThat(first.incarnation()).isEqualTo(1);
        assertThat(first.lineNumber()).isEqualTo(2);
        assertThat(first.wallMillis()).isEqualTo(millis("2026-12-06T06:11:01.321Z"));
        assertThat(first.level()).isEqualTo("INFO");
        assertThat(first.thread()).isEqualTo("main");
        assertThat(first.logger()).isEqualTo("QuorumPeerConfig");
        assertThat(first.message()).startsWith("Reading configuration from: ");
        assertThat(log.entries().get(log.entries().size() - 1).incarnation()).isEqualTo(2);
        // a thread name with brackets inside its brackets
        LogLine sync = log.entries().stream().filter(e -> e.message().startsWith("Peer state changed: following - "
                + "broadcast")).findFirst().orElseThrow();
        assertThat(sync.thread()).isEqualTo("QuorumPeer[myid=3](plain=127.0.0.103:44771)(secure=disabled)");
        assertThat(sync.logger()).isEqualTo("QuorumPeer");
        // every line is a marker, an entry's or part of one
        assertThat(log.entryLines() + log.starts().size() + log.unreadLines()).isEqualTo(log.lineCount());
        assertThat(log.unreadLines()).isZero();
    }

    @Test
    void aStackTraceBelongsToTheLineBeforeIt() {
        ServerLog log = Excerpts.log("n3", Excerpts.ZK395);
        LogLine broken = log.entries().stream().filter(e -> e.message().startsWith("Connection broken for id 2"))
                .findFirst().orElseThrow();
        assertThat(broken.more()).containsExactly("java.io.EOFException: null",
                "\tat java.base/java.io.DataInputStream.readInt(DataInputStream.java:386)",
                "\tat org.apache.zookeeper.server.quorum.QuorumCnxManager$RecvWorker.run(QuorumCnxManager.java:1387)");
        LogLine handler = log.entries().stream().filter(e -> e.level().equals("ERROR")).findFirst().orElseThrow();
        assertThat(handler.message()).isEqualTo("Unexpected exception in LearnerHandler: ");
        assertThat(handler.more()).hasSize(6).first().isEqualTo("java.io.EOFException: null");
    }

    @Test
    void readsLog4jLinesOfZooKeeper357WithACommaBeforeTheMilliseconds() {
        ServerLog log = Excerpts.log("n2", Excerpts.ZK357);
        assertThat(log.starts()).hasSize(2);
        LogLine diff = log.entries().stream().filter(e -> e.message().startsWith("Getting a diff")).findFirst()
                .orElseThrow();
        assertThat(diff.wallMillis()).isEqualTo(millis("2026-12-06T06:15:57.380Z"));
        assertThat(log.unreadLines()).isZero();
        LogLine shutdown = log.entries().stream().filter(e -> e.message().equals("shutdown called")).findFirst()
                .orElseThrow();
        assertThat(shutdown.more()).first().isEqualTo("java.lang.Exception: shutdown Follower");
    }

    @Test
    void aDatedLineReadsAsTheSameInstantAsItsTimeOnlyForm() {
        List<String> timeOnly = Excerpts.lines(Excerpts.ZK395);
        // the pattern %d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} another helper brings in
        List<String> dated = timeOnly.stream().map(l -> l.matches("^\\d{2}:\\d{2}:\\d{2}\\.\\d{3} .*")
                ? "2026-12-06T" + l.substring(0, 12) + "Z" + l.substring(12) : l).toList();
        assertThat(dated.get(1)).startsWith("2026-12-06T06:11:01.321Z INFO  [main] QuorumPeerConfig - ");
        ServerLog a = ServerLog.parse("n3", timeOnly);
        ServerLog b = ServerLog.parse("n3", dated);
        assertThat(b.entries()).extracting(LogLine::wallMillis)
                .containsExactlyElementsOf(a.entries().stream().map(LogLine::wallMillis).toList());
        assertThat(b.entries()).extracting(LogLine::more)
                .containsExactlyElementsOf(a.entries().stream().map(LogLine::more).toList());
        // another zone offset in the dated form
        ServerLog plusOne = ServerLog.parse("n3", List.of("2026-12-06T07:11:01.366+01:00 INFO  [main] X - m"));
        assertThat(plusOne.entries().get(0).wallMillis()).isEqualTo(millis("2026-12-06T06:11:01.366Z"));
    }

    @Test
    void aLogOverMidnightKeepsItsOrderAndAClockBehindTheMarkerIsDatedTheDayBefore() {
        ServerLog over = ServerLog.parse("n1", List.of(
                "==== zkchaos: starting n1 at 2026-12-06T23:59:59.500Z",
                "23:59:59.900 INFO  [main] QuorumPeerConfig - before",
                "00:00:00.100 INFO  [main] QuorumPeerConfig - after"));
        assertThat(over.entries()).extracting(LogLine::wallMillis).containsExactly(
                millis("2026-12-06T23:59:59.900Z"), millis("2026-12-07T00:00:00.100Z"));
        ServerLog behind = ServerLog.parse("n1", List.of(
                "==== zkchaos: starting n1 at 2026-12-07T00:00:00.200Z",
                "23:59:59.950 INFO  [main] QuorumPeerConfig - a clock a little behind",
                "00:00:00.300 INFO  [main] QuorumPeerConfig - and on"));
        assertThat(behind.entries()).extracting(LogLine::wallMillis).containsExactly(
                millis("2026-12-06T23:59:59.950Z"), millis("2026-12-07T00:00:00.300Z"));
    }

    @Test
    void aServerInAnotherTimeZoneIsReadOnTheHarnessClock() {
        ServerLog log = ServerLog.parse("n1", List.of(
                "==== zkchaos: starting n1 at 2026-12-06T06:11:00.719640263Z",
                "07:41:01.317 INFO  [main] QuorumPeerConfig - Reading configuration"));
        assertThat(log.entries().get(0).wallMillis()).isEqualTo(millis("2026-12-06T06:11:01.317Z"));
    }

    @Test
    void linesBeforeAnyEntryThatAreNoMarkerAreCountedUnread() {
        ServerLog log = ServerLog.parse("n1", List.of("SLF4J: Class path contains multiple SLF4J bindings.",
                "==== zkchaos: starting n1 at 2026-12-06T06:11:00Z", "06:11:01.000 INFO  [main] A - b", "c"));
        assertThat(log.unreadLines()).isEqualTo(1);
        assertThat(log.entries()).singleElement().extracting(LogLine::more).isEqualTo(List.of("c"));
    }
}
