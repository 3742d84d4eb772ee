package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.checkers.servers.ServerEvent.Kind;
import io.zkchaos.harness.process.ProcessControl.Cause;
import io.zkchaos.harness.process.ProcessControl.Change;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The watch's events: who, when on the history's clock, what an exit by itself carries; its poll, and its end. */
class ServerWatchTest {

    @Test
    void eachChangeBecomesAnEventByWhoMadeIt() {
        ServerWatch watch = new ServerWatch(() -> { });
        List<ServerEvent> out = new CopyOnWriteArrayList<>();
        try {
            watch.record(out::add, () -> 1_000);
            watch.nemesis(() -> "kill-leader", () -> "kill-leader, clock-skew");
            String log = IntStream.rangeClosed(1, 40).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
            watch.processChanged("n1", new Change(Cause.STARTED, null), () -> "never asked");
            watch.processChanged("n1", new Change(Cause.KILLED, 137), () -> "never asked");
            watch.processChanged("n1", new Change(Cause.RESTARTED, null), () -> "never asked");
            watch.processChanged("n2", new Change(Cause.ENDED, 139), () -> log);
            watch.processChanged("n3", new Change(Cause.STOPPED, 143), () -> "never asked");
            watch.processChanged("n1", new Change(Cause.RETIRED, 137), () -> "never asked");
            watch.clockMoved(Map.of("n3", Duration.ofMillis(-1500)));
            watch.clockMoved(Map.of("n3", Duration.ZERO));
        } finally {
            watch.close();
        }
        assertThat(out).extracting(ServerEvent::node, ServerEvent::kind, ServerEvent::by, ServerEvent::fault,
                ServerEvent::exitCode, ServerEvent::signal, ServerEvent::clockOffsetMillis).containsExactly(
                row("n1", Kind.STARTED, "harness", null, null, null, null),
                row("n1", Kind.EXITED, "nemesis", "kill-leader", 137, "KILL", null),
                row("n1", Kind.STARTED, "nemesis", "kill-leader", null, null, null),
                row("n2", Kind.EXITED, null, null, 139, "SEGV", null),
                row("n3", Kind.EXITED, "harness", null, 143, "TERM", null),
                row("n1", Kind.EXITED, "harness", null, 137, "KILL", null),
                row("n3", Kind.CLOCK, "nemesis", "kill-leader", null, null, -1500L),
                row("n3", Kind.CLOCK, "nemesis", "kill-leader", null, null, 0L));
        ServerEvent crash = out.get(3);
        assertThat(crash.endedByItself()).isTrue();
        assertThat(crash.lastLines()).as("the last 30 lines").hasSize(ServerWatch.LAST_LINES)
                .startsWith("line 11").endsWith("line 40");
        assertThat(crash.nemesis()).isEqualTo("kill-leader, clock-skew");
        assertThat(out).filteredOn(e -> !e.endedByItself()).allSatisfy(e -> {
            assertThat(e.lastLines()).isEmpty();
            assertThat(e.nemesis()).isNull();
        });
        assertThat(out).extracting(ServerEvent::timeNanos).containsOnly(1_000L);
    }

    @Test
    void eventsBeforeRecordingKeepTheirTimeBeforeTheHistorysStart() throws Exception {
        ServerWatch watch = new ServerWatch(() -> { });
        List<ServerEvent> out = new CopyOnWriteArrayList<>();
        long before = System.currentTimeMillis();
        watch.started("n1", ServerEvent.BY_HARNESS);
        Thread.sleep(20); // a gap to measure: the event was told 20 ms or more before recording began
        try {
            watch.record(out::add, () -> 0);
            assertThat(out).hasSize(1);
            assertThat(out.get(0).timeNanos()).isLessThanOrEqualTo(-Duration.ofMillis(20).toNanos());
            assertThat(out.get(0).epochMillis()).isBetween(before, before + 20);
            assertThatThrownBy(() -> watch.record(out::add, () -> 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("records already");
        } finally {
            watch.close();
        }
    }

    @Test
    void aSinkThatFailsIsNotThrownAtTheBackend() {
        ServerWatch watch = new ServerWatch(() -> { });
        try {
            watch.record(e -> {
                throw new IllegalStateException("servers.jsonl is closed");
            }, () -> 0);
            watch.exited("n1", null, 1, () -> "the end");
        } finally {
            watch.close();
        }
    }

    @Test
    void itPollsWhileRecordingAndStopsWhenClosedLeavingNoThread() {
        AtomicInteger polls = new AtomicInteger();
        ServerWatch watch = new ServerWatch(() -> {
            if (polls.incrementAndGet() == 2) {
                throw new IllegalStateException("a poll that breaks once"); // logged; the polls go on
            }
        });
        watch.record(e -> { }, () -> 0);
        long t0 = System.nanoTime();
        await("five polls").atMost(Duration.ofSeconds(10)).until(() -> polls.get() >= 5);
        long took = Duration.ofNanos(System.nanoTime() - t0).toMillis();
        assertThat(took).as("about every 200 ms").isGreaterThanOrEqualTo(4 * 200 - 50);
        watch.close();
        await("the watch's thread gone").atMost(Duration.ofSeconds(10)).until(() ->
                Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("server-watch")));
        assertThatThrownBy(() -> watch.record(e -> { }, () -> 0)).hasMessageContaining("closed");
    }

    private static org.assertj.core.groups.Tuple row(Object... values) {
        return org.assertj.core.groups.Tuple.tuple(values);
    }
}
