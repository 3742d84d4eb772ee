package io.zkchaos.checkers.bench;

import java.util.Arrays;
import java.util.Collection;

/**
 * The order statistics the benchmarks print, written once: the median (the middle sample, or the mean of the two
 * middle ones) and a nearest-rank percentile. The samples are not changed.
 */
public final class Stats {

    private Stats() {
    }

    /** The median of {@code samples}; -1 when there is none (the benchmarks' figures are never negative). */
    public static long median(Collection<Long> samples) {
        return median(samples.stream().mapToLong(Long::longValue).toArray());
    }

    /** The median of {@code samples}; -1 when there is none. */
    public static long median(long[] samples) {
        if (samples.length == 0) {
            return -1;
        }
        long[] s = samples.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** The median of {@code samples}; NaN when there is none. */
    public static double median(double[] samples) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        double[] s = samples.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /**
     * The sample at fraction {@code p} of the sorted samples (nearest rank: {@code 0.99} is the p99); -1 when there
     * is none.
     */
    public static long percentile(Collection<Long> samples, double p) {
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("a percentile is a fraction from 0 to 1, got " + p);
        }
        if (samples.isEmpty()) {
            return -1;
        }
        long[] s = samples.stream().mapToLong(Long::longValue).sorted().toArray();
        return s[Math.min(s.length - 1, (int) (s.length * p))];
    }
}
