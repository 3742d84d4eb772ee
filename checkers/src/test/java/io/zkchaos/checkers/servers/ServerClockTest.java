package io.zkchaos.checkers.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerClockTest {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    /** The harness's first event came half a second after the history began. */
    private static final long FIRST_EVENT_NANOS = 500_000_000L;

    static ServerEvent started(String node, Instant at, long historyNanos) {
        return new ServerEvent(node, ServerEvent.Kind.STARTED, historyNanos, at.toEpochMilli(), "harness", null,
                null, null, List.of(), null, null);
    }

    static ServerEvent clock(String node, long epochMillis, long historyNanos, long offsetMillis) {
        return new ServerEvent(node, ServerEvent.Kind.CLOCK, historyNanos, epochMillis, "nemesis", "clock-bump",
                null, null, List.of(), null, offsetMillis);
    }

    /** The excerpt as a server whose clock was moved by {@code offsetMillis} from line {@code from} on writes it. */
    private static List<String> moved(List<String> lines, int from, long offsetMillis) {
        List<String> out = new ArrayList<>(lines);
        for (int i = from; i < out.size(); i++) {
            String l = out.get(i);
            if (l.matches("^\\d{2}:\\d{2}:\\d{2}\\.\\d{3} .*")) {
                out.set(i, LocalTime.parse(l.substring(0, 12)).plusNanos(offsetMillis * 1_000_000L).format(TIME)
                        + l.substring(12));
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {30_000, -20_000})
    void aLineWrittenByAMovedClockIsPlacedWhereItWasWritten(long offsetMillis) {
        List<String> real = Excerpts.lines(Excerpts.ZK395);
        ServerLog truth = ServerLog.parse("n3", real);
        Instant start = truth.starts().get(0);
        ServerEvent first = started("n3", start, FIRST_EVENT_NANOS);
        long[] expected = ServerClock.fromEvents(List.of(first)).historyNanos(truth);

        // from the broadcast line of the second start on, the nemesis moved n3's clock
        int at = 0;
        while (!real.get(at).contains("Peer state changed: following - broadcast")) {
            at++;
        }
        int entry = 0;
        while (truth.entries().get(entry).lineNumber() != at + 1) {
            entry++;
        }
        long moveEpoch = truth.entries().get(entry).wallMillis() - 1;
        ServerLog written = ServerLog.parse("n3", moved(real, at, offsetMillis));
        assertThat(written.entries().get(entry).wallMillis()).isEqualTo(truth.entries().get(entry).wallMillis()
                + offsetMillis);
        long moveNanos = (moveEpoch - start.toEpochMilli()) * 1_000_000L + FIRST_EVENT_NANOS;
        ServerClock clock = ServerClock.fromEvents(List.of(first, clock("n3", moveEpoch, moveNanos, offsetMillis)));
        assertThat(clock.historyNanos(written)).containsExactly(expected);
        // without the clock event the moved lines would be off by the offset
        assertThat(ServerClock.fromEvents(List.of(first)).historyNanos(written)[entry] - expected[entry])
                .isEqualTo(offsetMillis * 1_000_000L);
    }

    @Test
    void aLineIsPlacedByTheHarnessWallClockOfTheEvents() {
        ServerLog log = Excerpts.log("n3", Excerpts.ZK395);
        Instant start = log.starts().get(0);
        long[] t = ServerClock.fromEvents(List.of(started("n3", start, FIRST_EVENT_NANOS))).historyNanos(log);
        // 06:11:01.321 written, the marker at 06:11:00.748085696, the history began 0.5 s before (ms of the event)
        long historyStartMillis = start.toEpochMilli() - 500;
        assertThat(t[0]).isEqualTo((log.entries().get(0).wallMillis() - historyStartMillis) * 1_000_000L);
        for (int i = 1; i < t.length; i++) {
            assertThat(t[i]).as("in order, but for threads a few ms apart").isGreaterThan(t[i - 1] - 50_000_000L);
        }
    }

    @Test
    void withoutEventsTheFirstStartMarkerIsTheHistorysStartAndSaysSo() {
        ServerLog log = Excerpts.log("n2", Excerpts.ZK357);
        ServerClock clock = ServerClock.fromFirstStart(log.starts().get(0));
        long[] t = clock.historyNanos(log);
        assertThat(t[0]).isEqualTo((log.entries().get(0).wallMillis() - log.starts().get(0).toEpochMilli())
                * 1_000_000L + (log.starts().get(0).toEpochMilli() * 1_000_000L
                - (log.starts().get(0).getEpochSecond() * 1_000_000_000L + log.starts().get(0).getNano())));
        assertThat(t[0]).isBetween(0L, 2_000_000_000L);
        assertThat(clock.basis()).contains("first start marker").contains("no server events");
    }

    /**
     * A real strobe (3.9.5, n1 flipped four times between +110.9 s and the true time, then reset): the server's lines
     * jump 111 s forward and back, each flip up to 2 s before the harness's event of it. Every line is placed in the
     * order written, within the strobe, and the lines after the reset where they were written.
     */
    @Test
    void aStrobedClocksLinesArePlacedInTheOrderWrittenThoughEachFlipIsSeenBeforeItsEvent() throws Exception {
        ServerLog log = Excerpts.log("n1", "zk-3.9.5-clock-strobe-n1.log");
        List<ServerEvent> events = ServerAccount.readEvents(java.nio.file.Path.of(
                ServerClockTest.class.getResource("zk-3.9.5-clock-strobe-servers.jsonl").toURI()));
        long[] t = ServerClock.fromEvents(events).historyNanos(log);
        long previous = t[0];
        for (int i = 0; i < t.length; i++) {
            assertThat(t[i]).as("entry %d (%s) placed after the one before it, within a second",
                    i, log.entries().get(i).text()).isGreaterThanOrEqualTo(previous - 1_000_000_000L);
            previous = Math.max(previous, t[i]);
            // the excerpt runs from the restart at 12.4 s to shortly after the reset at 45.2 s
            assertThat(t[i]).as("entry %d", i).isBetween(12_000_000_000L, 50_000_000_000L);
        }
    }
}
