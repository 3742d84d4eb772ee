package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Usage errors of run, scenarios and bench: exit 2 and a message naming the problem; no cluster is started. */
class RunAndBenchCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void scenariosListsEveryWorkloadAndNemesis() {
        assertThat(run("scenarios")).isZero();
        assertThat(out.toString()).contains("register", "set", "election-curator", "fenced-writes")
                .contains("kill-leader", "majorities-ring", "client-partition", "slow-network", "mixed");
    }

    @Test
    void runRejectsAnUnknownWorkloadNamingTheKnownOnes() {
        assertThat(run("run", "--workload", "bogus", "--out", "target/never")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'bogus'").contains("register");
    }

    @Test
    void runRejectsAnUnknownNemesisAndABadSize() {
        assertThat(run("run", "--workload", "set", "--nemesis", "gremlins")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown nemesis 'gremlins'");
        assertThat(run("run", "--workload", "set", "--nodes", "4")).isEqualTo(2);
        assertThat(err.toString()).contains("nodes must be 3 or 5");
        assertThat(run("run", "--workload", "set", "--reads", "psychic")).isEqualTo(2);
        assertThat(err.toString()).contains("--reads must be plain or sync");
        assertThat(run("run", "--workload", "set", "--time-limit", "soon")).isEqualTo(2);
    }

    @Test
    void benchRejectsAnUnknownBenchmark() {
        assertThat(run("bench", "everything")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown benchmark 'everything'").contains("checker")
                .contains("recorder").contains("read-model");
    }

    @Test
    void theCheckersModuleBenchmarksRunFromTheCommandLine() {
        // They print their figures on standard output; what they measure is tested in the checkers module.
        assertThat(run("bench", "recorder", "--threads", "2", "--pairs", "100")).as(err.toString()).isZero();
        assertThat(run("bench", "read-model", "--ops", "300")).as(err.toString()).isZero();
    }
}
