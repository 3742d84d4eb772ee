package io.zkchaos.checkers.recovery;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
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
                             List<ServerRecovery> servers, List<String> problems)
        implements Findings, TestsPromises {

    public RecoveryReport {
        servers = List.copyOf(servers);
        problems = List.copyOf(problems);
    }

    /**
     * Recovery judged on the first write acknowledged after the heal (the report keeps one: 1 or 0) and on the servers
     * the harness watched after it.
     */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("write-after-heal", "a write acknowledged again within the bound after the heal",
                        writeAfterMillis == null ? 0 : 1),
                new PromiseTally("servers-serve", "every server serves again within the bound after the heal",
                        servers.size()));
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
