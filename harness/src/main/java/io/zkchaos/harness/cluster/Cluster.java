package io.zkchaos.harness.cluster;

import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.fle.FleNodes;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import io.zkchaos.nemesis.NodeControl;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.ServingWait;
import io.zkchaos.nemesis.frame.FrameTaps;
import io.zkchaos.nemesis.net.LinkNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * A running ensemble, whatever runs it (local JVM processes, containers): what a {@link ClusterBackend} starts.
 * Nodes are named {@code n1 .. nN}. Every client link and every peer link goes through the fault network
 * ({@link #links()}), so faults are real: a cut link drops real TCP connections.
 *
 * <p>Node faults ({@link NodeControl}) act on the real process and have taken effect when they return:
 * {@link #kill} is a SIGKILL that has been reaped, {@link #pause} a SIGSTOP. They are idempotent where that is
 * meaningful (killing a node that is down does nothing). {@link #close()} stops every process and proxy and is
 * idempotent; a cluster that is not closed (the harness was killed) is cleaned up by its backend's
 * {@link ClusterBackend#reapLeftovers} on the next start.
 *
 * <p>Methods are thread-safe.
 */
public interface Cluster extends NodeControl, ServingWait, AutoCloseable {

    /** The configuration this cluster was started with. */
    ClusterConfig config();

    /** Node names, {@code n1 .. nN}. */
    @Override
    default List<String> nodes() {
        return config().nodeNames();
    }

    /** A connect string naming every node's client link. */
    String connectString();

    /** A connect string naming only {@code node}'s client link (a client pinned to one server). */
    String connectString(String node);

    /** What the harness did to the node last. */
    @Override
    NodeState state(String node);

    /** What the node says about itself now, asked directly (not through the fault network). */
    NodeStatus status(String node);

    /** Every node's {@link #status}, asked in parallel. */
    default Map<String, NodeStatus> statuses() {
        Map<String, CompletableFuture<NodeStatus>> asked = new LinkedHashMap<>();
        for (String n : nodes()) {
            asked.put(n, CompletableFuture.supplyAsync(() -> status(n)));
        }
        Map<String, NodeStatus> out = new LinkedHashMap<>();
        asked.forEach((n, f) -> out.put(n, f.join()));
        return out;
    }

    /**
     * The node that leads now, asked of the servers. When more than one claims to lead (an isolated old leader
     * that has not noticed yet), the one with the newest epoch wins; empty when none leads.
     */
    @Override
    default Optional<String> leader() {
        return QuorumWait.leaderOf(statuses());
    }

    /**
     * Waits until a quorum serves: one leader and enough followers that leader and followers make a quorum of
     * the whole ensemble (for one node: it serves standalone). Backends wait with {@link QuorumWait#await}.
     *
     * @throws ClusterNotReadyException past the bound, naming a node that did not serve, the expectation, and
     *                                  the tail of that node's log
     */
    void awaitQuorum(Duration bound);

    /**
     * Polls the node's own {@link #status} (every 50 ms) until its mode serves: a leader, or a follower that has
     * synced with its leader.
     */
    @Override
    default void awaitServing(String node, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        NodeStatus last = status(node);
        while (!last.mode().serving()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(node + " did not serve within " + bound.toMillis() + " ms: it is "
                        + state(node) + ", mode " + last.mode() + (last.error() == null ? "" : " (" + last.error()
                        + ")"));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + node + " to serve", e);
            }
            last = status(node);
        }
    }

    /**
     * Writes to disk everything the servers wrote but did not fsync, where the data directories are on a file system
     * that holds such writes (the local backend's lazy file system): what the kernel's writeback does within
     * seconds on a real machine. The runner calls it once the ensemble has started and the workload is set up, so
     * that a later power failure takes only what was written since, not the servers' start-up files. Does nothing
     * elsewhere (the default).
     */
    default void writeBack() {
    }

    /** Stops a node gracefully (SIGTERM, SIGKILL past a bound); no-op if it is down. */
    void stop(String node);

    /** The fault network: every link of this ensemble. */
    LinkNetwork links();

    /**
     * The protocol taps on this cluster's quorum links ({@link io.zkchaos.harness.cluster.zab.ZabProtocol}), for
     * faults at protocol moments and for what passed; empty when the links are direct.
     */
    default Optional<FrameTaps> frames() {
        return Optional.empty();
    }

    /**
     * What the nemesis acts on: this cluster's nodes, links and protocol taps, with node choices drawn from
     * {@code random}.
     */
    default NemesisTarget nemesisTarget(Random random) {
        return new NemesisTarget(this, links(), random, frames());
    }

    /** One line on what runs the ensemble, beyond its size and version (e.g. the images in use); may be empty. */
    default String summary() {
        return "";
    }

    /** The node's server log (stdout and stderr of every incarnation of the process). */
    Path logFile(String node);

    /**
     * Whether {@link #tryWrite} can write to this system: ZooKeeper and the fle nodes can (a client of the harness's
     * own); an ensemble that stands in for one may say not.
     */
    default boolean probesWrites() {
        return true;
    }

    /**
     * One write through the ensemble's client links, as a client would make it, for the recovery probe: on ZooKeeper
     * a sequential znode under {@value #PROBE_PATH}, in a session of its own through the ensemble's connect string;
     * on the fle nodes a put of the key {@value #FLE_PROBE_KEY} through each node's client link in turn until one
     * acknowledges it (a follower forwards it to the leader). Each try is bounded by {@code timeout}.
     *
     * @return null when acknowledged, else why not
     */
    default String tryWrite(Duration timeout) throws InterruptedException {
        Map<String, String> servers = new LinkedHashMap<>();
        nodes().forEach(n -> servers.put(n, connectString(n)));
        if (config().system() == SystemUnderTest.FLE) {
            return tryFleWrite(servers, timeout);
        }
        Target target = new Target(connectString(), servers, timeout.multipliedBy(2), timeout);
        try (ZooKeeper zk = Sessions.open(target.connectString(), target, null)) {
            zk.create(PROBE_PATH, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
            return null;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return e.toString();
        }
    }

    /** A put of {@value #FLE_PROBE_KEY} through each node ({@code host:port}) in turn; null once one acknowledged. */
    private static String tryFleWrite(Map<String, String> servers, Duration timeout) throws InterruptedException {
        java.util.List<String> why = new java.util.ArrayList<>();
        for (Map.Entry<String, String> e : servers.entrySet()) {
            if (Thread.interrupted()) {
                throw new InterruptedException("recovery probe write interrupted");
            }
            try (FleClient client = new FleClient(FleNodes.address(e.getValue()), timeout)) {
                client.put(FLE_PROBE_KEY, Long.toString(System.currentTimeMillis()));
                return null;
            } catch (FleException ex) {
                why.add(e.getKey() + ": " + ex.getMessage());
            }
        }
        return String.join("; ", why);
    }

    /**
     * Whether real server processes stand behind this cluster (ZooKeeper's, the fle nodes'): they keep logs, the
     * harness records their starts and exits, and the availability probe can write through each one alone. An
     * ensemble that only stands in for one (a test's, in memory) has none of that, and its servers' account is not
     * judged.
     */
    default boolean realServers() {
        return true;
    }

    /** The znodes {@link #tryWrite} creates (sequential), outside every workload's paths. */
    String PROBE_PATH = "/zkchaos-recovery-";
    /** The fle nodes' key {@link #tryWrite} puts, outside every workload's keys. */
    String FLE_PROBE_KEY = "zkchaos-recovery";

    /** The last {@code lines} lines of the node's log, or why they cannot be read. */
    default String logTail(String node, int lines) {
        return io.zkchaos.harness.process.LogTail.of(logFile(node), lines);
    }

    /**
     * What happens to the server processes (starts, exits by whom, clock moves), for a run to record
     * ({@link ServerWatch#record}); the watch stops looking when the cluster closes.
     */
    ServerWatch servers();

    /** The directory holding every file of this cluster. */
    Path runDirectory();

    /** Heals the network, stops every process and proxy. Idempotent. */
    @Override
    void close();
}
