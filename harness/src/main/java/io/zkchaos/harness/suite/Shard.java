package io.zkchaos.harness.suite;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One share of a suite run on several machines: share {@code index} of {@code count} ({@code K/N}, 1-based), as
 * {@code -Dzkchaos.chaos.shard=K/N} or {@code ./zkchaos mutations --shard K/N} names it. {@link #select} gives its
 * scenarios, balanced by expected time ({@link Shards}); the N shares together hold every scenario once.
 *
 * @param index  which share, 1 to {@code count}
 * @param count  how many shares the suite is split into
 * @param source what set it (a system property, an option), for error messages
 */
public record Shard(int index, int count, String source) {

    private static final Pattern FORM = Pattern.compile("\\s*(\\d{1,6})\\s*/\\s*(\\d{1,6})\\s*");

    public Shard {
        Objects.requireNonNull(source, "source");
        if (count < 1) {
            throw new IllegalArgumentException(source + "=" + index + "/" + count
                    + ": the number of shards must be at least 1");
        }
        if (index < 1 || index > count) {
            throw new IllegalArgumentException(source + "=" + index + "/" + count + ": the shard must be 1 to "
                    + count + " (K/N counts from 1)");
        }
    }

    /** The whole suite in one share. */
    public static Shard all(String source) {
        return new Shard(1, 1, source);
    }

    /**
     * Reads {@code K/N}; a null or blank text is the whole suite.
     *
     * @param source what the text came from, named in the error
     * @throws IllegalArgumentException naming {@code source} when the text is not {@code K/N} with 1 ≤ K ≤ N
     */
    public static Shard parse(String source, String text) {
        if (text == null || text.isBlank()) {
            return all(source);
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(source + "='" + text + "': expected K/N, share K of N (e.g. 2/4)");
        }
        return new Shard(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), source);
    }

    /** Whether this is the whole suite. */
    public boolean isAll() {
        return count == 1;
    }

    /**
     * This share of {@code items}, in their order.
     *
     * @throws IllegalArgumentException naming {@link #source} when the share would be empty (more shards than items):
     *                                  a shard that runs nothing would pass without testing anything
     */
    public <T> List<T> select(List<T> items, Function<T, String> name, ToDoubleFunction<T> seconds) {
        List<T> share = Shards.assign(items, name, seconds, count).get(index - 1);
        if (share.isEmpty() && !items.isEmpty()) {
            throw new IllegalArgumentException(source + "=" + this + ": " + items.size() + " scenario(s) fill only "
                    + items.size() + " shard(s); shard " + index + " would run nothing (use at most " + items.size()
                    + " shards)");
        }
        return share;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
