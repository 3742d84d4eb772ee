package io.zkchaos.checkers.linear;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.model.Models;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The published histories with known verdicts (../shared/data, see its README): Knossos's cas-register and
 * multi-register histories and Porcupine's kv histories. A disagreement here means the checker or a model is wrong.
 */
class SharedDataLinearizabilityTest {

    private static Path data() {
        String repo = System.getProperty("zkchaos.repo.root");
        assertThat(repo).as("system property zkchaos.repo.root (set by the parent pom's surefire config)").isNotNull();
        Path data = Path.of(repo).resolve("../shared/data").normalize();
        assertThat(data).isDirectory();
        return data;
    }

    private static Stream<Path> files(String dir) throws IOException {
        try (Stream<Path> s = Files.list(data().resolve(dir))) {
            return s.filter(p -> p.toString().endsWith(".edn")).sorted().toList().stream();
        }
    }

    static Stream<Path> casGood() throws IOException {
        return files("knossos/cas-register/good");
    }

    static Stream<Path> casBad() throws IOException {
        return files("knossos/cas-register/bad");
    }

    private static LinearizabilityChecker.Builder casRegister() {
        return LinearizabilityChecker.builder(Models.byName("cas-register", 0L)).timeLimit(Duration.ofSeconds(20));
    }

    @Test
    void theDataSetIsComplete() throws IOException {
        assertThat(casGood()).hasSize(113);
        assertThat(casBad()).hasSize(7);
    }

    @ParameterizedTest
    @MethodSource("casGood")
    void knossosGoodCasRegisterHistoriesAreLinearizable(Path file) {
        History h = HistoryFiles.read(file);
        CheckResult r = casRegister().build().check(h);
        // One "good" file (mongodb-v0-ack-rollback-.edn) holds only nemesis entries. Knossos calls that valid; here
        // every checker calls a history without a client operation unknown ("nothing to check"), never valid, and
        // never contradicts the data's verdict.
        Validity expected = h.operationCount() == 0 ? Validity.UNKNOWN : Validity.VALID;
        assertThat(r.validity()).as(file + ": " + r.summary()).isEqualTo(expected);
    }

    @Test
    void exactlyOneGoodHistoryHasNoClientOperation() throws IOException {
        assertThat(casGood().filter(f -> HistoryFiles.read(f).operationCount() == 0)
                .map(f -> f.getFileName().toString())).containsExactly("mongodb-v0-ack-rollback-.edn");
    }

    @ParameterizedTest
    @MethodSource("casBad")
    void knossosBadCasRegisterHistoriesAreNotAndSayWhy(Path file) {
        History h = HistoryFiles.read(file);
        CheckResult r = casRegister().build().check(h);
        assertThat(r.validity()).as(file + ": " + r.summary()).isEqualTo(Validity.INVALID);
        Counterexample cx = ((LinearizabilityDetails) r.details()).counterexample();
        assertThat(cx.operation().outcome()).isEqualTo("ok");
        assertThat(cx.possibleStates()).isNotEmpty();
        assertThat(cx.linearizedPrefix()).hasSizeLessThanOrEqualTo(cx.prefixLength());
        assertThat(r.summary()).contains("cannot be linearized")
                .containsIgnoringCase("process " + cx.operation().process() + "'s " + cx.operation().description());
    }

    @Test
    void theSmallestKnossosFailureIsExplainedExactly() {
        // a read of 3 while the only write of 3 failed: the register can only be 0
        CheckResult r = casRegister().build().check(HistoryFiles.read(
                data().resolve("knossos/cas-register/bad/immediate-failure.edn")));
        Counterexample cx = ((LinearizabilityDetails) r.details()).counterexample();
        assertThat(cx.operation().f()).isEqualTo("read");
        assertThat(cx.operation().value()).isEqualTo(3L);
        assertThat(cx.possibleStates()).containsExactly("0");
        assertThat(cx.prefixLength()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memstress3-12.edn", "memstress3-14.edn", "memstress3-55.edn"})
    void memstressWithAOneMillisecondLimitIsNeverAGuess(String name) {
        // Knossos cannot finish these in 1 ms and expects :unknown; this checker usually decides them in well under
        // a millisecond, so VALID is as right as UNKNOWN. What must never happen is INVALID.
        CheckResult r = LinearizabilityChecker.builder(Models.byName("cas-register", 0L))
                .timeLimit(Duration.ofMillis(1)).build()
                .check(HistoryFiles.read(data().resolve("knossos/cas-register/good").resolve(name)));
        assertThat(r.validity()).as(r.summary()).isIn(Validity.VALID, Validity.UNKNOWN);
        if (r.validity() == Validity.UNKNOWN) {
            assertThat(((LinearizabilityDetails) r.details()).unknownCause()).contains("time limit of 1 ms");
        }
    }

    @Test
    void knossosMultiRegisterHistoryIsLinearizable() {
        CheckResult r = LinearizabilityChecker.builder(Models.byName("multi-register", Map.of("x", 0L, "y", 0L)))
                .build().check(HistoryFiles.read(data().resolve("knossos/multi-register/good/multi-register.edn")));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
    }

    @Test
    void knossosMutexHistoryIsNotLinearizableAsTheDocsRecord() {
        // The data README calls this verdict unconfirmed: Knossos files the history under "bad" but its own tests only
        // render a report from it. docs/linearizability.md records what this checker finds, with a counterexample a reader
        // can follow in the file (process 0's acquire at entries 1095-1119 while the lock is held). That verdict and
        // explanation are pinned here, so a change in the search that flips it, or blames another operation, fails
        // this test and has to be argued for (and the doc changed) instead of passing unnoticed.
        CheckResult r = LinearizabilityChecker.builder(Models.byName("mutex", null)).timeLimit(Duration.ofSeconds(60))
                .build().check(HistoryFiles.read(data().resolve("knossos/mutex/bad/etcd.edn")));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("Process 0's acquire (history entries 1095-1119) cannot be linearized: in "
                + "every order of the operations before it the mutex could only be held at that point (longest "
                + "linearizable prefix: 259 operations).");
    }

    @ParameterizedTest
    @ValueSource(strings = {"c01", "c10", "c50"})
    void porcupineKvHistoriesPerKey(String clients) {
        LinearizabilityChecker checker = LinearizabilityChecker.builder(Models.byName("kv", null))
                .timeLimit(Duration.ofSeconds(20)).build();
        CheckResult ok = checker.check(HistoryFiles.read(data().resolve("porcupine-kv/" + clients + "-ok.txt")));
        assertThat(ok.validity()).as(ok.summary()).isEqualTo(Validity.VALID);
        CheckResult bad = checker.check(HistoryFiles.read(data().resolve("porcupine-kv/" + clients + "-bad.txt")));
        assertThat(bad.validity()).as(bad.summary()).isEqualTo(Validity.INVALID);
        assertThat(((LinearizabilityDetails) bad.details()).counterexample().partition()).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"c01", "c10"})
    void porcupineKvHistoriesUnpartitioned(String clients) {
        // Porcupine's own unpartitioned c10 runs take 60-90 s; this search takes a few seconds.
        LinearizabilityChecker checker = LinearizabilityChecker.builder(Models.byName("kv", null)).partitioned(false)
                .timeLimit(Duration.ofSeconds(60)).build();
        CheckResult ok = checker.check(HistoryFiles.read(data().resolve("porcupine-kv/" + clients + "-ok.txt")));
        assertThat(ok.validity()).as(ok.summary()).isEqualTo(Validity.VALID);
        CheckResult bad = checker.check(HistoryFiles.read(data().resolve("porcupine-kv/" + clients + "-bad.txt")));
        assertThat(bad.validity()).as(bad.summary()).isEqualTo(Validity.INVALID);
        assertThat(((LinearizabilityDetails) bad.details()).counterexample().partition()).isNull();
    }

    @Test
    void porcupineKv50ClientsUnpartitionedEndsWithinItsBudgetAndIsNeverWrong() {
        // Porcupine does not even run this one (its 10-client unpartitioned check already takes 60-90 s). With a
        // 2 s budget the answer may be UNKNOWN, but never the wrong verdict; the cause must say why. The time
        // bound only tells "the limit stopped the search" from "it ran on": it is generous for a loaded machine.
        LinearizabilityChecker checker = LinearizabilityChecker.builder(Models.byName("kv", null)).partitioned(false)
                .timeLimit(Duration.ofSeconds(2)).build();
        for (String file : List.of("c50-ok.txt", "c50-bad.txt")) {
            long t0 = System.nanoTime();
            CheckResult r = checker.check(HistoryFiles.read(data().resolve("porcupine-kv/" + file)));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            Validity published = file.contains("ok") ? Validity.VALID : Validity.INVALID;
            assertThat(r.validity()).as(r.summary()).isIn(published, Validity.UNKNOWN);
            if (r.validity() == Validity.UNKNOWN) {
                assertThat(((LinearizabilityDetails) r.details()).unknownCause()).contains("time limit of 2000 ms");
            }
            assertThat(ms).as("milliseconds the check of %s took with a 2 s time limit: the limit must stop the "
                    + "search promptly (with a 10 s budget it still ends unknown: see the README's figures)", file)
                    .isLessThan(30_000);
        }
    }

    @Test
    void theMemoryGuardStopsAnExpensiveSearchWithItsCause() {
        CheckResult r = LinearizabilityChecker.builder(Models.byName("kv", null)).partitioned(false)
                .maxCacheEntries(50_000).build()
                .check(HistoryFiles.read(data().resolve("porcupine-kv/c50-ok.txt")));
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(((LinearizabilityDetails) r.details()).unknownCause())
                .contains("memory guard").contains("maxCacheEntries=50000");
    }
}
