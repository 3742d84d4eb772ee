package io.zkchaos.checkers.servers;

import static io.zkchaos.checkers.servers.FaultWindowsTest.DECLARED;
import static io.zkchaos.checkers.servers.FaultWindowsTest.partition;
import static io.zkchaos.checkers.servers.FaultWindowsTest.record;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class AvailabilityCheckerTest {

    private static final Duration BOUND = Duration.ofSeconds(3);
    private static final List<String> THREE = List.of("n1", "n2", "n3");
    private static final List<String> FIVE = List.of("n1", "n2", "n3", "n4", "n5");

    /**
     * A history of probe writes every 250 ms from 0 to {@code endMs} through each of {@code nodes}, acknowledged
     * (at once) where {@code acked} says so, else ended info 200 ms later (the process renewed); with nemesis entries
     * at their times.
     */
    private static History probes(List<String> nodes, long endMs, BiPredicate<String, Long> acked,
                                  List<Nemesis> nemesis) {
        record Step(long ms, int order, Consumer<HistoryBuilder> add) {
        }
        List<Step> steps = new ArrayList<>();
        for (Nemesis n : nemesis) {
            steps.add(new Step(n.atMs, 0, n.add));
        }
        int[] renewal = new int[nodes.size()];
        for (long t = 0; t <= endMs; t += 250) {
            for (int i = 0; i < nodes.size(); i++) {
                String node = nodes.get(i);
                long at = t;
                int index = i;
                if (acked.test(node, t)) {
                    steps.add(new Step(t, 1, b -> b.invoke(process(index, renewal), AvailabilityChecker.WRITE, node,
                            at, at).ok(process(index, renewal), null, at)));
                } else {
                    steps.add(new Step(t, 1, b -> b.invoke(process(index, renewal), AvailabilityChecker.WRITE, node,
                            at, at)));
                    steps.add(new Step(t + 200, 2, b -> {
                        b.info(process(index, renewal), at + 200);
                        renewal[index]++;
                    }));
                }
            }
        }
        steps.sort(Comparator.comparingLong(Step::ms).thenComparingInt(Step::order));
        HistoryBuilder b = new HistoryBuilder();
        steps.forEach(s -> s.add.accept(b));
        return b.build();
    }

    private static int process(int index, int[] renewal) {
        return AvailabilityChecker.process(index, renewal[index]);
    }

    private record Nemesis(long atMs, Consumer<HistoryBuilder> add) {
        static Nemesis start(String fault, Object did, long ms) {
            return new Nemesis(ms, b -> b.nemesis(fault, did, ms, ms + 10));
        }

        static Nemesis heal(String fault, Object did, long ms) {
            return new Nemesis(ms, b -> b.heal(fault, did, ms, ms + 10));
        }
    }

    private static CheckResult check(History h) {
        return new AvailabilityChecker(BOUND, DECLARED, List.of()).check(h);
    }

    private static AvailabilityReport report(CheckResult r) {
        return (AvailabilityReport) r.details();
    }

    @Test
    void aWholeServerThatStopsAcknowledgingIsAStall() {
        History h = probes(THREE, 20_000, (n, t) -> !(n.equals("n2") && t >= 8_000 && t < 14_000), List.of());
        CheckResult r = check(h);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        AvailabilityReport.Stall s = report(r).stalls().get(0);
        assertThat(report(r).stalls()).hasSize(1);
        assertThat(s.node()).isEqualTo("n2");
        assertThat(s.lastAckNanos()).isEqualTo(7_750_000_000L);
        assertThat(s.toNanos()).isEqualTo(14_000_000_000L);
        assertThat(s.stretch().whole()).isEqualTo(THREE);
        assertThat(s.attempts()).isEqualTo(24);
        assertThat(s.error()).isEqualTo("timeout");
        assertThat(r.summary()).contains("1 stall(s)").contains("n2 acknowledged no write for 6.250 s");
    }

    @Test
    void everyWholeServerAcknowledgingIsValid() {
        CheckResult r = check(probes(THREE, 20_000, (n, t) -> true, List.of()));
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(report(r).stretchesJudged()).isEqualTo(1);
        assertThat(report(r).judgedMillis()).isEqualTo(20_000);
        assertThat(report(r).probeAcks()).isEqualTo(report(r).probeWrites()).isEqualTo(3 * 81);
    }

    @Test
    void aServerAFaultActsOnIsNotWholeAndItsSilenceIsNoStall() {
        // n1 isolated 5 s to 12 s (and its grace of 10 s): it acknowledges nothing until 20 s; n2, n3 serve
        Map<String, Object> isolate = partition("isolate-follower", Map.of("n1", List.of("n2", "n3"),
                "n2", List.of("n1"), "n3", List.of("n1")));
        Map<String, Object> healed = partition("heal", Map.of("n1", List.of(), "n2", List.of(), "n3", List.of()));
        List<Nemesis> nemesis = List.of(Nemesis.start("isolate-follower", isolate, 5_000),
                Nemesis.heal("isolate-follower", healed, 12_000));
        CheckResult r = check(probes(THREE, 30_000, (n, t) -> !(n.equals("n1") && t >= 5_000 && t < 20_000),
                nemesis));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(report(r).stretchesJudged()).isEqualTo(3);
        // the same, with n2 silent in the window too: n2 and n3 were a whole majority
        CheckResult bad = check(probes(THREE, 30_000, (n, t) -> !(n.equals("n1") && t >= 5_000 && t < 20_000)
                && !(n.equals("n2") && t >= 6_000 && t < 11_000), nemesis));
        assertThat(bad.validity()).isEqualTo(Validity.INVALID);
        assertThat(report(bad).stalls()).singleElement().satisfies(s -> {
            assertThat(s.node()).isEqualTo("n2");
            assertThat(s.stretch().whole()).containsExactly("n2", "n3");
        });
    }

    @Test
    void aPartitionsMinorityIsNotWholeItsMajorityIs() {
        Map<String, Object> halves = partition("halves", Map.of("n1", List.of("n3", "n4", "n5"),
                "n2", List.of("n3", "n4", "n5"), "n3", List.of("n1", "n2"), "n4", List.of("n1", "n2"),
                "n5", List.of("n1", "n2")));
        List<Nemesis> nemesis = List.of(Nemesis.start("halves", halves, 4_000));
        CheckResult r = check(probes(FIVE, 20_000, (n, t) -> !(Map.of("n1", 1, "n2", 2).containsKey(n) && t >= 4_000),
                nemesis));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(report(r).stretchesJudged()).isEqualTo(2);
        CheckResult bad = check(probes(FIVE, 20_000, (n, t) -> !(List.of("n1", "n2", "n5").contains(n) && t >= 4_000),
                nemesis));
        assertThat(report(bad).stalls()).extracting(AvailabilityReport.Stall::node).containsExactly("n5");
        assertThat(report(bad).stalls().get(0).stretch().whole()).containsExactly("n3", "n4", "n5");
    }

    @Test
    void aStallWhileNoMajorityIsWholeIsExcusedWithTheFaultsInForce() {
        // halves cuts n1 off, kill-random kills n2 meanwhile: only n3 whole; nothing acknowledged then
        Map<String, Object> halves = partition("halves", Map.of("n1", List.of("n2", "n3"), "n2", List.of("n1"),
                "n3", List.of("n1")));
        List<Nemesis> nemesis = List.of(Nemesis.start("halves", halves, 4_000),
                Nemesis.start("kill-random", record("kill-random", List.of("n2")), 5_000),
                Nemesis.heal("all", record("heal", List.of("n2")), 15_000));
        // after the final heal n2, n3 are whole at once (n1 within its grace): they serve again within the bound
        CheckResult r = check(probes(THREE, 40_000, (n, t) -> t < 5_000 || t >= 27_000
                || (!n.equals("n1") && t >= 17_000), nemesis));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(report(r).excused()).singleElement().satisfies(s -> {
            assertThat(s.whole()).containsExactly("n3");
            assertThat(s.faults()).contains("halves on n1", "kill-random on n2");
        });
    }

    @Test
    void aStretchsFirstBoundIsNotJudged() {
        // n3 killed 5 s to 10 s; it acknowledges again 2.5 s after its restart, within the bound of the new stretch
        List<Nemesis> nemesis = List.of(Nemesis.start("kill-leader", record("kill-leader", List.of("n3")), 5_000),
                Nemesis.heal("kill-leader", record("restart", List.of("n3")), 10_000));
        CheckResult r = check(probes(THREE, 20_000, (n, t) -> !(t >= 5_000 && t < 7_000)
                && !(n.equals("n3") && t >= 5_000 && t < 12_500), nemesis));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        // n3 still silent 4 s after its restart: a stall from the restart on
        CheckResult bad = check(probes(THREE, 20_000, (n, t) -> !(n.equals("n3") && t >= 5_000 && t < 14_000),
                nemesis));
        assertThat(report(bad).stalls()).singleElement().satisfies(s -> {
            assertThat(s.node()).isEqualTo("n3");
            assertThat(s.fromNanos()).isEqualTo(10_010_000_000L);
        });
    }

    @Test
    void aServerDownByItselfIsNotWhole() {
        List<ServerEvent> events = List.of(
                new ServerEvent("n2", ServerEvent.Kind.EXITED, 5_000_000_000L, 0, null, null, 1, null, List.of(),
                        null, null),
                new ServerEvent("n2", ServerEvent.Kind.STARTED, 12_000_000_000L, 0, "harness", null, null, null,
                        List.of(), null, null));
        History h = probes(THREE, 20_000, (n, t) -> !(n.equals("n2") && t >= 5_000 && t < 13_000), List.of());
        assertThat(new AvailabilityChecker(BOUND, DECLARED, events).check(h).validity()).isEqualTo(Validity.VALID);
        assertThat(check(h).validity()).as("without the events it is a stall").isEqualTo(Validity.INVALID);
    }

    @Test
    void aRunShorterThanTheBoundIsValidAndSaysNoStretchCouldHoldAStall() {
        CheckResult r = check(probes(THREE, 2_000, (n, t) -> true, List.of())); // the bound here is 3 s
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).startsWith("no stretch with a whole majority lasted longer than the bound");
        CheckResult silent = check(probes(THREE, 2_000, (n, t) -> false, List.of()));
        assertThat(silent.validity()).as("a gap no longer than the bound is no stall").isEqualTo(Validity.VALID);
    }

    @Test
    void noProbeWritesIsUnknown() {
        History h = new HistoryBuilder().okOp(1, "add", 1L, null, 10).build();
        CheckResult r = check(h);
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).contains("no probe writes");
    }

    @Test
    void noStretchWithAWholeMajorityIsUnknown() {
        List<Nemesis> nemesis = List.of(Nemesis.start("kill-majority", record("kill-majority", List.of("n1", "n2")),
                0));
        CheckResult r = check(probes(THREE, 10_000, (n, t) -> false, nemesis));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.UNKNOWN);
    }
}
