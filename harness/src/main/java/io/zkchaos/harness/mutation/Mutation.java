package io.zkchaos.harness.mutation;

import java.util.List;
import java.util.Objects;

/**
 * One row of the mutation matrix: bug flags switched on, the scenario that should show them, and what is expected.
 *
 * @param bugs     the fle bug flags (usually one)
 * @param scenario where they should show
 * @param expect   {@link Expect#CAUGHT}: the checkers must judge a run invalid; {@link Expect#MASKED}: the rest of
 *                 the protocol hides the mistake from every client, so the runs are expected valid;
 *                 {@link Expect#RARE}: visible, but the scenario seldom sets it up. A masked or rare row must be
 *                 caught or masked with evidence: its code path ran (as the nodes counted) in a run judged valid
 * @param note     for a caught row, what the checkers should find; for a masked row, why no client-visible check can
 *                 see the mistake and the deterministic test in {@code fle} that shows it happening
 */
public record Mutation(List<String> bugs, MutationScenario scenario, Expect expect, String note) {

    /** What the row expects of the checkers. */
    public enum Expect {
        /** Judged invalid. */
        CAUGHT,
        /** Hidden by the rest of the protocol: valid, with its code path running, and said so. */
        MASKED,
        /**
         * Visible to the checkers, but only under a schedule the nemeses seldom make: reported with how often it was
         * caught; not required to be caught, but, like a masked one, to be caught or to run its code path (the note
         * says what the schedule needs and which deterministic test shows it).
         */
        RARE
    }

    public Mutation {
        bugs = List.copyOf(bugs);
        if (bugs.isEmpty()) {
            throw new IllegalArgumentException("a mutation switches on at least one bug");
        }
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(expect, "expect");
        Objects.requireNonNull(note, "note");
    }

    /** The flags as one label: {@code ack-before-durable}, {@code elect-without-zxid+no-epoch-fencing}. */
    public String bugLabel() {
        return String.join("+", bugs);
    }
}
