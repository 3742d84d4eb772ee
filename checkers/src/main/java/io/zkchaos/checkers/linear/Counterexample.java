package io.zkchaos.checkers.linear;

import java.util.List;

/**
 * Why a partition is not linearizable: the search linearized {@code linearizedPrefix} (the longest prefix it found)
 * and then could place {@code operation} in none of {@code possibleStates} — every state the model could have been
 * in at that point, over every order the search tried.
 *
 * @param partition          the partition's key, or null for an unkeyed / unpartitioned history
 * @param operation          the operation that could not be linearized (its completion was the first that could
 *                           not be reached)
 * @param linearizedPrefix   the last operations of the longest linearizable prefix, in linearization order
 * @param prefixLength       how many operations that prefix has in all
 * @param prefixOmitted      how many of its first operations are left out of {@code linearizedPrefix}
 * @param possibleStates     the model states (described by the model) from which {@code operation} was tried
 * @param morePossibleStates true if there were more distinct states than listed
 * @param concurrent         operations invoked before {@code operation} completed and not in the prefix: they could
 *                           still have been placed (at most {@value LinearizabilityChecker#MAX_CONCURRENT_SHOWN})
 */
public record Counterexample(String partition, OpView operation, List<OpView> linearizedPrefix, int prefixLength,
                             int prefixOmitted, List<String> possibleStates, boolean morePossibleStates,
                             List<OpView> concurrent) {

    public Counterexample {
        linearizedPrefix = List.copyOf(linearizedPrefix);
        possibleStates = List.copyOf(possibleStates);
        concurrent = List.copyOf(concurrent);
    }
}
