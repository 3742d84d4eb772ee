package io.zkchaos.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.Validity;
import org.junit.jupiter.api.Test;

class VerdictsTest {

    @Test
    void wordsExitStatusesAndTheSavedFormAgree() {
        for (Validity v : Validity.values()) {
            assertThat(Verdicts.fromJson(v.toJson())).isEqualTo(v);
            assertThat(Verdicts.fromJson(Json.MAPPER.valueToTree(v.toJson()))).isEqualTo(v);
        }
        assertThat(Verdicts.exitStatus(Validity.VALID)).isEqualTo(0);
        assertThat(Verdicts.exitStatus(Validity.INVALID)).isEqualTo(1);
        assertThat(Verdicts.exitStatus(Validity.UNKNOWN)).isEqualTo(3);
        assertThat(Verdicts.Exit.ERROR).isEqualTo(2);
        assertThatThrownBy(() -> Verdicts.fromJson("maybe")).hasMessageContaining("maybe");
        assertThatThrownBy(() -> Verdicts.fromJson(Json.MAPPER.valueToTree(3))).hasMessageContaining("3");
    }

    @Test
    void aLineExplainsAnythingButValid() {
        assertThat(Verdicts.line("h.edn", Validity.VALID, "8 ops, 3 ms", "all good")).isEqualTo("h.edn: valid (8 ops, 3 ms)");
        assertThat(Verdicts.line("h.edn", Validity.INVALID, "8 ops, 3 ms", "read 3"))
                .isEqualTo("h.edn: INVALID (8 ops, 3 ms): read 3");
        assertThat(Verdicts.line("h.edn", Validity.UNKNOWN, null, "time limit")).isEqualTo("h.edn: UNKNOWN: time limit");
    }
}
