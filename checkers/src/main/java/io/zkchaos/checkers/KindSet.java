package io.zkchaos.checkers;

import java.util.Collection;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The finding kinds one findings record names ({@link Findings#findingKinds()}), gathered in a sorted set. A null or
 * empty kind is skipped (a violation read back from a file written before violations had kinds), and so is a null
 * list (a field that file did not have), so the records need no null checks of their own.
 */
public final class KindSet {

    private final SortedSet<String> kinds = new TreeSet<>();

    /** {@code kind}, when it is a kind at all. */
    public KindSet add(String kind) {
        if (kind != null && !kind.isEmpty()) {
            kinds.add(kind);
        }
        return this;
    }

    /** {@code kind} when {@code found}. */
    public KindSet when(boolean found, String kind) {
        return found ? add(kind) : this;
    }

    /** {@code kind} when {@code items} holds something. */
    public KindSet ifAny(Collection<?> items, String kind) {
        return when(items != null && !items.isEmpty(), kind);
    }

    /** The kind of each item (its rule, its kind ...). */
    public <T> KindSet each(Collection<T> items, Function<? super T, String> kind) {
        if (items != null) {
            items.forEach(item -> add(kind.apply(item)));
        }
        return this;
    }

    /** Every kind in {@code more}. */
    public KindSet all(Collection<String> more) {
        if (more != null) {
            more.forEach(this::add);
        }
        return this;
    }

    /** The kinds gathered, sorted, unmodifiable. */
    public SortedSet<String> build() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(kinds));
    }
}
