package io.zkchaos.harness.hunt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.cli.RunCommand;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.shrink.TrialRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The hunt's loop and tally, with runs judged by a stand-in (the runs themselves are {@code ./zkchaos run}'s, tested
 * there): rows in turn with a seed each, the budget, what counts as a finding.
 */
class HuntTest {

    private static final Path OUT = Path.of("/tmp/hunt-test-never-written");

    /** A clock that each run moves on by ten minutes. */
    private final AtomicLong now = new AtomicLong();
    private final List<RunConfig> ran = new ArrayList<>();

    private static List<HuntRow> rows(String text) {
        return HuntRow.parse(text, "rows.txt");
    }

    private TrialRun judged(RunConfig c, Validity v, boolean enough, String... kinds) {
        ran.add(c);
        now.addAndGet(Duration.ofMinutes(10).toNanos());
        return new TrialRun(Path.of("/runs/" + ran.size()), v, new TreeSet<>(Set.of(kinds)), enough, null);
    }

    @Test
    void rowsAreRunInTurnEachWithItsOwnSeedUntilTheBudgetIsSpent() throws Exception {
        Hunt hunt = new Hunt(rows("""
                # a comment, and a blank line
                
                --workload set --nemesis kill-leader
                --workload register --nemesis isolate-leader
                """), Duration.ofMinutes(45), 100, OUT);
        List<HuntTally> t = hunt.run(RunCommand::configOf, c -> judged(c, Validity.VALID, true),
                new PrintWriter(new StringWriter()), now::get);
        // 10 minutes a run: runs start at 0, 10, 20, 30 and 40 minutes; at 50 the budget is spent
        assertThat(ran).extracting(RunConfig::seed).containsExactly(100L, 101L, 102L, 103L, 104L);
        assertThat(ran).extracting(c -> c.workload().name())
                .containsExactly("set", "register", "set", "register", "set");
        assertThat(ran.get(0).out()).isEqualTo(OUT.resolve("row-1").toString());
        assertThat(t).extracting(HuntTally::runs).containsExactly(3, 2);
        assertThat(t.get(0).time()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void everyRowRunsOnceEvenWithoutBudget() throws Exception {
        Hunt hunt = new Hunt(rows("--workload set\n--workload register\n--workload election"), Duration.ZERO, 1,
                OUT);
        List<HuntTally> t = hunt.run(RunCommand::configOf, c -> judged(c, Validity.VALID, true),
                new PrintWriter(new StringWriter()), now::get);
        assertThat(t).extracting(HuntTally::runs).containsExactly(1, 1, 1);
    }

    @Test
    void aFindingCountsOnlyInAnInvalidRunThatExercisedEnough() throws Exception {
        List<TrialRun> outcomes = new ArrayList<>();
        Hunt hunt = new Hunt(rows("--workload set --nemesis kill-all"), Duration.ofMinutes(50), 1, OUT);
        int[] i = {0};
        List<HuntTally> t = hunt.run(RunCommand::configOf, c -> {
            TrialRun r = switch (i[0]++) {
                case 0 -> judged(c, Validity.INVALID, true, "no-lost-commit:lost", "final-state:diverged");
                case 1 -> judged(c, Validity.INVALID, false, "no-lost-commit:lost");
                case 2 -> judged(c, Validity.UNKNOWN, false);
                case 3 -> {
                    ran.add(c);
                    now.addAndGet(Duration.ofMinutes(10).toNanos());
                    yield TrialRun.failed(null, "cluster did not start");
                }
                default -> judged(c, Validity.INVALID, true, "no-lost-commit:lost");
            };
            outcomes.add(r);
            return r;
        }, new PrintWriter(new StringWriter()), now::get);
        HuntTally set = t.get(0);
        assertThat(set.runs()).isEqualTo(5);
        assertThat(set.invalid()).as("runs 1 and 5").isEqualTo(2);
        assertThat(set.unknown()).as("the invalid run below its minimum, and the unknown one").isEqualTo(2);
        assertThat(set.errors()).isEqualTo(1);
        assertThat(set.valid()).isZero();
        assertThat(set.findings()).containsEntry("no-lost-commit:lost", 2).containsEntry("final-state:diverged", 1)
                .hasSize(2);
        // 2 findings in 50 minutes
        assertThat(set.findingsPerHour()).isEqualTo(2.4);
        assertThat(set.kindsText()).isEqualTo("final-state:diverged 1, no-lost-commit:lost 2");
    }

    @Test
    void aRowThatIsNoRunConfigurationIsRefusedBeforeAnyRun() {
        Hunt hunt = new Hunt(rows("--workload set\n--workload set --nemesis no-such-nemesis"), Duration.ZERO, 1,
                OUT);
        assertThatThrownBy(() -> hunt.run(RunCommand::configOf, c -> judged(c, Validity.VALID, true),
                new PrintWriter(new StringWriter()), now::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("row 2 (--workload set --nemesis no-such-nemesis): ")
                .hasMessageContaining("no-such-nemesis");
        assertThat(ran).isEmpty();
    }

    @Test
    void rowsThatSetTheSeedOrTheOutputOrNothingAreRefusedNamingTheLine() {
        assertThatThrownBy(() -> rows("--workload set\n\n--workload set --seed 4"))
                .hasMessageStartingWith("rows.txt line 3: a hunt row must not set --seed");
        assertThatThrownBy(() -> rows("--workload set --out=/tmp/x"))
                .hasMessageStartingWith("rows.txt line 1: a hunt row must not set --out");
        assertThatThrownBy(() -> rows("# only a comment\n"))
                .hasMessage("rows.txt has no row (one line of run arguments a row)");
    }
}
