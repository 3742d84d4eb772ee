package io.zkchaos.results;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.Minimum;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The kinds of finding a verdict holds, each {@code checker:kind} ({@code no-lost-commit:lost},
 * {@code zk-read-model:not-linearizable}, {@code single-leader:duplicate-token} ...): what "the same finding" means
 * when a run is replayed or shrunk. Two runs that lost different elements, or caught a different pair of leaders,
 * found the same kind of thing.
 *
 * <p>A {@link Findings} kind says which record a checker's details are; a finding kind says what in them is wrong,
 * as the record itself says ({@link Findings#findingKinds()}; a saved verdict, {@link RunDirectory#readCheckResult()},
 * reads as a fresh one). Details that name no kinds ({@link Findings.Untyped}, a checker's own), or a checker invalid
 * without any finding its record names, give {@code checker:invalid}.
 */
public final class FindingKind {

    private FindingKind() {
    }

    /** The finding kinds of a verdict, fresh or saved: none when it is not invalid. */
    public static SortedSet<String> of(CheckResult result) {
        SortedSet<String> kinds = new TreeSet<>();
        collect(result, null, kinds);
        return kinds;
    }

    private static void collect(CheckResult r, String parent, Set<String> kinds) {
        if (r == null || r.validity() != Validity.INVALID || r.checker().equals(Minimum.CHECKER)) {
            return; // what the run exercised is not a finding
        }
        String owner = parent == null ? r.checker() : parent;
        int before = kinds.size();
        for (String kind : r.details() == null ? Set.<String>of() : r.details().findingKinds()) {
            kinds.add(owner + ":" + kind);
        }
        for (CheckResult part : r.parts()) {
            // a composed verdict's parts are checkers of their own; a checker's sub-check is its own finding
            collect(part, r.details() == null ? null : owner, kinds);
        }
        if (kinds.size() == before && parent == null && (r.details() != null || r.parts().isEmpty())) {
            kinds.add(r.checker() + ":invalid");
        }
    }

    /**
     * Whether the run exercised what its verdict needs (its evidence part is valid), or says nothing of it (a run
     * checked before evidence was judged). A run below its minimum found nothing that counts.
     */
    public static boolean exercisedEnough(CheckResult result) {
        for (CheckResult part : result.parts()) {
            if (part.checker().equals(Minimum.CHECKER)) {
                return part.validity() == Validity.VALID;
            }
        }
        return true;
    }
}
