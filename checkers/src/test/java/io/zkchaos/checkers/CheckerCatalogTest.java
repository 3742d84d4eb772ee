package io.zkchaos.checkers;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.History;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckerCatalogTest {

    private static final CheckerOptions DEFAULTS = CheckerOptions.defaults();

    @Test
    void buildsEveryCheckerByItsName() {
        CheckerCatalog catalog = CheckerCatalog.standard();
        assertThat(catalog.names()).containsExactly("linearizable", "single-leader", "no-lost-commit",
                "fenced-writes", "zk-read-model", "log-prefix", "final-state", "watches", "session-guarantees",
                "sequential-znodes", "multi-txn", "recovery", "churn-ephemerals");
        for (CheckerDescriptor d : catalog.all()) {
            CheckerOptions o = d.name().equals("linearizable") ? DEFAULTS.withModel("register", 0L) : DEFAULTS;
            assertThat(d.create(o).name()).as(d.name()).isEqualTo(d.name());
        }
    }

    @Test
    void optionsReachTheChecker() {
        History overlap = new HistoryBuilder()
                .invoke(1, "acquire", null, 0).invoke(2, "acquire", null, 0)
                .ok(1, map("token", 1L, "node", "n1"), 10)
                .ok(2, map("token", 2L, "node", "n2"), 20)
                .invoke(1, "release", map("token", 1L, "reason", "session-expired"), 1020).ok(1, null, 1021)
                .build();
        assertThat(CheckerCatalog.create("single-leader", DEFAULTS).check(overlap).validity())
                .isEqualTo(Validity.VALID);
        assertThat(CheckerCatalog.create("single-leader", DEFAULTS.withMaxOverlap(Duration.ofMillis(900)))
                .check(overlap).validity()).isEqualTo(Validity.INVALID);
        assertThat(CheckerCatalog.create("single-leader", DEFAULTS.withMaxOverlap(Duration.ofSeconds(2)))
                .check(overlap).validity()).isEqualTo(Validity.VALID);

        History stale = new HistoryBuilder()
                .invoke(1, "write", "x", 1L, 0).ok(1, null, 1)
                .invoke(2, "read", "x", null, 2).ok(2, 0L, 3)
                .build();
        CheckerOptions init0 = DEFAULTS.withModel(null, 0L);
        assertThat(CheckerCatalog.create("zk-read-model", init0).check(stale).validity())
                .isEqualTo(Validity.VALID);
        CheckResult strict = CheckerCatalog.create("zk-read-model",
                init0.withStrict(true).withTimeLimit(Duration.ofSeconds(5))).check(stale);
        assertThat(strict.validity()).as(strict.summary()).isEqualTo(Validity.INVALID);
    }

    @Test
    void descriptorsNameTheOptionsTheyRead() {
        CheckerCatalog c = CheckerCatalog.standard();
        assertThat(c.require("single-leader").options())
                .containsExactlyInAnyOrder(CheckerOption.MAX_OVERLAP, CheckerOption.FAILOVER_BOUND);
        assertThat(c.require("log-prefix").options()).isEmpty();
        assertThat(c.require("zk-read-model").options())
                .containsExactlyInAnyOrder(CheckerOption.INIT, CheckerOption.TIME_LIMIT, CheckerOption.STRICT);
    }

    @Test
    void badNamesAndSettingsAreNamedInTheError() {
        assertThatThrownBy(() -> CheckerCatalog.create("single-leeder", DEFAULTS))
                .hasMessage("unknown checker 'single-leeder'; known checkers: linearizable, single-leader, "
                        + "no-lost-commit, fenced-writes, zk-read-model, log-prefix, final-state, watches, "
                        + "session-guarantees, sequential-znodes, multi-txn, recovery, churn-ephemerals");
        assertThatThrownBy(() -> CheckerCatalog.create("linearizable", DEFAULTS))
                .hasMessageStartingWith("the linearizable checker needs --model; known models: ");
        assertThatThrownBy(() -> DEFAULTS.withFailoverBound(Duration.ZERO))
                .hasMessage("failover-bound must be positive, got PT0S");
        assertThatThrownBy(() -> DEFAULTS.withTimeLimit(Duration.ofSeconds(-1)))
                .hasMessage("time-limit must be positive, got PT-1S");
    }

    @Test
    void aHistoryWithoutTheCheckersOperationsIsUnknownNotValid() {
        History unrelated = new HistoryBuilder().okOp(1, "put", 1L, null, 0).build();
        for (CheckerDescriptor d : CheckerCatalog.standard().all()) {
            if (d.name().equals("linearizable")) {
                continue; // a model judges any operation it knows; see LinearizabilityCheckerTest
            }
            CheckResult r = d.create(DEFAULTS).check(unrelated);
            assertThat(r.validity()).as(d.name()).isEqualTo(Validity.UNKNOWN);
        }
    }

    @Test
    void aUsersCheckerJoinsTheCatalog() {
        Checker mine = new Checker() {
            @Override
            public String name() {
                return "mine";
            }

            @Override
            public CheckResult check(History history) {
                return CheckResult.of("mine", Validity.VALID, "fine", null);
            }
        };
        CheckerCatalog c = CheckerCatalog.standard().with(new CheckerDescriptor("mine", "mine",
                java.util.EnumSet.noneOf(CheckerOption.class), o -> mine));
        assertThat(c.names()).endsWith("mine");
        assertThat(CheckerCatalog.standard().names()).doesNotContain("mine");
        assertThat(c.require("mine").create(DEFAULTS)).isSameAs(mine);
    }

    @Test
    void composesWithCheckers() {
        Checker all = Checkers.compose("all", List.of(CheckerCatalog.create("no-lost-commit", DEFAULTS),
                CheckerCatalog.create("fenced-writes", DEFAULTS)));
        CheckResult r = all.check(new HistoryBuilder()
                .invoke(1, "add", 1L, 0).ok(1, null, 1)
                .okOp(2, "read", null, List.of(), 2)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).startsWith("no-lost-commit: 1 acknowledged add(s) lost: 1 (added by process 1");
    }
}
