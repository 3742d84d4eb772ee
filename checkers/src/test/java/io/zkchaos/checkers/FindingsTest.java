package io.zkchaos.checkers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.set.SetReport;
import org.junit.jupiter.api.Test;

class FindingsTest {

    /** Implements the interface but is not one of its kinds. */
    record Unlisted(int n) implements Findings {
    }

    @Test
    void everyKindHasOneFixedName() {
        assertThat(Findings.kinds()).containsKeys("linearizability", "single-leader", "set", "read-model",
                "fenced-writes", "log-prefix", "final-state", "watches", "session-guarantees", "sequential-znodes",
                "multi-txn", "recovery", "churn-ephemerals", "evidence", "servers", "checker-error", "untyped");
        assertThat(Findings.kinds().values()).doesNotHaveDuplicates();
        assertThat(Findings.kindOf(SetReport.class)).isEqualTo("set");
    }

    @Test
    void aResultRefusesDetailsOfAKindThatCouldNotBeReadBack() {
        assertThatThrownBy(() -> CheckResult.of("mine", Validity.VALID, "fine", new Unlisted(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unlisted").hasMessageContaining("@JsonSubTypes");
    }
}
