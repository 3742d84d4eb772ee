package io.zkchaos.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.evidence.Requirement;
import io.zkchaos.checkers.recovery.RecoveryChecker;
import io.zkchaos.workloads.fle.FleWorkloads;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, "acknowledged writes are writes": every built-in workload declares the functions that change state, and
 * "acknowledged after the final heal" asks one of them, never a read (the register asked any operation, the sessions
 * a create or read, multi a transaction or read).
 */
class WorkloadWritesTest {

    /** Functions that change nothing (reads, watches set, events): never a write. */
    private static final Set<String> NEVER_WRITES = Set.of("read", "sync-read", "read-log", "read-tree", "get-data",
            "exists", "get-children", "add-watch", "sync", "event", "session", "open", "release", "resolve");

    private static List<WorkloadDescriptor> builtIn() {
        List<WorkloadDescriptor> all = new ArrayList<>(Workloads.all());
        all.addAll(FleWorkloads.all());
        return all;
    }

    @Test
    void everyBuiltInWorkloadDeclaresItsWritesAndNoReadAmongThem() {
        for (WorkloadDescriptor d : builtIn()) {
            assertThat(d.writes()).as(d.name()).isNotEmpty().doesNotContainAnyElementsOf(NEVER_WRITES);
        }
        assertThat(Workloads.require("register").writes()).containsExactlyInAnyOrder("write", "cas");
        assertThat(Workloads.require("fenced-writes").writes()).containsExactlyInAnyOrder("acquire", "fenced-write");
        assertThat(Workloads.require("sessions").writes()).containsExactlyInAnyOrder("create", "close", "expire");
        assertThat(FleWorkloads.byName("set").orElseThrow().writes()).containsExactly("add");
    }

    @Test
    void acknowledgedAfterTheHealAsksForAWriteOfTheWorkload() {
        int asked = 0;
        for (WorkloadDescriptor d : builtIn()) {
            for (Requirement r : d.minimum().requirements()) {
                if (r instanceof Requirement.Acknowledged a && a.id().equals(Workloads.ACKED_AFTER_HEAL)) {
                    asked++;
                    assertThat(a.functions()).as(d.name() + "'s " + a.id()).isNotEmpty().isSubsetOf(d.writes());
                }
            }
        }
        assertThat(asked).as("workloads held to a write after the heal").isEqualTo(7); // register, set, sessions,
        // sequential, multi, and the fle register and set
    }

    /** The recovery checker's default for a history alone is the built-in workloads' writes (and the set's append). */
    @Test
    void theRecoveryCheckersDefaultIsTheBuiltInWrites() {
        Set<String> union = new HashSet<>(Set.of("append")); // the set convention's other name for add
        builtIn().forEach(d -> union.addAll(d.writes()));
        assertThat(RecoveryChecker.KNOWN_WRITES).isEqualTo(union);
    }

    /** Re-wrapping a descriptor's evidence keeps its writes. */
    @Test
    void withEvidenceKeepsTheWrites() {
        WorkloadDescriptor set = Workloads.require("set");
        assertThat(set.withEvidence(set.minimum(), set.underFault()).writes()).containsExactly("add");
    }
}
