package io.zkchaos.harness.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ledgers of several suite runs become the README's tables: wall times, phases, pass counts per scenario. */
class SuiteTableTest {

    @TempDir
    Path store;

    private static SuiteLedger.Entry entry(String suite, String workload, String nemesis, String verdict,
                                           long startMs, long endMs) {
        return new SuiteLedger.Entry(suite, "zookeeper 3.9.5: " + workload + " under " + nemesis, "zookeeper",
                "3.9.5", workload, nemesis, verdict, startMs, endMs, phases(),
                "/runs/x", "summary");
    }

    /** In a scrambled order: the table puts them in the order a run goes through them. */
    private static Map<String, Long> phases() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("clients", 22000L);
        m.put("start", 3000L);
        return m;
    }

    @Test
    void countsVerdictsPerScenarioOverSuiteRunsAndTimesEachSuite() {
        SuiteLedger.append(SuiteLedger.file(store, "s1"), entry("s1", "set", "kill-leader", "valid", 0, 25_000));
        SuiteLedger.append(SuiteLedger.file(store, "s1"), entry("s1", "register", "none", "valid", 0, 26_000));
        SuiteLedger.append(SuiteLedger.file(store, "s1"), entry("s1", "register", "kill-leader", "valid", 26_000,
                60_000));
        SuiteLedger.append(SuiteLedger.file(store, "s2"), entry("s2", "register", "none", "valid", 0, 30_000));
        SuiteLedger.append(SuiteLedger.file(store, "s2"), entry("s2", "register", "kill-leader", "unknown", 0,
                28_000));

        StringWriter text = new StringWriter();
        SuiteTable.print(new PrintWriter(text), List.of(store));
        String out = text.toString();

        assertThat(out).contains("mean phases (s): start, clients |");
        assertThat(out).contains("| s1 | 3 | 3 | 0 | 0 | 0 | 1.0 min | 28.3 s | 3.0, 22.0 |");
        assertThat(out).contains("| s2 | 2 | 1 | 0 | 1 | 0 | 0.5 min |");
        // workloads and nemeses in the registries' order, not as they happened to end
        assertThat(out).contains("| workload | none | kill-leader |");
        assertThat(out).contains("| register | 2/2 | 1/2 (1 unknown) |");
        assertThat(out).contains("| set |  | 1/1 |");
        assertThat(out.indexOf("| register |")).isLessThan(out.indexOf("| set |"));
    }

    @Test
    void aPathWithoutLedgersIsNamed() throws Exception {
        Path empty = Files.createDirectories(store.resolve("nothing-here/sub"));
        assertThatThrownBy(() -> SuiteLedger.read(List.of(store.resolve("missing"))))
                .hasMessageContaining("missing").hasMessageContaining("neither a suite ledger");
        Files.writeString(empty.resolve("bad.jsonl"), "{\"suite\": 3\n");
        assertThatThrownBy(() -> SuiteLedger.read(List.of(empty))).hasMessageContaining("bad.jsonl line 1");
    }
}
