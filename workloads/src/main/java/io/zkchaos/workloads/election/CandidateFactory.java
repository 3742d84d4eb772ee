package io.zkchaos.workloads.election;

import io.zkchaos.workloads.Target;

/** Opens candidate sessions: the project's own recipe, or Curator's LeaderLatch. */
@FunctionalInterface
public interface CandidateFactory {

    /**
     * Opens a session for candidate {@code name} on {@code target}, ready to volunteer under {@code electionPath}.
     *
     * @throws Exception if the session cannot be opened within the target's timeouts
     */
    CandidateSession open(String name, String electionPath, Target target, HerdCounters counters) throws Exception;
}
