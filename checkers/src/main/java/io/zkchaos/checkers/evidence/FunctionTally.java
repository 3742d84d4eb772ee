package io.zkchaos.checkers.evidence;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How the client operations of one function ({@code write}, {@code add}, {@code acquire} ...) ended, over the whole
 * run and in the parts of it that matter for evidence.
 *
 * @param f          the function
 * @param all        every operation of it
 * @param main       those invoked before the final heal (the main phase, faults included)
 * @param underFault those that were in flight while a fault was in force: invoked before the fault's heal began and
 *                   completed (or never completed) after the fault was applied
 * @param afterHeal  those invoked after the final heal began (a restart it waits for may be slow; the ensemble
 *                   may serve meanwhile)
 * @param byFault    {@code underFault} by the fault in force (an operation in flight under two faults counts under
 *                   each): what a requirement that counts only some faults reads ({@link
 *                   Requirement.AcknowledgedUnderFault}); empty in tallies made before it was kept
 */
public record FunctionTally(String f, OpCounts all, OpCounts main, OpCounts underFault, OpCounts afterHeal,
                            Map<String, OpCounts> byFault) {

    public FunctionTally {
        Objects.requireNonNull(f, "f");
        Objects.requireNonNull(all, "all");
        Objects.requireNonNull(main, "main");
        Objects.requireNonNull(underFault, "underFault");
        Objects.requireNonNull(afterHeal, "afterHeal");
        byFault = byFault == null ? Map.of() : Collections.unmodifiableSortedMap(new TreeMap<>(byFault));
    }

    /** A tally without the counts by fault. */
    public FunctionTally(String f, OpCounts all, OpCounts main, OpCounts underFault, OpCounts afterHeal) {
        this(f, all, main, underFault, afterHeal, Map.of());
    }

    /** Those in flight while {@code fault} was in force. */
    public OpCounts underFault(String fault) {
        return byFault.getOrDefault(fault, OpCounts.NONE);
    }

    /** The counts of one part of the run. */
    public OpCounts in(Phase phase) {
        return switch (phase) {
            case ALL -> all;
            case MAIN -> main;
            case UNDER_FAULT -> underFault;
            case AFTER_HEAL -> afterHeal;
        };
    }
}
