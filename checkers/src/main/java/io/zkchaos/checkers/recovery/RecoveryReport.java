package io.zkchaos.checkers.recovery;

import io.zkchaos.checkers.Findings;
import java.util.List;

/**
 * The recovery checker's findings: how soon after the final heal the ensemble acknowledged a write again and each
 * server served, against the run's bound.
 *
 * @param boundMillis       the bound, from the final heal
 * @param writeAfterMillis  from the final heal to the first acknowledged write (a client's or the harness's probe),
 *                          or null when none was acknowledged
 * @param writeBy           who wrote it: {@code client process 7} or {@code probe}; null when none
 * @param writeError        why the probe's write was not acknowledged, or null
 * @param servers           each server's recovery, in node order
 * @param problems          each breach of the promise, in words (empty when it held)
 */
public record RecoveryReport(long boundMillis, Long writeAfterMillis, String writeBy, String writeError,
                             List<ServerRecovery> servers, List<String> problems) implements Findings {

    public RecoveryReport {
        servers = List.copyOf(servers);
        problems = List.copyOf(problems);
    }

    /**
     * One server after the final heal.
     *
     * @param node        {@code n2}
     * @param served      whether it served (as a leader or a synced follower) within the bound
     * @param afterMillis from the final heal to the moment it was seen serving, or null
     * @param state       what the harness saw last: {@code follower}, {@code DOWN, exited with code 1} ...
     * @param log         the end of its log when it did not serve (empty otherwise)
     */
    public record ServerRecovery(String node, boolean served, Long afterMillis, String state, String log) {
    }
}
