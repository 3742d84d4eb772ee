package io.zkchaos.checkers;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Histories recorded by real runs ({@code ./zkchaos run ... --seed 99}, ZooKeeper 3.9.5, 3 nodes) kept as
 * regression fixtures: each passes its checker as recorded, and fails once a violation is planted in it.
 */
class RealRunFixturesTest {

    private static History fixture(String name) throws URISyntaxException {
        return HistoryFiles.read(Path.of(RealRunFixturesTest.class.getResource("/fixtures/" + name).toURI()));
    }

    private static CheckResult check(String checker, History h) {
        return Checkers.runSafely(CheckerCatalog.create(checker, CheckerOptions.defaults()), h);
    }

    /** The same history with the first op matching {@code which} replaced. */
    private static History plant(History h, java.util.function.Predicate<Op> which, UnaryOperator<Op> change) {
        List<Op> ops = new ArrayList<>(h.ops());
        for (int i = 0; i < ops.size(); i++) {
            if (which.test(ops.get(i))) {
                ops.set(i, change.apply(ops.get(i)));
                return History.of(ops);
            }
        }
        throw new AssertionError("no op to plant a violation in");
    }

    private static Op withValue(Op o, Object value) {
        return new Op(o.index(), o.process(), o.type(), o.f(), o.key(), value, o.error(), o.time());
    }

    @Test
    void aSetRunUnderLeaderKillsLosesNothingUntilAValueIsDroppedFromOneServer() throws Exception {
        History h = fixture("set-kill-leader.jsonl");
        assertThat(h.nemesisOps()).extracting(Op::f).contains("kill-leader", "heal");
        assertThat(check("no-lost-commit", h).validity()).isEqualTo(Validity.VALID);

        History lost = plant(h, o -> o.type() == OpType.OK && o.f().equals("read")
                && String.valueOf(o.value()).contains("node=n2"), o -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> read = new LinkedHashMap<>((Map<String, Object>) o.value());
                    List<Object> values = new ArrayList<>((List<?>) read.get("values"));
                    values.remove(Long.valueOf(41));
                    read.put("values", values);
                    return withValue(o, read);
                });
        CheckResult r = check("no-lost-commit", lost);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("41").contains("n2");
    }

    @Test
    void aRegisterRunUnderLeaderIsolationKeepsZooKeepersPromisesUntilAReadSeesAValueNeverWritten()
            throws Exception {
        History h = fixture("register-isolate-leader.jsonl");
        assertThat(h.nemesisOps()).extracting(Op::f).contains("isolate-leader");
        CheckResult ok = check("zk-read-model", h);
        assertThat(ok.validity()).as(ok.summary()).isEqualTo(Validity.VALID);

        History bad = plant(h, o -> o.type() == OpType.OK && o.f().equals("read") && o.value() != null,
                o -> withValue(o, 987_654_321L));
        CheckResult r = check("zk-read-model", bad);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("987654321");
    }

    @Test
    void anElectionRunUnderHalvesHasOneLeaderPerTokenUntilATokenIsHandedOutTwice() throws Exception {
        History h = fixture("election-curator-halves.jsonl");
        CheckResult ok = check("single-leader", h);
        assertThat(ok.validity()).as(ok.summary()).isEqualTo(Validity.VALID);

        History twice = plant(h, o -> o.type() == OpType.OK && o.f().equals("acquire")
                && String.valueOf(o.value()).contains("token=1,"), o -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> lead = new LinkedHashMap<>((Map<String, Object>) o.value());
                    lead.put("token", 0L);
                    return withValue(o, lead);
                });
        CheckResult r = check("single-leader", twice);
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).containsIgnoringCase("token 0");
    }
}
