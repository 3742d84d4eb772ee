package io.zkchaos.harness.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioTimesTest {

    @TempDir
    Path dir;

    private static SuiteLedger.Entry entry(String suite, String version, String workload, String nemesis,
                                           String verdict, double seconds) {
        return new SuiteLedger.Entry(suite, "zookeeper " + version + ": " + workload + " under " + nemesis,
                "zookeeper", version, workload, nemesis, verdict, 1_000, 1_000 + (long) (seconds * 1000), null, null,
                "");
    }

    @Test
    void eachScenarioExpectsTheMedianOfItsRunsLeavingOutRunsThatCouldNotBeDone() {
        ScenarioTimes t = ScenarioTimes.fromLedger(List.of(
                entry("s1", "3.9.5", "set", "halves", "valid", 20),
                entry("s2", "3.9.5", "set", "halves", "invalid", 30),
                entry("s3", "3.9.5", "set", "halves", "valid", 26),
                entry("s3", "3.9.5", "set", "halves", "error", 500),
                entry("s1", "3.9.5", "set", "none", "error", 2)));
        assertThat(t.rows()).containsExactly(new ScenarioTimes.Row("zookeeper", "3.9.5", "set", "halves", 26, 3));
        assertThat(t.seconds("zookeeper", "3.9.5", "set", "halves")).isEqualTo(26);
    }

    @Test
    void aScenarioTheFileDoesNotListExpectsWhatItsNearestScenariosTake() {
        ScenarioTimes t = new ScenarioTimes(List.of(
                new ScenarioTimes.Row("zookeeper", "3.9.5", "set", "kill-majority", 40, 1),
                new ScenarioTimes.Row("zookeeper", "3.9.5", "register", "kill-majority", 44, 1),
                new ScenarioTimes.Row("zookeeper", "3.9.5", "register", "none", 22, 1),
                new ScenarioTimes.Row("zookeeper", "3.8.4", "register", "none", 24, 1)));
        assertThat(t.seconds("zookeeper", "3.8.4", "register", "none")).isEqualTo(24);
        // another version of the same workload under the same nemesis
        assertThat(t.seconds("zookeeper", "3.7.0", "set", "kill-majority")).isEqualTo(40);
        // the same nemesis under any workload
        assertThat(t.seconds("zookeeper", "3.9.5", "election", "kill-majority")).isEqualTo(42);
        // every scenario listed
        assertThat(t.seconds("zookeeper", "3.9.5", "election", "bridge")).isEqualTo(32);
        assertThat(new ScenarioTimes(List.of()).seconds("zookeeper", "3.9.5", "set", "none"))
                .isEqualTo(ScenarioTimes.UNKNOWN_SECONDS);
    }

    @Test
    void theFileReadsBackAsWritten() {
        ScenarioTimes t = new ScenarioTimes(List.of(
                new ScenarioTimes.Row("zookeeper", "3.9.5", "election-curator", "kill-leader", 24.25, 3),
                new ScenarioTimes.Row("fle", "own", "set", "mixed", 31, 1)));
        Path file = dir.resolve("sub/chaos-times.tsv");
        t.write(file, "2 suite run(s)");
        ScenarioTimes back = ScenarioTimes.read(file);
        assertThat(back.rows()).containsExactly(
                new ScenarioTimes.Row("zookeeper", "3.9.5", "election-curator", "kill-leader", 24.3, 3),
                new ScenarioTimes.Row("fle", "own", "set", "mixed", 31, 1));
        assertThat(t.format("2 suite run(s)")).startsWith("# Expected wall time").contains("# From: 2 suite run(s)\n")
                .contains("\nzookeeper\t3.9.5\telection-curator\tkill-leader\t24.3\t3\n");
    }

    @Test
    void aLineThatIsNotAScenarioTimeIsAnErrorNamingTheLine() {
        assertThatThrownBy(() -> ScenarioTimes.parse("# c\n" + ScenarioTimes.HEADER + "\nzookeeper\t3.9.5\tset\n",
                "t.tsv")).hasMessageContaining("t.tsv line 3 is not a scenario time: expected 6 tab-separated "
                + "fields");
        assertThatThrownBy(() -> ScenarioTimes.parse("zookeeper\t3.9.5\tset\tnone\tslow\t1\n", "t.tsv"))
                .hasMessageContaining("t.tsv line 1 is not a scenario time");
        assertThatThrownBy(() -> ScenarioTimes.parse("zookeeper\t3.9.5\tset\tnone\t-3\t1\n", "t.tsv"))
                .hasMessageContaining("seconds must be a non-negative number, got -3");
    }
}
