package io.zkchaos.checkers.evidence;

import java.util.Objects;

/**
 * One promise a checker judges and how many times a run put it to the test: {@code sessions expired 3} means the
 * checker followed three expired sessions' ephemerals to their end. A tally of 0 is a promise the run did not test;
 * the checker's verdict says nothing about it.
 *
 * @param id          stable within its checker, e.g. {@code expired}; a workload names it as {@code checker:id}
 * @param description what is promised, for people: {@code an expired session's ephemerals go within the bound}
 * @param tested      how many times this run put it to the test (sessions, triggers, transactions: the unit is the
 *                    promise's own)
 */
public record PromiseTally(String id, String description, long tested) {

    public PromiseTally {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(description, "description");
        if (tested < 0) {
            throw new IllegalArgumentException("a promise is tested a negative number of times: " + tested);
        }
    }

    /** Whether the run put it to the test at least once. */
    public boolean wasTested() {
        return tested > 0;
    }
}
