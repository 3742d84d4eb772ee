package io.zkchaos.workloads.election;

/**
 * Work a candidate does while it believes it leads (the fenced writes). Called repeatedly on the candidate's own
 * thread; each call records at most one operation through {@code log} and must return within the request timeout.
 */
@FunctionalInterface
public interface LeaderTask {

    /**
     * Does one step as the leader of {@code term}, on the candidate's own session {@code zk}.
     *
     * @return false if the operation ended info: the process must be retired
     */
    boolean step(Leadership term, ProcessLog log, org.apache.zookeeper.ZooKeeper zk) throws Exception;
}
