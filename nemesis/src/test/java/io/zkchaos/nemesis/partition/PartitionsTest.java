package io.zkchaos.nemesis.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PartitionsTest {
    static final List<String> THREE = List.of("n1", "n2", "n3");
    static final List<String> FIVE = List.of("n1", "n2", "n3", "n4", "n5");

    static List<String> nodes(int n) {
        return n == 3 ? THREE : FIVE;
    }

    static boolean isMajority(int size, int n) {
        return size > n / 2;
    }

    /** Properties every partition keeps: no self-grudge, every node listed, pairs mirror the grudge. */
    static void assertWellFormed(Partition p, List<String> ns) {
        assertThat(p.nodes()).containsExactlyInAnyOrderElementsOf(ns);
        assertThat(p.grudge().keySet()).containsExactlyInAnyOrderElementsOf(ns);
        p.grudge().forEach((to, froms) -> assertThat(froms).doesNotContain(to));
        for (DirectedPair pair : p.cutPairs()) {
            assertThat(p.hears(pair.to(), pair.from())).isFalse();
        }
        long cuts = p.grudge().values().stream().mapToLong(Set::size).sum();
        assertThat(p.cutPairs()).hasSize((int) cuts);
        assertThat(p.description()).isNotBlank().doesNotContain("\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void isolateLeavesOneNodeAlone(int n) {
        List<String> ns = nodes(n);
        Partition p = Partitions.isolate(ns, "n2");
        assertWellFormed(p, ns);
        assertThat(p.heardBy("n2")).containsExactly("n2");
        for (String other : ns) {
            if (!other.equals("n2")) {
                assertThat(p.hears(other, "n2")).isFalse();
                assertThat(p.heardBy(other)).hasSize(n - 1);
            }
        }
        assertThat(p.cutPairs()).contains(new DirectedPair("n1", "n2"), new DirectedPair("n2", "n1"));
        assertThat(p.description()).isEqualTo(n == 3 ? "isolate n2 from {n1, n3}" : "isolate n2 from {n1, n3, n4, n5}");
    }

    @Test
    void isolateRandomIsSeeded() {
        Partition a = Partitions.isolateRandom(FIVE, new Random(11));
        Partition b = Partitions.isolateRandom(FIVE, new Random(11));
        assertThat(a).isEqualTo(b);
        String alone = a.groups().get(0).first();
        assertThat(a.heardBy(alone)).containsExactly(alone);
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void halvesSplitMinorityFromMajority(int n) {
        List<String> ns = nodes(n);
        for (Partition p : List.of(Partitions.halves(ns), Partitions.randomHalves(ns, new Random(5)))) {
            assertWellFormed(p, ns);
            assertThat(p.groups()).hasSize(2);
            SortedSet<String> minority = p.groups().get(0);
            SortedSet<String> majority = p.groups().get(1);
            assertThat(minority).hasSize(n / 2);
            assertThat(isMajority(majority.size(), n)).isTrue();
            for (String a : minority) {
                assertThat(p.heardBy(a)).isEqualTo(minority);
            }
            for (String b : majority) {
                assertThat(p.heardBy(b)).isEqualTo(majority);
            }
        }
        assertThat(Partitions.halves(FIVE).description()).isEqualTo("halves {n1, n2} | {n3, n4, n5}");
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void bridgeNodeSeesBothSidesWhichDoNotSeeEachOther(int n) {
        List<String> ns = nodes(n);
        Partition p = Partitions.bridge(ns, new Random(3));
        assertWellFormed(p, ns);
        SortedSet<String> left = p.groups().get(0);
        SortedSet<String> right = p.groups().get(1);
        Set<String> both = new HashSet<>(left);
        both.retainAll(right);
        assertThat(both).hasSize(1);
        String bridge = both.iterator().next();
        assertThat(p.heardBy(bridge)).containsExactlyInAnyOrderElementsOf(ns);
        for (String a : left) {
            for (String b : right) {
                if (!a.equals(bridge) && !b.equals(bridge)) {
                    assertThat(p.hears(a, b)).isFalse();
                    assertThat(p.hears(b, a)).isFalse();
                }
            }
            assertThat(p.hears(a, bridge)).isTrue();
        }
        assertThat(Partitions.bridgeInOrder(FIVE).description()).isEqualTo("bridge {n1, n2} <- n3 -> {n4, n5}");
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void majoritiesRingGivesEveryNodeADistinctMajority(int n) {
        List<String> ns = nodes(n);
        Partition p = Partitions.majoritiesRing(ns, new Random(9));
        assertWellFormed(p, ns);
        Set<Set<String>> views = new HashSet<>();
        for (String node : ns) {
            SortedSet<String> heard = p.heardBy(node);
            assertThat(isMajority(heard.size(), n)).as("%s hears %s", node, heard).isTrue();
            assertThat(heard).contains(node);
            views.add(heard);
        }
        assertThat(views).as("no two nodes hear the same set").hasSize(n);
        assertThat(p.isHealed()).isFalse();
    }

    @Test
    void sameSeedSameResultOtherSeedsDiffer() {
        Set<Partition> seen = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            assertThat(Partitions.randomHalves(FIVE, new Random(seed)))
                    .isEqualTo(Partitions.randomHalves(FIVE, new Random(seed)));
            assertThat(Partitions.bridge(FIVE, new Random(seed))).isEqualTo(Partitions.bridge(FIVE, new Random(seed)));
            Partition ring = Partitions.majoritiesRing(FIVE, new Random(seed));
            assertThat(ring).isEqualTo(Partitions.majoritiesRing(FIVE, new Random(seed)));
            seen.add(ring);
        }
        assertThat(seen).as("the seed matters").hasSizeGreaterThan(1);
    }

    @Test
    void healIsTheEmptyGrudge() {
        Partition p = Partitions.heal(FIVE);
        assertWellFormed(p, FIVE);
        assertThat(p.isHealed()).isTrue();
        assertThat(p.cutPairs()).isEmpty();
    }

    @Test
    void roundTripsThroughJackson() throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (Partition p : List.of(Partitions.majoritiesRing(THREE, new Random(1)), Partitions.halves(FIVE),
                Partitions.heal(THREE))) {
            String text = json.writeValueAsString(p);
            assertThat(json.readValue(text, Partition.class)).isEqualTo(p);
        }
        assertThat(json.writeValueAsString(Partitions.isolate(THREE, "n1")))
                .contains("\"shape\":\"isolate\"").contains("\"grudge\":{\"n1\":[\"n2\",\"n3\"]");
    }

    @Test
    void badInputIsNamed() {
        assertThatThrownBy(() -> Partitions.isolate(THREE, "n9")).hasMessageContaining("'n9'");
        assertThatThrownBy(() -> Partitions.bridgeInOrder(List.of("a", "b"))).hasMessageContaining("at least 3");
        assertThatThrownBy(() -> Partitions.halves(List.of("a", "a"))).hasMessageContaining("distinct");
        assertThatThrownBy(() -> new DirectedPair("a", "a")).hasMessageContaining("itself");
    }
}
