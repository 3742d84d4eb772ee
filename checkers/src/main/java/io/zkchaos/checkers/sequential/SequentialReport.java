package io.zkchaos.checkers.sequential;

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
 * The {@code sequential-znodes} checker's findings (the {@code details} of its result).
 *
 * @param parents             the parents some create or read named, in order of first appearance
 * @param acknowledged        creates that completed ok
 * @param ephemeral           of those, ephemeral-sequential ones
 * @param indeterminate       creates that completed info (or never): present once or absent
 * @param indeterminatePresent of those, present in some read (each at most once)
 * @param failed              creates that failed (nothing was created)
 * @param reads               ok reads of children checked (in the run and final)
 * @param finalReads          the servers whose last read was the final read checked, in order
 * @param violationCount      how many violations were found (only the first {@link #SHOWN} are listed)
 * @param violationsByRule    how many of each rule
 * @param violations          the first violations, in the order they were found
 */
public record SequentialReport(List<String> parents, int acknowledged, int ephemeral, int indeterminate,
                               int indeterminatePresent, int failed, int reads, List<String> finalReads,
                               int violationCount, Map<String, Integer> violationsByRule,
                               List<SequentialViolation> violations)
        implements Findings, TestsPromises {

    /** The most violations a report lists. */
    public static final int SHOWN = 100;

    public SequentialReport {
        parents = List.copyOf(parents);
        violationsByRule = Collections.unmodifiableMap(new TreeMap<>(violationsByRule));
        finalReads = List.copyOf(finalReads);
        violations = List.copyOf(violations);
    }

    /** Names judged on acknowledged creates (persistent and ephemeral), indeterminate ones, and the final reads. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("creates", "sequential names unique, numbered in real-time order, none lost",
                        acknowledged),
                new PromiseTally("ephemeral-sequential", "the same for ephemeral-sequential creates", ephemeral),
                new PromiseTally("indeterminate", "a create of unknown outcome is present once or absent",
                        indeterminate),
                new PromiseTally("final-reads", "every server's final read holds every acknowledged create",
                        finalReads.size()));
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(violations, SequentialViolation::rule).build();
    }
}
