package io.zkchaos.checkers.watches;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.SortedSet;

/**
 * The watches checker's findings (the {@code details} of its result).
 *
 * @param sessions        watching sessions judged
 * @param watchesSet      one-time watches set (reads that left a watch)
 * @param persistentAdded persistent and persistent-recursive watches added
 * @param events          watch events delivered
 * @param eventsPlaced    events whose causing change is known exactly (by the zxid the server sent, or because only
 *                        one change could have caused them): these are the ones ordered
 * @param changes         changes that committed (acknowledged, or found landed by a resolve)
 * @param unknownChanges  changes that ended info and were never resolved (they may or may not have happened)
 * @param barriers        points where a session had certainly heard of every change applied before (its syncs)
 * @param excused         watches that did not fire, excused by a documented exception, by exception
 * @param addWatchUnimplemented whether the server answered {@code addWatch} with Unimplemented (before 3.6.0)
 * @param violations      every broken guarantee, in history order
 * @param eventTypes      the events delivered by type ({@code created}, {@code deleted}, {@code data-changed},
 *                        {@code children-changed}), each type seen; empty in results written before they were
 *                        counted
 * @param eventWatchers   the events delivered by the kind of watch that got them ({@code data}, {@code child},
 *                        {@code persistent}, {@code recursive}), each kind seen; empty in older results
 */
public record WatchesReport(int sessions, int watchesSet, int persistentAdded, int events, int eventsPlaced,
                            int changes, int unknownChanges, int barriers, Map<String, Integer> excused,
                            boolean addWatchUnimplemented, List<WatchViolation> violations,
                            Map<String, Integer> eventTypes, Map<String, Integer> eventWatchers)
        implements Findings, TestsPromises {

    public WatchesReport {
        excused = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(excused));
        violations = List.copyOf(violations);
        eventTypes = Collections.unmodifiableMap(eventTypes == null ? new TreeMap<>() : new TreeMap<>(eventTypes));
        eventWatchers = Collections.unmodifiableMap(eventWatchers == null ? new TreeMap<>()
                : new TreeMap<>(eventWatchers));
    }

    /** Without the events counted by type and by watch. */
    public WatchesReport(int sessions, int watchesSet, int persistentAdded, int events, int eventsPlaced,
                         int changes, int unknownChanges, int barriers, Map<String, Integer> excused,
                         boolean addWatchUnimplemented, List<WatchViolation> violations) {
        this(sessions, watchesSet, persistentAdded, events, eventsPlaced, changes, unknownChanges, barriers, excused,
                addWatchUnimplemented, violations, Map.of(), Map.of());
    }

    /**
     * The watch guarantees, each with the events that tested it: one-time watches (data and child) and persistent
     * ones (plain and recursive) by the watch that fired, each kind of change by the event's type, and "none lost
     * while connected" by the sync barriers at which a session had heard of every earlier change.
     */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("one-time", "a one-time watch fires once, for a change after it was set, in order",
                        watchers("data") + watchers("child")),
                new PromiseTally("persistent", "a persistent watch fires on every change of its znode, in order",
                        watchers("persistent")),
                new PromiseTally("persistent-recursive", "a persistent-recursive watch fires on every change "
                        + "under it, in order", watchers("recursive")),
                new PromiseTally("data-changed", "a change of data fires the watches on the znode",
                        types("data-changed")),
                new PromiseTally("created", "a create fires the exists and persistent watches on the znode",
                        types("created")),
                new PromiseTally("deleted", "a delete fires the watches on the znode", types("deleted")),
                new PromiseTally("children-changed", "a create or delete of a child fires the child watches on "
                        + "its parent", types("children-changed")),
                new PromiseTally("none-lost", "no event lost while connected (judged at each sync barrier)",
                        barriers));
    }

    private long types(String type) {
        return eventTypes.getOrDefault(type, 0);
    }

    private long watchers(String watcher) {
        return eventWatchers.getOrDefault(watcher, 0);
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(violations, WatchViolation::rule).build();
    }
}
