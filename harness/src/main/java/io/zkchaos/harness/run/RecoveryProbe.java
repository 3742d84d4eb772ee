package io.zkchaos.harness.run;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.recovery.RecoveryChecker;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.NodeStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * After the final heal and the clients' end: whether the ensemble recovered, recorded for the {@link RecoveryChecker}
 * (its history contract): a write of the harness's own acknowledged ({@value RecoveryChecker#WRITE}, through
 * {@link Cluster#tryWrite}, where the cluster {@linkplain Cluster#probesWrites() can}: ZooKeeper and the fle nodes),
 * and every server seen serving ({@value RecoveryChecker#SERVE}; the end of its log when it does not), each waited
 * for up to the bound. Every probe's invoke value carries the bound and the workload's write functions
 * ({@value RecoveryChecker#WRITES}, when it declares them): what counts as a client's write after the heal. What it
 * waits for is what the final reads need too: a quorum that serves.
 */
final class RecoveryProbe {

    /** Log lines kept for a server that did not serve. */
    static final int LOG_LINES = 40;
    /** Between two looks at the servers (and two tries of the write). */
    private static final Duration EVERY = Duration.ofMillis(250);

    private final Cluster cluster;
    private final HistoryRecorder recorder;
    private final Duration requestTimeout;
    private final Duration bound;
    private final boolean writes;
    private final Set<String> writeFunctions;

    /**
     * @param requestTimeout bounds each write (the harness's own, unhurried calls)
     * @param writeFunctions the workload's writes ({@code WorkloadDescriptor.writes}); empty when it declares none
     */
    RecoveryProbe(Cluster cluster, HistoryRecorder recorder, Duration requestTimeout, Duration bound,
                  Set<String> writeFunctions) {
        this.cluster = cluster;
        this.recorder = recorder;
        this.requestTimeout = requestTimeout;
        this.bound = bound;
        this.writes = cluster.probesWrites();
        this.writeFunctions = Set.copyOf(writeFunctions);
    }

    /** Probes until everything recovered or the bound passed; answers in words what it saw. */
    String run() throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        Map<String, Object> in = writeFunctions.isEmpty() ? Map.of("boundMs", bound.toMillis())
                : Map.of("boundMs", bound.toMillis(), RecoveryChecker.WRITES, new TreeSet<>(writeFunctions).stream()
                        .toList());
        Op write = writes ? recorder.invoke(RecoveryChecker.PROCESS_BASE, RecoveryChecker.WRITE, null, in) : null;
        Map<String, Op> waiting = new LinkedHashMap<>();
        List<String> nodes = cluster.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            waiting.put(nodes.get(i), recorder.invoke(RecoveryChecker.PROCESS_BASE + 1 + i, RecoveryChecker.SERVE,
                    nodes.get(i), in));
        }
        String writeError = "not tried";
        while (true) {
            for (var it = waiting.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                NodeStatus s = cluster.status(e.getKey());
                if (s.mode().serving()) {
                    recorder.complete(e.getValue(), OpType.OK, Map.of("node", e.getKey(), "state",
                            s.mode().name().toLowerCase(java.util.Locale.ROOT)), null);
                    it.remove();
                }
            }
            if (write != null) {
                writeError = cluster.tryWrite(requestTimeout);
                if (writeError == null) {
                    recorder.complete(write, OpType.OK, null, null);
                    write = null;
                }
            }
            if ((waiting.isEmpty() && write == null) || System.nanoTime() > deadline) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(EVERY.toMillis());
        }
        if (write != null) {
            recorder.complete(write, OpType.FAIL, null, "no write acknowledged within " + bound.toSeconds()
                    + " s: " + writeError);
        }
        for (var e : waiting.entrySet()) {
            String node = e.getKey();
            NodeStatus s = cluster.status(node);
            String state = cluster.state(node) + ", " + s.mode().name().toLowerCase(java.util.Locale.ROOT)
                    + (s.error() == null ? "" : " (" + s.error() + ")");
            recorder.complete(e.getValue(), OpType.FAIL, Map.of("node", node, "state", state, "log",
                    cluster.logTail(node, LOG_LINES)), node + " did not serve within " + bound.toSeconds() + " s");
        }
        return (writes ? (write == null ? "a write acknowledged" : "NO write acknowledged") + ", " : "")
                + (waiting.isEmpty() ? "every server serves" : "not serving: " + String.join(", ", waiting.keySet()));
    }
}
