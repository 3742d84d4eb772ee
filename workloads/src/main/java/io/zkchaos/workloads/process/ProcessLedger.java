package io.zkchaos.workloads.process;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.election.ReleaseReason;
import io.zkchaos.workloads.process.ClientChannel.Lead;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the logical processes of one client process have left open, as recorded: each one's outstanding operation,
 * and each election leadership (an {@code acquire} ok not yet followed by a {@code release} invoke or an info). When
 * the client process is gone, {@link #closeAll} ends all of it in the history. Not thread-safe: its channel
 * serializes the calls.
 */
final class ProcessLedger {

    private final Map<Integer, Op> outstanding = new TreeMap<>();
    private final Map<Integer, Long> leading = new TreeMap<>();

    void invoked(Op invoke) {
        outstanding.put(invoke.process(), invoke);
        if (invoke.f().equals("release")) {
            leading.remove(invoke.process());
        }
    }

    /** The outstanding invoke of {@code process}, if any. */
    Optional<Op> outstanding(int process) {
        return Optional.ofNullable(outstanding.get(process));
    }

    void completed(Op invoke, OpType type, Object value) {
        outstanding.remove(invoke.process());
        if (type == OpType.INFO) {
            leading.remove(invoke.process()); // an info retires the process: it leads no more
        } else if (type == OpType.OK && invoke.f().equals("acquire") && value instanceof Map<?, ?> m
                && m.get("token") instanceof Number token) {
            leading.put(invoke.process(), token.longValue());
        }
    }

    /** The leadership with the highest token, if any process leads. */
    Optional<Lead> leader() {
        return leading.entrySet().stream().map(e -> new Lead(e.getKey(), e.getValue()))
                .max(Comparator.comparingLong(Lead::token));
    }

    /**
     * The client process is gone: every outstanding operation completes {@code info} with error {@code why}, and
     * every leadership without one gets a {@code release} invoke (reason {@code process-died}) completed
     * {@code info}, so the history says when the harness knew the process stopped believing it led.
     *
     * @return how many history entries it wrote
     */
    int closeAll(HistoryRecorder recorder, String why) {
        int written = 0;
        for (Op invoke : new ArrayList<>(outstanding.values())) {
            recorder.complete(invoke, OpType.INFO, null, why);
            written++;
        }
        List<Lead> leads = new ArrayList<>();
        leading.forEach((p, t) -> {
            if (!outstanding.containsKey(p)) {
                leads.add(new Lead(p, t));
            }
        });
        for (Lead l : leads) {
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("token", l.token());
            value.put("reason", ReleaseReason.PROCESS_DIED.wireName());
            Op release = recorder.invoke(l.process(), "release", null, value);
            recorder.complete(release, OpType.INFO, null, why);
            written += 2;
        }
        outstanding.clear();
        leading.clear();
        return written;
    }
}
