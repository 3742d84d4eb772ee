package io.zkchaos.harness.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ShardsTest {

    /** A scenario as the greedy sees it: a name and an expected time. */
    record Item(String name, double seconds) {
    }

    private static List<List<Item>> assign(List<Item> items, int n) {
        return Shards.assign(items, Item::name, Item::seconds, n);
    }

    private static double load(List<Item> share) {
        return share.stream().mapToDouble(Item::seconds).sum();
    }

    /** {@code count} items of 20-60 s with a few long ones, as a suite's (restarts, client JVMs, lazy file system). */
    private static List<Item> suiteLike(long seed, int count) {
        Random r = new Random(seed);
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double s = 20 + r.nextInt(400) / 10.0 + (r.nextInt(10) == 0 ? 60 : 0);
            items.add(new Item("scenario-" + i, s));
        }
        return items;
    }

    @Test
    void everyScenarioIsInExactlyOneShare() {
        for (long seed = 1; seed <= 20; seed++) {
            List<Item> items = suiteLike(seed, 5 + (int) seed * 7);
            for (int n = 1; n <= 6; n++) {
                List<List<Item>> shares = assign(items, n);
                assertThat(shares).hasSize(n);
                List<Item> all = shares.stream().flatMap(List::stream).toList();
                assertThat(all).as("seed %d, %d shares", seed, n).containsExactlyInAnyOrderElementsOf(items);
                assertThat(new HashSet<>(all)).hasSameSizeAs(items);
            }
        }
    }

    @Test
    void theSameInputsGiveTheSameSharesWhateverOrderTheyCameIn() {
        List<Item> items = suiteLike(7, 98);
        List<List<Item>> first = assign(items, 4);
        assertThat(assign(List.copyOf(items), 4)).isEqualTo(first);
        List<Item> shuffled = new ArrayList<>(items);
        Collections.shuffle(shuffled, new Random(3));
        List<List<Item>> again = assign(shuffled, 4);
        for (int k = 0; k < 4; k++) {
            assertThat(again.get(k)).containsExactlyInAnyOrderElementsOf(first.get(k));
        }
        // each share keeps the order it was given: a sharded suite runs its scenarios in the matrix's order
        assertThat(first.get(0)).isSortedAccordingTo(java.util.Comparator.comparingInt(items::indexOf));
    }

    @Test
    void noShareExpectsMoreThanTheMeanPlusTheLongestScenario() {
        for (long seed = 1; seed <= 30; seed++) {
            List<Item> items = suiteLike(seed, 10 + (int) seed * 5);
            double longest = items.stream().mapToDouble(Item::seconds).max().orElseThrow();
            for (int n = 2; n <= 8; n++) {
                List<List<Item>> shares = assign(items, n);
                double mean = shares.stream().mapToDouble(ShardsTest::load).sum() / n;
                assertThat(shares).as("seed %d, %d shares", seed, n)
                        .allSatisfy(s -> assertThat(load(s)).isLessThanOrEqualTo(mean + longest + 1e-9));
            }
        }
    }

    @Test
    void aRealisticSuiteSplitsIntoFourSharesWithinFivePercentOfTheMean() {
        // The chaos suite's 98 scenarios of docs/chaos-suite.md with the times the checked-in file expects.
        ChaosSuite suite = ChaosSuiteTest.networkAndProcessMatrix(Shard.all("test"));
        ScenarioTimes times = suite.times();
        List<Item> items = suite.scenarios().stream().map(s -> new Item(s.toString(),
                times.seconds(s.system(), s.version(), s.workload(), s.nemesis()))).toList();
        assertThat(items).hasSize(98);
        List<List<Item>> shares = assign(items, 4);
        double mean = items.stream().mapToDouble(Item::seconds).sum() / 4;
        assertThat(shares).allSatisfy(s -> assertThat(load(s)).isCloseTo(mean,
                org.assertj.core.data.Percentage.withPercentage(5)));
    }

    @Test
    void equalEstimatesAreDealtInNameOrder() {
        List<Item> items = List.of(new Item("d", 10), new Item("b", 10), new Item("a", 10), new Item("c", 10),
                new Item("e", 10));
        assertThat(assign(items, 2)).extracting(s -> s.stream().map(Item::name).toList())
                .containsExactly(List.of("a", "c", "e"), List.of("d", "b"));
    }

    @Test
    void theLongestGoFirstIntoTheLightestShare() {
        List<Item> items = List.of(new Item("a", 5), new Item("b", 30), new Item("c", 20), new Item("d", 12),
                new Item("e", 8));
        // b → 1 (30), c → 2 (20), d → 2 (32), e → 1 (38), a → 2 (37)
        assertThat(assign(items, 2)).extracting(s -> s.stream().map(Item::name).toList())
                .containsExactly(List.of("b", "e"), List.of("a", "c", "d"));
    }

    @Test
    void badEstimatesAndCountsAreRefusedByName() {
        assertThatThrownBy(() -> assign(List.of(new Item("x", Double.NaN)), 2))
                .hasMessageContaining("expected time of 'x' must be a non-negative number");
        assertThatThrownBy(() -> assign(List.of(new Item("x", -1)), 2)).hasMessageContaining("'x'");
        assertThatThrownBy(() -> assign(List.of(), 0)).hasMessageContaining("at least 1, got 0");
    }

    @Test
    void aShardIsReadAsKOfNAndAnythingElseIsAnErrorNamingWhereItCameFrom() {
        assertThat(Shard.parse("zkchaos.chaos.shard", "2/4")).isEqualTo(new Shard(2, 4, "zkchaos.chaos.shard"));
        assertThat(Shard.parse("zkchaos.chaos.shard", " 3 / 3 ").toString()).isEqualTo("3/3");
        assertThat(Shard.parse("zkchaos.chaos.shard", null).isAll()).isTrue();
        assertThat(Shard.parse("zkchaos.chaos.shard", "").isAll()).isTrue();
        assertThatThrownBy(() -> Shard.parse("zkchaos.chaos.shard", "5/4"))
                .hasMessage("zkchaos.chaos.shard=5/4: the shard must be 1 to 4 (K/N counts from 1)");
        assertThatThrownBy(() -> Shard.parse("zkchaos.chaos.shard", "0/4"))
                .hasMessageContaining("zkchaos.chaos.shard=0/4: the shard must be 1 to 4");
        assertThatThrownBy(() -> Shard.parse("--shard", "1/0"))
                .hasMessageContaining("--shard=1/0: the number of shards must be at least 1");
        for (String bad : List.of("4", "1/4/2", "a/b", "-1/4", "1 of 4")) {
            assertThatThrownBy(() -> Shard.parse("zkchaos.chaos.shard", bad)).as(bad)
                    .hasMessageContaining("zkchaos.chaos.shard='" + bad + "': expected K/N");
        }
    }

    @Test
    void theSharesOfEveryKTogetherAreTheListAndAnEmptyShareIsAnError() {
        List<Item> items = suiteLike(11, 9);
        Function<Integer, List<Item>> share = k -> new Shard(k, 3, "p").select(items, Item::name, Item::seconds);
        List<Item> all = new ArrayList<>();
        for (int k = 1; k <= 3; k++) {
            all.addAll(share.apply(k));
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(items);
        assertThat(Shard.all("p").select(items, Item::name, Item::seconds)).isEqualTo(items);
        assertThatThrownBy(() -> new Shard(10, 10, "zkchaos.chaos.shard").select(items, Item::name, Item::seconds))
                .hasMessageContaining("zkchaos.chaos.shard=10/10: 9 scenario(s) fill only 9 shard(s)");
    }
}
