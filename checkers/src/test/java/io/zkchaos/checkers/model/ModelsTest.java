package io.zkchaos.checkers.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.history.Operation.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelsTest {

    private static Operation ok(String f, Object in, Object out) {
        return new Operation(0, 1, f, null, in, out, Outcome.OK, null, 0, 1, -1, -1);
    }

    private static Operation okKey(String f, String key, Object in, Object out) {
        return new Operation(0, 1, f, key, in, out, Outcome.OK, null, 0, 1, -1, -1);
    }

    private static Operation info(String f, Object in) {
        return new Operation(0, 1, f, null, in, null, Outcome.INFO, "timeout", 0, 1, -1, -1);
    }

    private static List<Object> mop(String f, String k, Object v) {
        return java.util.Arrays.asList(f, k, v);
    }

    @SuppressWarnings("unchecked")
    private static <S> Model<S> model(String name, Object init) {
        return (Model<S>) Models.byName(name, init);
    }

    @Test
    void registerReadsTheLastWriteAndANilReadConstrainsNothing() {
        Model<Object> m = model("register", 0L);
        Object s0 = m.init();
        assertThat(m.describeState(s0)).isEqualTo("0");
        assertThat(m.step(s0, ok("read", null, 0L))).isEqualTo(s0);
        assertThat(m.step(s0, ok("read", null, 1L))).isNull();
        Object s1 = m.step(s0, ok("write", 1, 1));      // an Integer is the same value as a Long
        assertThat(s1).isEqualTo(1L);
        assertThat(m.step(s1, ok("read", null, 1L))).isEqualTo(s1);
        assertThat(m.step(s1, ok("read", null, null))).isEqualTo(s1);
        assertThat(m.step(s1, info("write", 2L))).isEqualTo(2L);
        assertThat(m.isReadOnly(info("read", null))).isTrue();
        assertThat(m.isReadOnly(info("write", 3L))).isFalse();
        Model<Object> nil = model("register", null);
        assertThat(nil.describeState(nil.init())).isEqualTo("nil");
        assertThat(nil.step(nil.init(), ok("read", null, "a"))).isNull();
    }

    @Test
    void casRegisterSwapsOnlyFromTheExpectedValue() {
        Model<Object> m = model("cas-register", 0L);
        Object s0 = m.init();
        assertThat(m.step(s0, ok("cas", List.of(0L, 3L), List.of(0L, 3L)))).isEqualTo(3L);
        assertThat(m.step(s0, ok("cas", List.of(1L, 3L), List.of(1L, 3L)))).isNull();
        assertThat(m.step(s0, info("cas", List.of(0L, 4L)))).isEqualTo(4L);
        assertThat(m.step(s0, info("cas", List.of(2L, 4L)))).isNull();
        assertThat(m.step(s0, ok("write", 7L, 7L))).isEqualTo(7L);
        assertThat(m.step(7L, ok("read", null, 7L))).isEqualTo(7L);
        assertThatThrownBy(() -> m.step(s0, ok("cas", 5L, 5L))).hasMessageContaining("[expected new]");
    }

    @Test
    void kvGetsPutsAndAppendsPerKeyFromEmptyStrings() {
        Model<KvModel.State> m = model("kv", "ignored");
        KvModel.State s0 = m.init();
        assertThat(m.step(s0, okKey("get", "a", null, ""))).isEqualTo(s0);
        assertThat(m.step(s0, okKey("get", "a", null, "x"))).isNull();
        KvModel.State s1 = m.step(s0, okKey("put", "a", "x", null));
        KvModel.State s2 = m.step(s1, okKey("append", "a", "y", null));
        assertThat(s2.get("a")).isEqualTo("xy");
        assertThat(s2.get("b")).isEmpty();
        assertThat(m.step(s2, okKey("get", "a", null, "xy"))).isEqualTo(s2);
        KvModel.State s3 = m.step(s2, okKey("append", "b", "z", null));
        assertThat(s3.get("a")).isEqualTo("xy");
        assertThat(s3.get("b")).isEqualTo("z");
        assertThat(m.describeState(s3)).isEqualTo("{\"a\" \"xy\", \"b\" \"z\"}");
        // putting "" is the same state as never writing the key
        assertThat(m.step(s1, okKey("put", "a", "", null))).isEqualTo(s0).hasSameHashCodeAs(s0);
        assertThat(m.partition(List.of(okKey("get", "a", null, ""), okKey("get", "b", null, ""),
                okKey("put", "a", "v", null)))).hasSize(2);
    }

    @Test
    void multiRegisterAppliesMicroOpsInOrder() {
        Model<Map<String, Object>> m = model("multi-register", Map.of("x", 0L, "y", 0L));
        Map<String, Object> s0 = m.init();
        Operation readBoth = new Operation(0, 1, "txn", null, List.of(mop("read", "x", null),
                mop("read", "y", null)), List.of(mop("read", "x", 0L), mop("read", "y", 0L)),
                Outcome.OK, null, 0, 1, -1, -1);
        assertThat(m.step(s0, readBoth)).isEqualTo(s0);
        Map<String, Object> s1 = m.step(s0, ok("txn", List.of(mop("write", "y", 2L)),
                List.of(mop("write", "y", 2L))));
        assertThat(s1).containsEntry("y", 2L).containsEntry("x", 0L);
        assertThat(m.step(s1, readBoth)).isNull();
        // a write then a read inside one txn sees the write
        assertThat(m.step(s0, ok("txn", null, List.of(mop("write", "x", 5L), mop("read", "x", 5L)))))
                .containsEntry("x", 5L);
        // nil reads (as invoked, or in an indeterminate txn) constrain nothing
        assertThat(m.step(s1, info("txn", List.of(mop("read", "x", null), mop("write", "x", 1L)))))
                .containsEntry("x", 1L);
        assertThat(m.isReadOnly(info("txn", List.of(mop("read", "x", null))))).isTrue();
        assertThat(m.isReadOnly(info("txn", List.of(mop("write", "x", 1L))))).isFalse();
        assertThat(m.describeState(s1)).isEqualTo("{x 0, y 2}");
        assertThatThrownBy(() -> Models.byName("multi-register", 3L)).hasMessageContaining("map");
    }

    @Test
    void mutexAlternatesAcquireAndRelease() {
        Model<Boolean> m = model("mutex", null);
        Boolean free = m.init();
        Boolean held = m.step(free, ok("acquire", null, null));
        assertThat(held).isTrue();
        assertThat(m.step(held, ok("acquire", null, null))).isNull();
        assertThat(m.step(held, ok("release", null, null))).isFalse();
        assertThat(m.step(free, ok("release", null, null))).isNull();
        assertThat(m.describeState(held)).isEqualTo("held");
    }

    @Test
    void setReadsReturnTheWholeSet() {
        Model<SetModel.State> m = model("set", null);
        SetModel.State s1 = m.step(m.init(), ok("add", 1, 1));
        SetModel.State s2 = m.step(s1, ok("add", 2L, 2L));
        assertThat(s2.elements()).containsExactlyInAnyOrder(1L, 2L);
        assertThat(s2).isEqualTo(m.step(m.step(m.init(), ok("add", 2L, 2L)), ok("add", 1L, 1L)))
                .hasSameHashCodeAs(m.step(m.step(m.init(), ok("add", 2L, 2L)), ok("add", 1L, 1L)));
        assertThat(m.step(s2, ok("read", null, List.of(1L, 1L)))).isNull();
        assertThat(m.step(s2, ok("read", null, List.of(2L, 1L)))).isEqualTo(s2);
        assertThat(m.step(s2, ok("read", null, List.of(1L)))).isNull();
        assertThat(m.step(s2, ok("read", null, List.of(1L, 2L, 3L)))).isNull();
        assertThat(m.step(s2, ok("add", 2L, 2L))).isSameAs(s2);
        assertThat(m.describeState(s2)).isEqualTo("#{1 2}");
        assertThat(m.isReadOnly(info("read", null))).isTrue();
    }

    @Test
    void byNameKnowsEveryNameAndListsThemForAnUnknownOne() {
        assertThat(Models.names()).containsExactly("register", "cas-register", "kv", "multi-register", "mutex",
                "set");
        for (String name : Models.names()) {
            assertThat(Models.byName(name, null).name()).isEqualTo(name);
        }
        assertThatThrownBy(() -> Models.byName("queue", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown model 'queue'")
                .hasMessageContaining("cas-register");
    }

    @Test
    void unknownFunctionsAreNamed() {
        assertThatThrownBy(() -> model("mutex", null).step(false, ok("lock", null, null)))
                .hasMessageContaining("mutex model: unknown function 'lock'");
        assertThatThrownBy(() -> model("kv", null).step(KvModel.State.EMPTY, ok("cas", null, null)))
                .hasMessageContaining("kv model: unknown function 'cas'");
    }
}
