package io.zkchaos.workloads.election;

/**
 * One candidate process: one ZooKeeper session on which it volunteers, leads, resigns and volunteers again. Every
 * method is bounded by the target's timeouts.
 */
public interface CandidateSession extends AutoCloseable {

    /** Volunteers with a new candidacy on this session, reporting to {@code listener}. */
    void startCandidacy(LeaderElection.Listener listener);

    /** Closes the current candidacy (a leader releases with {@code closed}); the session stays. */
    void resign();

    /** The session's ZooKeeper handle (the election session; a leader's work goes through connections of its own). */
    org.apache.zookeeper.ZooKeeper zooKeeper() throws Exception;

    /** Resigns and closes the session. Must not throw. */
    @Override
    void close();
}
