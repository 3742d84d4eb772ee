package io.zkchaos.checkers;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.History;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckersTest {

    private static Checker fixed(String name, Validity v) {
        return new Checker() {
            public String name() {
                return name;
            }

            public CheckResult check(History h) {
                return CheckResult.of(name, v, name + " says " + v, null);
            }
        };
    }

    private static final Checker THROWS = new Checker() {
        public String name() {
            return "broken";
        }

        public CheckResult check(History h) {
            throw new IllegalArgumentException("boom");
        }
    };

    @Test
    void mergesInvalidOverUnknownOverValid() {
        assertThat(Validity.VALID.merge(Validity.UNKNOWN)).isEqualTo(Validity.UNKNOWN);
        assertThat(Validity.UNKNOWN.merge(Validity.INVALID)).isEqualTo(Validity.INVALID);
        assertThat(Validity.VALID.merge(Validity.VALID)).isEqualTo(Validity.VALID);
        History empty = History.of(List.of());
        CheckResult r = Checkers.compose("all", List.of(fixed("a", Validity.VALID), fixed("b", Validity.INVALID),
                fixed("c", Validity.UNKNOWN))).check(empty);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.parts()).hasSize(3);
        assertThat(r.summary()).contains("b: b says INVALID").contains("c: c says UNKNOWN");
    }

    @Test
    void aCheckerThatThrowsYieldsUnknownWithTheError() {
        History empty = History.of(List.of());
        CheckResult r = Checkers.compose("all", List.of(fixed("a", Validity.VALID), THROWS)).check(empty);
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.parts().get(1).summary()).contains("IllegalArgumentException").contains("boom");
        assertThat(r.parts().get(1).details()).isInstanceOf(CheckResult.CheckerError.class);
    }
}
