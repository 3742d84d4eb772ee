package io.zkchaos.checkers;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.History;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NamedCheckersTest {

    @Test
    void buildsEveryCheckerByItsName() {
        for (String name : NamedCheckers.names()) {
            assertThat(NamedCheckers.byName(name, Map.of()).name()).isEqualTo(name);
        }
        assertThat(NamedCheckers.names()).containsExactly("single-leader", "no-lost-commit", "fenced-writes",
                "zk-read-model", "log-prefix");
    }

    @Test
    void optionsReachTheChecker() {
        History overlap = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 0)
                .ok(1, map("token", 1L, "node", "n1"), 10)
                .ok(2, map("token", 2L, "node", "n2"), 20)
                .invoke(1, "release", map("token", 1L, "reason", "session-expired"), 1020).ok(1, null, 1021)
                .build();
        assertThat(NamedCheckers.byName("single-leader", Map.of()).check(overlap).validity())
                .isEqualTo(Validity.VALID);
        assertThat(NamedCheckers.byName("single-leader", Map.of("max-overlap", "900ms")).check(overlap).validity())
                .isEqualTo(Validity.INVALID);
        assertThat(NamedCheckers.byName("single-leader", Map.of("max-overlap", "PT2S")).check(overlap).validity())
                .isEqualTo(Validity.VALID);

        History stale = new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 1)
                .invoke(2, "read", "x", null, 2).ok(2, 0L, 3)
                .build();
        assertThat(NamedCheckers.byName("zk-read-model", Map.of("init", "0")).check(stale).validity())
                .isEqualTo(Validity.VALID);
        CheckResult strict = NamedCheckers.byName("zk-read-model", Map.of("init", "0", "strict", "true",
                "time-limit", "5s")).check(stale);
        assertThat(strict.validity()).as(strict.summary()).isEqualTo(Validity.INVALID);
    }

    @Test
    void badNamesAndOptionsAreNamedInTheError() {
        assertThatThrownBy(() -> NamedCheckers.byName("single-leeder", Map.of()))
                .hasMessage("unknown checker 'single-leeder'; known checkers: single-leader, no-lost-commit, "
                        + "fenced-writes, zk-read-model, log-prefix");
        assertThatThrownBy(() -> NamedCheckers.byName("single-leader", Map.of("max-overlapp", "1s")))
                .hasMessage("unknown option 'max-overlapp' for checker single-leader; known options: "
                        + "failover-bound, max-overlap");
        assertThatThrownBy(() -> NamedCheckers.byName("log-prefix", Map.of("strict", "true")))
                .hasMessage("unknown option 'strict' for checker log-prefix; it takes no options");
        assertThatThrownBy(() -> NamedCheckers.byName("single-leader", Map.of("failover-bound", "ten seconds")))
                .hasMessage("single-leader option failover-bound: 'ten seconds' is not a duration "
                        + "(use e.g. 500ms, 5s, 2m, 1h or PT5S)");
        assertThatThrownBy(() -> NamedCheckers.byName("zk-read-model", Map.of("strict", "yes")))
                .hasMessage("zk-read-model option strict: 'yes' is not true or false");
        assertThat(NamedCheckers.duration("c", "o", "250ms")).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void aHistoryWithoutTheCheckersOperationsIsUnknownNotValid() {
        History unrelated = new HistoryBuilder().okOp(1, "put", 1L, null, 0).build();
        for (String name : NamedCheckers.names()) {
            CheckResult r = NamedCheckers.byName(name, Map.of()).check(unrelated);
            assertThat(r.validity()).as(name).isEqualTo(Validity.UNKNOWN);
        }
    }

    @Test
    void composesWithCheckers() {
        Checker all = Checkers.compose("all", List.of(NamedCheckers.byName("no-lost-commit", Map.of()),
                NamedCheckers.byName("fenced-writes", Map.of())));
        CheckResult r = all.check(new HistoryBuilder()
                .invoke(1, "add", 1L, 0).ok(1, null, 1)
                .okOp(2, "read", null, List.of(), 2)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).startsWith("no-lost-commit: 1 acknowledged add(s) lost: 1 (added by process 1");
    }
}
