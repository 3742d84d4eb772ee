package io.zkchaos.harness.shrink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.shrink.Shrinker.Candidate;
import io.zkchaos.harness.shrink.Shrinker.Size;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.nemesis.schedule.FaultSchedule.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Shrinking against a run function that fails exactly when its schedule makes a given fault happen: the planted
 * finding reaches a one-fault schedule, the smallest size, and no candidate is kept on a try that exercised too
 * little, nor on fewer reproductions than the keep-rate asks; no fault at all is tried first, and the smallest run goes
 * on for a margin after its last fault.
 */
class ShrinkerTest {

    private static final Set<String> LOST = Set.of("no-lost-commit:lost");

    /** A mixed run's schedule: eight faults, 5 s each, 5 s apart, in a 80 s main phase. */
    private static Candidate mixedRun() {
        List<String> faults = List.of("pause-random", "halves", "kill-random", "bridge", "kill-all", "isolate-leader",
                "slow-network", "kill-leader");
        List<Window> ws = new ArrayList<>();
        for (int i = 0; i < faults.size(); i++) {
            ws.add(Window.of(faults.get(i), 5000 + i * 10_000L, 10_000 + i * 10_000L));
        }
        return new Candidate(new FaultSchedule("mixed", null, ws), new Size(5, 5, 3, 80_000));
    }

    private static TrialRun run(boolean found, boolean exercised) {
        return new TrialRun(null, found ? Validity.INVALID : Validity.VALID, found ? new TreeSet<>(LOST)
                : new TreeSet<>(), exercised, null);
    }

    /** Finds the lost add whenever {@code cause} holds, having exercised enough whenever some fault happened. */
    private static Shrinker.Trial plantedBug(Predicate<Candidate> cause, List<Candidate> tried) {
        return c -> {
            tried.add(c);
            return run(cause.test(c), !c.schedule().faults().isEmpty());
        };
    }

    private static final Shrinker.Rules RULES = new Shrinker.Rules() {
        @Override
        public long minHoldMillis(String fault) {
            return fault.equals("kill-all") ? 3000 : 1000;
        }

        @Override
        public boolean supports(String fault, int nodes) {
            return nodes >= 3;
        }
    };

    private static Shrinker shrinker(Shrinker.Trial trial, Shrinker.KeepRate keep, List<Shrinker.Step> steps) {
        return new Shrinker(trial, LOST, keep, () -> false, RULES, steps::add);
    }

    private static Shrinker.KeepRate rate(int needed, int tries) {
        return new Shrinker.KeepRate(needed, tries);
    }

    private static boolean has(Candidate c, String fault) {
        return c.schedule().faultNames().contains(fault);
    }

    @Test
    void aFindingThatNeedsOneFaultShrinksToThatFaultAloneAtTheSmallestSize() throws Exception {
        List<Candidate> tried = new ArrayList<>();
        List<Shrinker.Step> steps = new ArrayList<>();
        Shrinker.Result r = shrinker(plantedBug(c -> has(c, "isolate-leader"), tried), Shrinker.KeepRate.DEFAULT,
                steps).shrink(mixedRun());

        Candidate s = r.smallest();
        assertThat(s.schedule().faults()).extracting(Window::fault).containsExactly("isolate-leader");
        Window w = s.schedule().faults().get(0);
        assertThat(w.startMillis()).as("moved earlier, not below the floor").isEqualTo(1000);
        assertThat(w.holdMillis()).isEqualTo(1000);
        assertThat(s.size()).as("a margin of 5 s after the last fault").isEqualTo(new Size(3, 1, 1, 7000));
        assertThat(r.plainBug()).isFalse();
        assertThat(steps.get(0).move()).startsWith("no fault at all");
        assertThat(steps.get(0).candidate().schedule().faults()).isEmpty();
        assertThat(steps.get(0).kept()).isFalse();
        assertThat(r.smallestRun().reproduces(LOST)).isTrue();
        assertThat(r.budgetSpent()).isFalse();
        assertThat(steps.stream().mapToInt(st -> st.tries().size()).sum()).as("every try is in a step")
                .isEqualTo(tried.size());
        assertThat(steps.stream().map(Shrinker.Step::candidate).distinct().count()).as("no candidate tried twice")
                .isEqualTo(steps.size());
        assertThat(steps).filteredOn(Shrinker.Step::kept).isNotEmpty()
                .allMatch(st -> st.tries().get(st.tries().size() - 1).reproduces(LOST));
        // every kept step is smaller than the one before in some way, and the last kept one is the result
        assertThat(steps.stream().filter(Shrinker.Step::kept).reduce((a, b) -> b).orElseThrow().candidate())
                .isEqualTo(s);
        assertThat(s.describe()).isEqualTo("1 fault(s) (isolate-leader 1.0–2.0 s), main phase 7.0 s, 3 nodes, "
                + "1 client, 1 key");
    }

    @Test
    void aFindingThatNeedsTwoFaultsKeepsBothAndEachHoldNoShorterThanItNeeds() throws Exception {
        List<Shrinker.Step> steps = new ArrayList<>();
        Shrinker.Result r = shrinker(plantedBug(c -> has(c, "halves") && has(c, "kill-all"), new ArrayList<>()),
                rate(1, 1), steps).shrink(mixedRun());
        assertThat(steps.stream().map(Shrinker.Step::candidate).distinct().count())
                .as("ddmin comes back to candidates that failed: each is tried once").isEqualTo(steps.size());
        assertThat(r.smallest().schedule().faults()).extracting(Window::fault).containsExactly("halves", "kill-all");
        assertThat(r.smallest().schedule().faults()).extracting(Window::holdMillis).containsExactly(1000L, 3000L);
    }

    /** Whether {@code a} and {@code b} are both in force at some time. */
    private static boolean overlap(Candidate c, String a, String b) {
        List<Window> ws = c.schedule().faults();
        return ws.stream().filter(x -> x.fault().equals(a)).anyMatch(x -> ws.stream()
                .filter(y -> y.fault().equals(b)).anyMatch(y -> x.startMillis() < y.endMillis()
                        && y.startMillis() < x.endMillis()));
    }

    @Test
    void aFindingThatNeedsTwoFaultsAtOnceKeepsThemOverlappingAsTheScheduleShrinks() throws Exception {
        // a --compose run: faults of different families overlapping
        Candidate compound = new Candidate(new FaultSchedule("mixed", null, List.of(
                Window.of("halves", 5000, 15_000), Window.of("kill-all", 8000, 18_000),
                Window.of("pause-random", 12_000, 20_000), Window.of("bridge", 22_000, 30_000),
                Window.of("kill-leader", 25_000, 35_000), Window.of("clock-bump", 27_000, 33_000))),
                new Size(3, 2, 0, 40_000));
        List<Candidate> tried = new ArrayList<>();
        Shrinker.Result r = shrinker(plantedBug(c -> overlap(c, "halves", "kill-all"), tried), rate(1, 1),
                new ArrayList<>()).shrink(compound);
        Candidate s = r.smallest();
        assertThat(s.schedule().faults()).extracting(Window::fault).containsExactly("halves", "kill-all");
        assertThat(overlap(s, "halves", "kill-all")).isTrue();
        assertThat(s.schedule().faults()).extracting(Window::holdMillis).allMatch(h -> h < 10_000);
        assertThat(s.schedule().faults().get(0).startMillis()).as("moved earlier").isLessThan(5000);
        assertThat(s.size().mainPhaseMillis()).isLessThan(20_000);
        // no move ever pushed a fault later than it was
        assertThat(tried).allMatch(c -> c.schedule().faults().stream().allMatch(w -> compound.schedule().faults()
                .stream().filter(o -> o.fault().equals(w.fault())).allMatch(o -> w.startMillis() <= o.startMillis())));
    }

    /** Reproduces {@code kill-leader}'s finding on the tries of each candidate that {@code hits} names (from 1). */
    private static Shrinker.Trial flaky(Set<Integer> hits, List<Shrinker.Step> steps) {
        java.util.Map<Candidate, Integer> tries = new java.util.HashMap<>();
        return c -> run(has(c, "kill-leader") && hits.contains(tries.merge(c, 1, Integer::sum)), true);
    }

    @Test
    void aCandidateThatReproducesOnceInThreeTriesIsNotKept() throws Exception {
        List<Shrinker.Step> steps = new ArrayList<>();
        Shrinker.Result once = shrinker(flaky(Set.of(2), steps), Shrinker.KeepRate.DEFAULT, steps).shrink(mixedRun());
        assertThat(once.smallest()).as("1 of 3 is below 2/3: nothing smaller kept").isEqualTo(mixedRun());
        assertThat(once.smallestRun()).isNull();
        assertThat(steps).noneMatch(Shrinker.Step::kept);
        assertThat(steps).filteredOn(st -> has(st.candidate(), "kill-leader")).isNotEmpty()
                .allSatisfy(st -> assertThat(st.tries()).as(st.move()).hasSize(3)
                        .filteredOn(t -> t.reproduces(LOST)).hasSize(1));
        assertThat(steps).filteredOn(st -> !has(st.candidate(), "kill-leader")).isNotEmpty()
                .allSatisfy(st -> assertThat(st.tries()).as("after 2 misses 2/3 cannot be met: " + st.move())
                        .hasSize(2));

        // the same finding, once in three tries, under a keep-rate of 1/3 shrinks all the way
        assertThat(shrinker(flaky(Set.of(2), new ArrayList<>()), rate(1, 3), new ArrayList<>()).shrink(mixedRun())
                .smallest().schedule().faults()).extracting(Window::fault).containsExactly("kill-leader");

        // twice in three (the first and the third try) is kept, after three tries; twice at once after two
        List<Shrinker.Step> twice = new ArrayList<>();
        Shrinker.Result r = shrinker(flaky(Set.of(1, 3), twice), Shrinker.KeepRate.DEFAULT, twice).shrink(mixedRun());
        assertThat(r.smallest().schedule().faults()).extracting(Window::fault).containsExactly("kill-leader");
        assertThat(twice).filteredOn(Shrinker.Step::kept).isNotEmpty().allSatisfy(st -> assertThat(st.tries())
                .hasSize(3));
        List<Shrinker.Step> atOnce = new ArrayList<>();
        shrinker(flaky(Set.of(1, 2), atOnce), Shrinker.KeepRate.DEFAULT, atOnce).shrink(mixedRun());
        assertThat(atOnce).filteredOn(Shrinker.Step::kept).isNotEmpty().allSatisfy(st -> assertThat(st.tries())
                .hasSize(2));

        // a run that found the finding but exercised too little does not count
        Shrinker.Result none = shrinker(c -> run(true, false), Shrinker.KeepRate.DEFAULT, new ArrayList<>())
                .shrink(mixedRun());
        assertThat(none.smallest()).isEqualTo(mixedRun());
        assertThat(none.smallestRun()).isNull();
        assertThat(none.steps()).isNotEmpty().noneMatch(Shrinker.Step::kept);
    }

    @Test
    void theKeepRateIsNOfK() {
        assertThat(Shrinker.KeepRate.parse("2/3")).isEqualTo(Shrinker.KeepRate.DEFAULT);
        assertThat(Shrinker.KeepRate.parse(" 1 / 1 ")).isEqualTo(new Shrinker.KeepRate(1, 1));
        assertThatThrownBy(() -> Shrinker.KeepRate.parse("3/2")).hasMessage("keep-rate must be N/K with 1 <= N <= "
                + "K (reproductions of tries), got 3/2");
        assertThatThrownBy(() -> Shrinker.KeepRate.parse("0/3")).hasMessageContaining("got 0/3");
        assertThatThrownBy(() -> Shrinker.KeepRate.parse("two")).hasMessage("keep-rate must be N/K (reproductions "
                + "of tries, e.g. 2/3), got 'two'");
    }

    @Test
    void noFaultAtAllIsTriedFirstAndAFindingThatNeedsNoneIsAPlainBug() throws Exception {
        // the finding shows whatever the faults: a plain bug
        List<Candidate> tried = new ArrayList<>();
        List<Shrinker.Step> steps = new ArrayList<>();
        Shrinker.Result r = shrinker(c -> {
            tried.add(c);
            return run(true, true);
        }, Shrinker.KeepRate.DEFAULT, steps).shrink(mixedRun());
        assertThat(tried.get(0).schedule().faults()).as("the first try has no fault").isEmpty();
        assertThat(tried.get(0).size()).isEqualTo(mixedRun().size());
        assertThat(steps.get(0).kept()).isTrue();
        assertThat(steps.get(0).move()).isEqualTo("no fault at all (the run as --nemesis none)");
        assertThat(r.smallest().schedule().faults()).isEmpty();
        assertThat(r.plainBug()).isTrue();
        assertThat(Shrinker.Result.PLAIN_BUG).isEqualTo("reproduced with no fault: a plain bug, not a fault's");
        assertThat(steps).as("no move drops a fault it no longer has").noneMatch(st -> st.move().startsWith("keep "));
        assertThat(r.smallest().size().nodes()).as("and then the run gets smaller").isEqualTo(3);

        // a run without faults to begin with has no such step
        Candidate bare = new Candidate(new FaultSchedule("none", null, List.of()), new Size(3, 1, 0, 10_000));
        List<Shrinker.Step> none = new ArrayList<>();
        shrinker(c -> run(true, true), Shrinker.KeepRate.DEFAULT, none).shrink(bare);
        assertThat(none).noneMatch(st -> st.move().startsWith("no fault"));
    }

    @Test
    void theSmallestRunGoesOnAfterItsLastFaultForAsLongAsItHeldAndAtLeastFiveSeconds() throws Exception {
        Shrinker.Rules longHolds = new Shrinker.Rules() {
            @Override
            public long minHoldMillis(String fault) {
                return fault.equals("kill-all") ? 8000 : 1000;
            }

            @Override
            public boolean supports(String fault, int nodes) {
                return true;
            }
        };
        Candidate run = new Candidate(new FaultSchedule("mixed", null, List.of(Window.of("halves", 5000, 7000),
                Window.of("kill-all", 20_000, 36_000), Window.of("bridge", 50_000, 52_000))),
                new Size(3, 1, 0, 90_000));
        for (String needed : List.of("halves", "kill-all")) {
            List<Candidate> tried = new ArrayList<>();
            Candidate s = new Shrinker(plantedBug(c -> has(c, needed), tried), LOST, rate(1, 1), () -> false,
                    longHolds, st -> { }).shrink(run).smallest();
            Window w = s.schedule().faults().get(0);
            assertThat(s.schedule().faultNames()).containsExactly(needed);
            assertThat(s.size().mainPhaseMillis() - w.endMillis()).as(needed + ": max(5 s, its hold %d ms)",
                    w.holdMillis()).isEqualTo(Math.max(5000, w.holdMillis()));
            assertThat(tried).as("no candidate with faults ends sooner than that after its last").allMatch(c ->
                    c.schedule().faults().isEmpty() || c.schedule().faults().stream().allMatch(x ->
                            c.size().mainPhaseMillis() - x.endMillis() >= Math.min(5000, 90_000 - 52_000)));
        }
    }

    @Test
    void theMainPhaseOutlastsTheLastStopByTheTimeThatStopTook() throws Exception {
        // a catch-up that waited 4 s for nodes to serve: the clients must still work after the final heal, for the
        // margin after that
        Window slowStop = new Window("lagging-follower", 5000, 10_000, null, null, null, null, null, null, null,
                4000);
        Candidate run = new Candidate(new FaultSchedule("mixed", null, List.of(slowStop)), new Size(3, 1, 0, 30_000));
        Candidate s = shrinker(plantedBug(c -> has(c, "lagging-follower"), new ArrayList<>()), rate(1, 1),
                new ArrayList<>()).shrink(run).smallest();
        Window w = s.schedule().faults().get(0);
        assertThat(s.size().mainPhaseMillis() - w.endMillis()).isEqualTo(4000 + 5000);
        assertThat(w.stopTookMillis()).as("kept as it moves").isEqualTo(4000);
    }

    @Test
    void itStopsWhenTheBudgetIsSpentWithTheSmallestSoFar() throws Exception {
        List<Candidate> tried = new ArrayList<>();
        Shrinker.Trial trial = plantedBug(c -> has(c, "isolate-leader"), tried);
        // no fault (does not reproduce), the first half (neither), then the second half (reproduces): spent
        Shrinker.Result r = new Shrinker(trial, LOST, rate(1, 1), () -> tried.size() >= 3, RULES, s -> { })
                .shrink(mixedRun());
        assertThat(tried).hasSize(3);
        assertThat(r.budgetSpent()).isTrue();
        assertThat(r.smallest().schedule().faults()).extracting(Window::fault).containsExactly("kill-all",
                "isolate-leader", "slow-network", "kill-leader");
    }

    @Test
    void thereIsNothingToShrinkWithoutAFinding() {
        assertThatThrownBy(() -> new Shrinker(c -> null, Set.of(), Shrinker.KeepRate.DEFAULT, () -> false, RULES,
                s -> { }))
                .hasMessageContaining("nothing to shrink");
        assertThat(Shrinker.split(List.of(1, 2, 3, 4, 5), 2)).containsExactly(List.of(1, 2), List.of(3, 4, 5));
        assertThat(Shrinker.split(List.of(1, 2, 3), 3)).containsExactly(List.of(1), List.of(2), List.of(3));
    }
}
