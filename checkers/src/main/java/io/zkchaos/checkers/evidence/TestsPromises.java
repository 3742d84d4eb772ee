package io.zkchaos.checkers.evidence;

import java.util.List;

/**
 * Findings that say which of their checker's promises the run put to the test, each with its count, derived from
 * the findings' own fields (so a {@code results.json} read back says the same). A checker whose findings implement
 * this judged only the promises with a non-zero tally; the others it names as not judged.
 */
public interface TestsPromises {

    /** Every promise the checker judges, in a stable order, tested or not. */
    List<PromiseTally> promises();
}
