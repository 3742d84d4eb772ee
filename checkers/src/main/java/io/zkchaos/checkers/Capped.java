package io.zkchaos.checkers;

import java.util.ArrayList;
import java.util.List;

/**
 * Findings as a checker collects them: every one counted, the first {@code limit} kept for the report (a broken run
 * can break a rule thousands of times; the first ones say what happened). Not thread-safe.
 *
 * @param <T> the finding's type
 */
public final class Capped<T> {

    private final int limit;
    private final List<T> kept = new ArrayList<>();
    private int count;

    public Capped(int limit) {
        this.limit = limit;
    }

    public void add(T finding) {
        count++;
        if (kept.size() < limit) {
            kept.add(finding);
        }
    }

    /** How many were added. */
    public int count() {
        return count;
    }

    /** The first ones, at most the limit. */
    public List<T> kept() {
        return List.copyOf(kept);
    }
}
