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
 * little.
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

    private static Shrinker shrinker(Shrinker.Trial trial, int tries, List<Shrinker.Step> steps) {
        return new Shrinker(trial, LOST, tries, () -> false, RULES, steps::add);
    }

    private static boolean has(Candidate c, String fault) {
        return c.schedule().faultNames().contains(fault);
    }

    @Test
    void aFindingThatNeedsOneFaultShrinksToThatFaultAloneAtTheSmallestSize() throws Exception {
        List<Candidate> tried = new ArrayList<>();
        List<Shrinker.Step> steps = new ArrayList<>();
        Shrinker.Result r = shrinker(plantedBug(c -> has(c, "isolate-leader"), tried), 3, steps).shrink(mixedRun());

        Candidate s = r.smallest();
        assertThat(s.schedule().faults()).extracting(Window::fault).containsExactly("isolate-leader");
        Window w = s.schedule().faults().get(0);
        assertThat(w.startMillis()).as("moved earlier, not below the floor").isEqualTo(1000);
        assertThat(w.holdMillis()).isEqualTo(1000);
        assertThat(s.size()).isEqualTo(new Size(3, 1, 1, 3000));
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
        assertThat(s.describe()).isEqualTo("1 fault(s) (isolate-leader 1.0–2.0 s), main phase 3.0 s, 3 nodes, "
                + "1 client, 1 key");
    }

    @Test
    void aFindingThatNeedsTwoFaultsKeepsBothAndEachHoldNoShorterThanItNeeds() throws Exception {
        List<Shrinker.Step> steps = new ArrayList<>();
        Shrinker.Result r = shrinker(plantedBug(c -> has(c, "halves") && has(c, "kill-all"), new ArrayList<>()), 1,
                steps).shrink(mixedRun());
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
        Shrinker.Result r = shrinker(plantedBug(c -> overlap(c, "halves", "kill-all"), tried), 1, new ArrayList<>())
                .shrink(compound);
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

    @Test
    void aCandidateIsKeptIfAnyOfItsTriesReproducesAndNeverOnARunThatExercisedTooLittle() throws Exception {
        // the bug shows on the second try of a candidate only
        java.util.Map<Candidate, Integer> tries = new java.util.HashMap<>();
        Shrinker.Trial flaky = c -> run(has(c, "kill-leader") && tries.merge(c, 1, Integer::sum) == 2, true);
        assertThat(shrinker(flaky, 1, new ArrayList<>()).shrink(mixedRun()).smallest())
                .as("one try each: every candidate looks clean").isEqualTo(mixedRun());
        tries.clear();
        assertThat(shrinker(flaky, 2, new ArrayList<>()).shrink(mixedRun()).smallest().schedule().faults())
                .extracting(Window::fault).containsExactly("kill-leader");

        // a run that found the finding but exercised too little does not count
        Shrinker.Result none = shrinker(c -> run(true, false), 3, new ArrayList<>()).shrink(mixedRun());
        assertThat(none.smallest()).isEqualTo(mixedRun());
        assertThat(none.smallestRun()).isNull();
        assertThat(none.steps()).isNotEmpty().noneMatch(Shrinker.Step::kept);
    }

    @Test
    void theMainPhaseOutlastsTheLastStopByTheTimeThatStopTook() throws Exception {
        // a catch-up that waited 4 s for nodes to serve: the clients must still work after the final heal
        Window slowStop = new Window("lagging-follower", 5000, 10_000, null, null, null, null, null, null, null,
                4000);
        Candidate run = new Candidate(new FaultSchedule("mixed", null, List.of(slowStop)), new Size(3, 1, 0, 30_000));
        Candidate s = shrinker(plantedBug(c -> has(c, "lagging-follower"), new ArrayList<>()), 1, new ArrayList<>())
                .shrink(run).smallest();
        Window w = s.schedule().faults().get(0);
        assertThat(s.size().mainPhaseMillis() - w.endMillis()).isEqualTo(5000);
        assertThat(w.stopTookMillis()).as("kept as it moves").isEqualTo(4000);
    }

    @Test
    void itStopsWhenTheBudgetIsSpentWithTheSmallestSoFar() throws Exception {
        List<Candidate> tried = new ArrayList<>();
        Shrinker.Trial trial = plantedBug(c -> has(c, "isolate-leader"), tried);
        // the first half (3 tries, none reproduces), then the second half (reproduces at once): spent
        Shrinker.Result r = new Shrinker(trial, LOST, 3, () -> tried.size() >= 4, RULES, s -> { })
                .shrink(mixedRun());
        assertThat(tried).hasSize(4);
        assertThat(r.budgetSpent()).isTrue();
        assertThat(r.smallest().schedule().faults()).extracting(Window::fault).containsExactly("kill-all",
                "isolate-leader", "slow-network", "kill-leader");
    }

    @Test
    void thereIsNothingToShrinkWithoutAFinding() {
        assertThatThrownBy(() -> new Shrinker(c -> null, Set.of(), 3, () -> false, RULES, s -> { }))
                .hasMessageContaining("nothing to shrink");
        assertThat(Shrinker.split(List.of(1, 2, 3, 4, 5), 2)).containsExactly(List.of(1, 2), List.of(3, 4, 5));
        assertThat(Shrinker.split(List.of(1, 2, 3), 3)).containsExactly(List.of(1), List.of(2), List.of(3));
    }
}
