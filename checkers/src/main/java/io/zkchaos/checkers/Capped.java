package io.zkchaos.checkers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Findings as a checker collects them: every one counted, the first {@code limit} kept for the report (a broken run
 * can break a rule thousands of times; the first ones say what happened). Not thread-safe.
 *
 * @param <T> the finding's type
 */
public final class Capped<T> {

    private final int limit;
    private final List<T> kept = new ArrayList<>();
    private final Map<String, Integer> byKind = new TreeMap<>();
    private int count;

    public Capped(int limit) {
        this.limit = limit;
    }

    /** Adds a finding of {@code kind} (the rule it breaks). */
    public void add(String kind, T finding) {
        byKind.merge(kind, 1, Integer::sum);
        count++;
        if (kept.size() < limit) {
            kept.add(finding);
        }
    }

    /** How many were added. */
    public int count() {
        return count;
    }

    /** How many of each kind were added, by kind. */
    public Map<String, Integer> byKind() {
        return java.util.Collections.unmodifiableMap(new TreeMap<>(byKind));
    }

    /** The first ones, at most the limit. */
    public List<T> kept() {
        return List.copyOf(kept);
    }
}
