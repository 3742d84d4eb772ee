package io.zkchaos.checkers.evidence;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.HistoryBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: {@code acked-under-fault} counts only acknowledgements made while one of its (serving) faults was in
 * force, with a function subset as without one. Before, the subset branch counted an add acknowledged while only a
 * fault that takes service away (here {@code kill-majority}, NO_SERVICE, not in the requirement's faults) was in
 * force, and a run whose serving fault got nothing through met the requirement.
 */
class RequirementAckedUnderFaultTest {

    private static Map<String, Object> did(String fault, String... nodes) {
        return map("fault", fault, "description", fault, "nodes", List.of(nodes), "groups", List.of(),
                "grudge", Map.of());
    }

    private static final Map<String, Object> HEALED = map("fault", "heal", "description", "healed", "nodes",
            List.of(), "groups", List.of(), "grudge", Map.of());

    /**
     * An isolate-leader window in which no add got through (one failed), then a kill-majority window in which one
     * was acknowledged (a lagging acknowledgement, say), then the final heal.
     */
    private static Exercised run() {
        return Exercised.of(new HistoryBuilder()
                .okOp(0, "add", 1L, null, 1)
                .nemesis("isolate-leader", did("isolate-leader", "n1"), 2, 3)
                .invoke(1, "add", 2L, 4).fail(1, 5)
                .heal("isolate-leader", HEALED, 6, 7)
                .nemesis("kill-majority", did("kill-majority", "n1", "n2"), 8, 9)
                .invoke(2, "add", 3L, 10).ok(2, null, 11)
                .heal("kill-majority", HEALED, 12, 13)
                .heal("all", HEALED, 14, 15)
                .build());
    }

    private static final Set<String> SERVING = Set.of("isolate-leader");

    @Test
    void anAddAcknowledgedOnlyUnderANoServiceFaultDoesNotMeetTheSubset() {
        Optional<String> unmet = new Requirement.AcknowledgedUnderFault("acked-under-fault", Set.of("add"), SERVING)
                .unmet(run());
        assertThat(unmet).hasValue("no add was acknowledged while a fault was in force (isolate-leader applied 1x)");
    }

    @Test
    void norDoesAnyOperationWithoutASubset() {
        assertThat(new Requirement.AcknowledgedUnderFault("acked-under-fault", Set.of(), SERVING).unmet(run()))
                .isPresent();
    }

    @Test
    void anAddAcknowledgedUnderTheServingFaultMeetsIt() {
        Exercised served = Exercised.of(new HistoryBuilder()
                .nemesis("isolate-leader", did("isolate-leader", "n1"), 2, 3)
                .invoke(1, "add", 2L, 4).ok(1, null, 5)
                .heal("isolate-leader", HEALED, 6, 7)
                .heal("all", HEALED, 14, 15)
                .build());
        assertThat(new Requirement.AcknowledgedUnderFault("acked-under-fault", Set.of("add"), SERVING)
                .unmet(served)).isEmpty();
    }

    /** The reader keeps each function's counts by the fault in force, so that requirements can pick their faults. */
    @Test
    void exerciseReaderCountsEachFunctionByFault() {
        FunctionTally add = run().function("add").orElseThrow();
        assertThat(add.underFault()).isEqualTo(new OpCounts(1, 1, 0));
        assertThat(add.underFault("isolate-leader")).isEqualTo(new OpCounts(0, 1, 0));
        assertThat(add.underFault("kill-majority")).isEqualTo(new OpCounts(1, 0, 0));
        assertThat(add.underFault("pause-leader")).isEqualTo(OpCounts.NONE);
    }
}
