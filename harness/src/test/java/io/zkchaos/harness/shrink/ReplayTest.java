package io.zkchaos.harness.shrink;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.config.RunConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Replays counted against the kinds compared with; a run below its minimum counts for nothing. */
class ReplayTest {

    private static TrialRun run(boolean exercised, String... kinds) {
        return new TrialRun(null, kinds.length == 0 ? Validity.VALID : Validity.INVALID,
                new TreeSet<>(List.of(kinds)), exercised, null);
    }

    @Test
    void countsTheRunsThatFoundAKindComparedWithAndMarksTheOthers() throws Exception {
        List<TrialRun> runs = List.of(run(true, "final-state:diverged", "no-lost-commit:lost"), run(true),
                run(false, "no-lost-commit:lost"));
        var next = runs.iterator();
        StringWriter out = new StringWriter();
        Replay.Summary s = Replay.run("a run", Validity.INVALID, Set.of("no-lost-commit:lost"),
                RunConfig.builder().build(), 3, c -> next.next(), new PrintWriter(out, true));
        assertThat(s.rate()).as("the third found it but exercised too little").isEqualTo("1 of 3");
        assertThat(s.sameVerdict()).isEqualTo(1);
        assertThat(out.toString()).contains("3/3 INVALID (exercised too little)")
                .contains("findings that recurred: final-state:diverged 1 of 3 (other), no-lost-commit:lost 1 of 3");
    }
}
