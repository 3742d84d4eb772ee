package io.zkchaos.checkers.evidence;

import java.util.Objects;

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
 */
public record FunctionTally(String f, OpCounts all, OpCounts main, OpCounts underFault, OpCounts afterHeal) {

    public FunctionTally {
        Objects.requireNonNull(f, "f");
        Objects.requireNonNull(all, "all");
        Objects.requireNonNull(main, "main");
        Objects.requireNonNull(underFault, "underFault");
        Objects.requireNonNull(afterHeal, "afterHeal");
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
