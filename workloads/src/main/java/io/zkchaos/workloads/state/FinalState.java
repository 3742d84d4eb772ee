package io.zkchaos.workloads.state;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.ZnodeAcls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The final-state reads: after the workload's own final phase (every client session has ended by then), each
 * server's whole data tree is read through a session connected to that server alone and recorded as
 * {@code read-tree} (see {@link FinalStateChecker} and {@code docs/history-conventions.md}).
 *
 * <p><b>Why {@code sync()} first.</b> A follower answers reads from what it has applied; right after the heal a
 * commit may still be on its way to it. {@code sync} makes the server apply everything the leader committed before
 * it answers, so a server that is only behind is not taken for a divergent one. Sync does not repair anything — it
 * only waits for the server's own commit pipeline — so a server whose tree really lost or gained a transaction still
 * shows it. And it needs a leader: a server that has not rejoined a quorum fails the read ({@code info}) instead of
 * showing a stale tree as its final one.
 *
 * <p><b>Rounds.</b> The first round is recorded at once. When it does not settle the question — the servers
 * disagree, one cannot be read, or a tree holds ephemerals (whose sessions have all ended, but may take up to their
 * timeout to expire) — the servers are read again, unrecorded, every second until they settle or until session
 * timeout + {@link FinalStateChecker#EXPIRY_MARGIN} has passed since the first round began; then one more round is
 * recorded, and that is what the checker judges. A real divergence outlasts that wait; an in-flight transaction or
 * an expiring session does not. So a history holds one or two rounds of trees, whatever the wait.
 */
public final class FinalState {

    private static final Logger LOG = LoggerFactory.getLogger(FinalState.class);

    /** Tree reads use process numbers from here up (the workloads' final reads use 1 000 000 up). */
    public static final int PROCESS_BASE = 2_000_000;
    /** Between unrecorded rounds. */
    static final Duration PAUSE = Duration.ofSeconds(1);

    private final Target target;
    private final HistoryRecorder recorder;
    private final Duration bound;
    private final String aclRoot;
    private int nextProcess = PROCESS_BASE;
    private int reads;

    private FinalState(Target target, HistoryRecorder recorder, Duration bound, String aclRoot) {
        this.target = target;
        this.recorder = recorder;
        this.bound = bound;
        this.aclRoot = aclRoot;
    }

    /**
     * Reads every server of {@code target} in rounds, as the class describes, and records the first and the last.
     *
     * @return the last round: each server's tree, or null where it could not be read
     */
    public static Map<String, Map<String, Object>> read(Target target, HistoryRecorder recorder)
            throws InterruptedException {
        return read(target, recorder, FinalStateChecker.expiryBound(target.sessionTimeout()));
    }

    /** As {@link #read(Target, HistoryRecorder)}, waiting at most {@code bound} for the servers to settle. */
    public static Map<String, Map<String, Object>> read(Target target, HistoryRecorder recorder, Duration bound)
            throws InterruptedException {
        return read(target, recorder, bound, null);
    }

    /**
     * As {@link #read(Target, HistoryRecorder, Duration)}; when the target's ACLs are per-client, each recorded
     * read says so ({@code "acls": "per-client"}) and names {@code workloadRoot}, under which the checker holds
     * every znode to the ACLs the workloads give ({@link io.zkchaos.checkers.state.WorkloadAcls}).
     *
     * @param workloadRoot the workload's root znode; needed with per-client ACLs, else unused (may be null)
     */
    public static Map<String, Map<String, Object>> read(Target target, HistoryRecorder recorder, Duration bound,
                                                        String workloadRoot) throws InterruptedException {
        Objects.requireNonNull(target, "target");
        if (target.acls() == ZnodeAcls.PER_CLIENT && (workloadRoot == null || workloadRoot.equals("/"))) {
            throw new IllegalArgumentException("per-client ACLs are checked under the workload's own root znode, "
                    + "not " + (workloadRoot == null ? "none" : "/") + " (the servers' and harness's own znodes "
                    + "there keep their ACLs)");
        }
        return new FinalState(target, Objects.requireNonNull(recorder, "recorder"), bound,
                target.acls() == ZnodeAcls.PER_CLIENT ? workloadRoot : null).rounds();
    }

    private Map<String, Map<String, Object>> rounds() throws InterruptedException {
        long start = System.nanoTime();
        Map<String, Map<String, Object>> round = round(true);
        if (settled(round)) {
            return round;
        }
        LOG.info("final state not settled after the first round ({}); reading again for up to {}",
                why(round), bound);
        while (System.nanoTime() - start < bound.toNanos()) {
            Thread.sleep(PAUSE.toMillis());
            if (settled(round(false))) {
                break;
            }
        }
        return round(true);
    }

    /** Reads every server once; records the reads when {@code record}. */
    private Map<String, Map<String, Object>> round(boolean record) throws InterruptedException {
        reads++;
        Map<String, Map<String, Object>> trees = new LinkedHashMap<>();
        for (Map.Entry<String, String> server : target.servers().entrySet()) {
            String node = server.getKey();
            Op invoke = record ? recorder.invoke(nextProcess++, FinalStateChecker.READ_TREE, null,
                    Map.of("node", node)) : null;
            ZooKeeper zk = null;
            try {
                zk = Sessions.open(server.getValue(), target, null);
                zk.sync("/");
                Map<String, Object> tree = ZnodeTree.read(zk, target.requestTimeout().multipliedBy(4));
                trees.put(node, tree);
                if (record) {
                    Map<String, Object> value = new LinkedHashMap<>();
                    value.put("node", node);
                    value.put("round", (long) reads);
                    value.put("sessionTimeout", target.sessionTimeout().toMillis());
                    value.put("zxid", ZnodeTree.zxid(tree));
                    value.put("znodes", tree);
                    if (aclRoot != null) {
                        value.put("acls", FinalStateChecker.PER_CLIENT);
                        value.put("aclRoot", aclRoot);
                    }
                    recorder.complete(invoke, OpType.OK, value, null);
                }
            } catch (InterruptedException e) {
                if (record) {
                    recorder.complete(invoke, OpType.INFO, null, "interrupted");
                }
                throw e;
            } catch (Exception e) {
                trees.put(node, null);
                if (record) {
                    recorder.complete(invoke, OpType.INFO, null, "server " + node + ": " + Outcomes.describe(e));
                }
            } finally {
                Sessions.closeQuietly(zk);
            }
        }
        return trees;
    }

    /** Every server read, all trees equal, no ephemeral left. */
    private static boolean settled(Map<String, Map<String, Object>> round) {
        List<Map<String, Object>> trees = new ArrayList<>(round.values());
        return !trees.contains(null) && trees.stream().distinct().count() <= 1
                && trees.stream().allMatch(t -> ZnodeTree.ephemerals(t) == 0);
    }

    private static String why(Map<String, Map<String, Object>> round) {
        List<String> reasons = new ArrayList<>();
        round.forEach((n, t) -> {
            if (t == null) {
                reasons.add(n + " unread");
            } else if (ZnodeTree.ephemerals(t) > 0) {
                reasons.add(n + " holds " + ZnodeTree.ephemerals(t) + " ephemeral(s)");
            }
        });
        if (round.values().stream().filter(Objects::nonNull).distinct().count() > 1) {
            reasons.add("the trees differ");
        }
        return String.join(", ", reasons);
    }
}
