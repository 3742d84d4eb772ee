package io.zkchaos.checkers.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.bench.HistoryGenerator;
import io.zkchaos.checkers.bench.HistoryGenerator.Spec;
import io.zkchaos.checkers.bench.HistoryGenerator.Workload;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.model.Model;
import io.zkchaos.checkers.model.Models;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Property tests with fixed seeds: a simulated correct object under random concurrency and random indeterminate
 * operations is linearizable; the same history with one read made stale is not, and the explanation points at
 * that read.
 */
class GeneratedHistoriesTest {

    private static final long[] SEEDS = {1, 2, 3, 42, 1234};

    private static LinearizabilityChecker checker(Workload w, boolean partitioned) {
        Model<?> model = Models.byName(w.model(), w.init());
        return LinearizabilityChecker.builder(model).partitioned(partitioned).parallelism(2)
                .timeLimit(Duration.ofSeconds(30)).build();
    }

    @ParameterizedTest
    @EnumSource(Workload.class)
    void aCorrectObjectIsLinearizableAndOneStaleReadIsCaught(Workload w) {
        for (long seed : SEEDS) {
            // sets are read whole, so their histories are kept shorter
            int size = w == Workload.SET ? 600 : 1500;
            for (Spec spec : List.of(new Spec(w, 5, 6, size, 0.05, seed), new Spec(w, 1, 4, 300, 0.05, seed))) {
                List<Op> ops = HistoryGenerator.generate(spec);
                History valid = History.of(ops);
                assertThat(valid.operations()).anyMatch(Operation::isInfo);
                CheckResult r = checker(w, true).check(valid);
                assertThat(r.validity()).as("%s: %s", spec, r.summary()).isEqualTo(Validity.VALID);

                List<Op> mutated = HistoryGenerator.plantStaleRead(ops);
                long changed = HistoryGenerator.differingIndex(ops, mutated);
                CheckResult bad = checker(w, true).check(History.of(mutated));
                assertThat(bad.validity()).as("%s: %s", spec, bad.summary()).isEqualTo(Validity.INVALID);
                Counterexample cx = ((LinearizabilityDetails) bad.details()).counterexample();
                assertThat(cx.operation().completeIndex()).as(bad.summary()).isLessThanOrEqualTo(changed);
                assertThat(cx.possibleStates()).isNotEmpty();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Workload.class, names = {"KV", "CAS_REGISTER", "SET"})
    void partitionedAndUnpartitionedAgree(Workload w) {
        for (long seed : SEEDS) {
            Spec spec = new Spec(w, 3, 4, 400, 0.03, seed);
            List<Op> ops = HistoryGenerator.generate(spec);
            assertThat(checker(w, false).check(History.of(ops)).validity()).isEqualTo(Validity.VALID);
            assertThat(checker(w, false).check(History.of(HistoryGenerator.plantStaleRead(ops))).validity())
                    .isEqualTo(Validity.INVALID);
        }
    }

    @SuppressWarnings("unchecked")
    private static Model<Object> searchOnly(Workload w) {
        return SearchOnly.of((Model<Object>) Models.byName(w.model(), w.init()));
    }

    @ParameterizedTest
    @EnumSource(value = Workload.class, names = {"KV", "REGISTER", "CAS_REGISTER"})
    void theSearchAloneHandlesUnobservedIndeterminateOperations(Workload w) {
        for (long seed : SEEDS) {
            Spec spec = new Spec(w, 3, 5, 600, 0.05, seed);
            List<Op> ops = HistoryGenerator.generate(spec);
            LinearizabilityChecker checker = LinearizabilityChecker.builder(searchOnly(w))
                    .timeLimit(Duration.ofSeconds(30)).build();
            CheckResult r = checker.check(History.of(ops));
            assertThat(r.validity()).as("%s: %s", spec, r.summary()).isEqualTo(Validity.VALID);
            assertThat(((LinearizabilityDetails) r.details()).unobservedDropped()).isZero();
            CheckResult bad = checker.check(History.of(HistoryGenerator.plantStaleRead(ops)));
            assertThat(bad.validity()).as("%s: %s", spec, bad.summary()).isEqualTo(Validity.INVALID);
            // and the pre-pass changes nothing but the work
            CheckResult withPrePass = checker(w, true).check(History.of(ops));
            assertThat(withPrePass.validity()).isEqualTo(Validity.VALID);
            assertThat(((LinearizabilityDetails) withPrePass.details()).unobservedDropped()).isPositive();
        }
    }

    @Test
    void theGeneratorIsDeterministicAndValidatesItsSpec() {
        Spec spec = new Spec(Workload.KV, 10, 5, 500, 0.02, 7);
        assertThat(HistoryGenerator.generate(spec)).isEqualTo(HistoryGenerator.generate(spec));
        assertThat(HistoryGenerator.generate(spec))
                .isNotEqualTo(HistoryGenerator.generate(new Spec(Workload.KV, 10, 5, 500, 0.02, 8)));
        assertThat(HistoryGenerator.history(spec).operations()).hasSize(500);
        assertThatThrownBy(() -> new Spec(Workload.KV, 0, 5, 10, 0, 1)).hasMessageStartingWith("keys:");
        assertThatThrownBy(() -> new Spec(Workload.KV, 1, 5, 10, 1.5, 1)).hasMessageStartingWith("infoRate:");
    }

    @Test
    void theMemoryGuardEndsTheSearchUnknown() {
        History h = HistoryGenerator.history(new Spec(Workload.CAS_REGISTER, 1, 5, 20_000, 0.01, 5));
        CheckResult r = LinearizabilityChecker.builder(Models.byName("cas-register", 0L)).maxCacheEntries(100)
                .build().check(h);
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        LinearizabilityDetails d = (LinearizabilityDetails) r.details();
        assertThat(d.unknownCause()).contains("memory guard").contains("maxCacheEntries=100");
        assertThat(r.summary()).startsWith("No verdict: the memory guard");
    }

    @Test
    void theTimeLimitEndsTheSearchUnknown() {
        History h = HistoryGenerator.history(new Spec(Workload.KV, 50, 20, 200_000, 0.01, 9));
        CheckResult r = LinearizabilityChecker.builder(Models.byName("kv", null)).partitioned(false)
                .timeLimit(Duration.ofMillis(1)).build().check(h);
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(((LinearizabilityDetails) r.details()).unknownCause()).contains("time limit of 1 ms");
    }

    @Test
    void aCancelledSearchStops() {
        History h = HistoryGenerator.history(new Spec(Workload.REGISTER, 1, 5, 20_000, 0.0, 5));
        @SuppressWarnings("unchecked")
        Model<Object> model = (Model<Object>) Models.byName("register", 0L);
        SearchControl control = new SearchControl(0, Long.MAX_VALUE, Long.MAX_VALUE);
        control.cancel();
        PartitionSearch search = new PartitionSearch(model, h.operations(), control);
        assertThatThrownBy(search::run).isInstanceOf(SearchControl.Stop.class)
                .extracting(e -> ((SearchControl.Stop) e).reason).isEqualTo(SearchControl.Reason.CANCELLED);
    }
}
