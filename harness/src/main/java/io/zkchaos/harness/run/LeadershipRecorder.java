package io.zkchaos.harness.run;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.nemesis.NodeState;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records each node's own leadership in the history, for systems whose election is under test (the fle nodes), so
 * that the {@code single-leader} checker judges the servers as it judges an election recipe's candidates (see
 * docs/history-conventions.md): every node is one process ({@link #PROCESS_BASE} + its index) that
 * <ul>
 *   <li>volunteers — {@code acquire} invoke — when it is first seen answering and not leading;</li>
 *   <li>acquires — the {@code acquire} ok, value {@code {"token": epoch, "node": "n2"}} — when it is seen as a
 *       serving leader: the token is the epoch it leads, so two leaders of one epoch are two holders of one token,
 *       and an epoch that goes backwards is a token that goes backwards;</li>
 *   <li>releases — {@code release} invoke and ok, {@code {"token": epoch, "reason": ...}} — when it is seen
 *       killed ({@code down}), answering but no longer leading ({@code stepped-down}), or leading another epoch
 *       ({@code new-epoch}, then it acquires that one).</li>
 * </ul>
 * A node that cannot be asked (paused, or no answer in time) is taken to believe what it believed when last seen:
 * a paused leader still leads, as it will say when it wakes. Failover after a heal is the time to the next
 * {@code acquire} ok, as seen at the observer's pace ({@link #POLL_EVERY}).
 *
 * <p>At the end an outstanding {@code acquire} is completed {@code info} (the node never led again while
 * observed); a node still leading stays so to the end of the history. Called by one thread at a time (the
 * {@link LeaderObserver}'s).
 */
public final class LeadershipRecorder implements LeaderObserver.Listener {

    /** Node {@code i} (0-based) records as process {@code PROCESS_BASE + i}: far above every client process. */
    public static final int PROCESS_BASE = 2_000_000;
    /** How often the observer asks every node when leadership is recorded. */
    public static final Duration POLL_EVERY = Duration.ofMillis(100);

    private final HistoryRecorder recorder;
    private final Map<String, Integer> processes = new LinkedHashMap<>();
    private final Map<String, Op> volunteered = new HashMap<>();
    private final Map<String, Long> leading = new HashMap<>();

    public LeadershipRecorder(HistoryRecorder recorder, List<String> nodes) {
        this.recorder = recorder;
        for (int i = 0; i < nodes.size(); i++) {
            processes.put(nodes.get(i), PROCESS_BASE + i);
        }
    }

    @Override
    public synchronized void observed(String node, NodeStatus status, NodeState state) {
        Integer process = processes.get(node);
        if (process == null) {
            return;
        }
        Long epoch = leading.get(node);
        if (state == NodeState.DOWN) {
            if (epoch != null) {
                release(node, process, epoch, "down");
            }
            return;
        }
        if (status.mode() == Mode.UNREACHABLE) {
            return; // paused, or no answer: it believes what it believed
        }
        boolean leads = status.mode() == Mode.LEADER || status.mode() == Mode.STANDALONE;
        if (leads && epoch != null && epoch == status.epoch()) {
            return;
        }
        if (epoch != null) {
            release(node, process, epoch, leads ? "new-epoch" : "stepped-down");
        }
        Op invoke = volunteered.remove(node);
        if (invoke == null) {
            invoke = recorder.invoke(process, "acquire", null, null);
        }
        if (leads) {
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("token", status.epoch());
            value.put("node", node);
            recorder.complete(invoke, OpType.OK, value, null);
            leading.put(node, status.epoch());
        } else {
            volunteered.put(node, invoke);
        }
    }

    private void release(String node, int process, long epoch, String reason) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("token", epoch);
        value.put("reason", reason);
        Op invoke = recorder.invoke(process, "release", null, value);
        recorder.complete(invoke, OpType.OK, value, null);
        leading.remove(node);
    }

    @Override
    public synchronized void ended() {
        for (Op invoke : volunteered.values()) {
            recorder.complete(invoke, OpType.INFO, null, "observation ended before it led again");
        }
        volunteered.clear();
    }
}
