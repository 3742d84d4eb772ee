package io.zkchaos.harness.suite;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Splits a list of scenarios into shares of about equal expected time, the same way every time: the longest expected
 * first (ties by name), each into the share that is lightest so far (ties to the lower-numbered share). Pure: the
 * same items, names, estimates and count give the same shares on every machine, which is what lets N CI jobs each
 * compute its own share without talking to the others.
 *
 * <p>The greedy's bound: no share expects more than the mean plus the longest single item (the last item given to
 * the heaviest share went to the lightest, which was at most the mean). With many items of similar length, as the
 * chaos suite's, that is within a few percent of the mean.
 */
public final class Shards {

    private Shards() {
    }

    /**
     * Splits {@code items} into {@code count} shares.
     *
     * @param items   the scenarios, in their natural order (each share keeps it)
     * @param name    a scenario's name: breaks ties between equal estimates
     * @param seconds a scenario's expected time (non-negative)
     * @param count   how many shares, at least 1
     * @return {@code count} lists, share 1 first; every item in exactly one; a share is empty only when there are
     *         fewer items than shares
     */
    public static <T> List<List<T>> assign(List<T> items, Function<T, String> name, ToDoubleFunction<T> seconds,
                                           int count) {
        if (count < 1) {
            throw new IllegalArgumentException("the number of shares must be at least 1, got " + count);
        }
        double[] expected = new double[items.size()];
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            expected[i] = seconds.applyAsDouble(items.get(i));
            if (!(expected[i] >= 0) || Double.isInfinite(expected[i])) {
                throw new IllegalArgumentException("expected time of '" + name.apply(items.get(i))
                        + "' must be a non-negative number of seconds, got " + expected[i]);
            }
            order.add(i);
        }
        order.sort(Comparator.comparingDouble((Integer i) -> -expected[i])
                .thenComparing(i -> name.apply(items.get(i))).thenComparingInt(i -> i));
        double[] load = new double[count];
        int[] shareOf = new int[items.size()];
        for (int i : order) {
            int lightest = 0;
            for (int k = 1; k < count; k++) {
                if (load[k] < load[lightest]) {
                    lightest = k;
                }
            }
            shareOf[i] = lightest;
            load[lightest] += expected[i];
        }
        List<List<T>> shares = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < items.size(); i++) {
            shares.get(shareOf[i]).add(items.get(i));
        }
        return shares.stream().map(List::copyOf).toList();
    }
}
