package io.zkchaos.harness.cluster;

import io.zkchaos.harness.cluster.NodeStatus.Mode;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Who leads and whether a quorum serves, read from the nodes' own statuses, and the wait for it: written once for
 * every backend ({@link Cluster#leader()}, {@link Cluster#awaitQuorum}).
 */
public final class QuorumWait {

    private QuorumWait() {
    }

    /**
     * The node that leads in {@code statuses}: when more than one claims to lead (an isolated old leader that has not
     * noticed yet), the one with the newest epoch; a node serving standalone leads too.
     */
    public static Optional<String> leaderOf(Map<String, NodeStatus> statuses) {
        return statuses.values().stream()
                .filter(s -> s.mode() == Mode.LEADER || s.mode() == Mode.STANDALONE)
                .max(Comparator.comparingLong(NodeStatus::epoch))
                .map(NodeStatus::node);
    }

    /**
     * Whether a quorum serves: exactly one leader, and followers enough that leader and followers make a quorum of
     * the ensemble; for one node, it serves standalone.
     */
    public static boolean serves(Map<String, NodeStatus> statuses, ClusterConfig config) {
        if (config.nodes() == 1) {
            return statuses.values().iterator().next().mode() == Mode.STANDALONE;
        }
        long leaders = statuses.values().stream().filter(s -> s.mode() == Mode.LEADER).count();
        long followers = statuses.values().stream().filter(s -> s.mode() == Mode.FOLLOWER).count();
        return leaders == 1 && 1 + followers >= config.quorumSize();
    }

    /**
     * Polls every node's status (every 100 ms) until a quorum {@link #serves}.
     *
     * @param exited  a node that has exited by itself, asked at every poll: at start-up nothing the harness did can
     *                explain that and waiting longer cannot help, so the wait ends there; {@code Optional::empty} to
     *                wait out the bound
     * @param explain what the backend knows of a node that did not serve, for the error: what runs it, its state
     *                and exit code, the last lines of its log
     * @throws ClusterNotReadyException past the bound or once a node exited, naming that node (else the first that
     *                                  does not serve), the expectation, what every node said, and its explanation
     */
    public static void await(Cluster cluster, Duration bound, Supplier<Optional<String>> exited,
                             Function<String, String> explain) {
        long deadline = System.nanoTime() + bound.toNanos();
        Map<String, NodeStatus> last;
        Optional<String> gone;
        while (true) {
            last = cluster.statuses();
            if (serves(last, cluster.config())) {
                return;
            }
            gone = exited.get();
            if (gone.isPresent() || System.nanoTime() > deadline) {
                break;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for a quorum", e);
            }
        }
        Map<String, NodeStatus> seen = last;
        String culprit = gone.orElseGet(() -> seen.values().stream().filter(s -> !s.mode().serving())
                .map(NodeStatus::node).findFirst().orElse(cluster.nodes().get(0)));
        ClusterConfig config = cluster.config();
        throw new ClusterNotReadyException("no quorum served " + (gone.isPresent() ? "(" + culprit
                + " exited during start-up)" : "within " + bound.toMillis() + " ms") + ": expected "
                + (config.nodes() == 1 ? "n1 to serve standalone" : "one leader and at least "
                + (config.quorumSize() - 1) + " followers among " + cluster.nodes())
                + "; saw " + seen.values().stream().map(s -> s.node() + "=" + s.mode()
                        + (s.error() == null ? "" : " (" + s.error() + ")")).collect(Collectors.joining(", "))
                + ". " + explain.apply(culprit));
    }
}
