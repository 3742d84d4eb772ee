package io.zkchaos.checkers.watches;

import io.zkchaos.checkers.Findings;
import java.util.List;
import java.util.Map;

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
 */
public record WatchesReport(int sessions, int watchesSet, int persistentAdded, int events, int eventsPlaced,
                            int changes, int unknownChanges, int barriers, Map<String, Integer> excused,
                            boolean addWatchUnimplemented, List<WatchViolation> violations) implements Findings {

    public WatchesReport {
        excused = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(excused));
        violations = List.copyOf(violations);
    }
}
