package io.zkchaos.workloads.sessions;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.Result;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * One process's history: its operations, and the events its session's client delivers (it is the session's watcher).
 * A process has one operation outstanding at a time, so an event that arrives while one is in flight is held and
 * recorded right after it completes, its value naming that operation ({@code "during"}); one that arrives between
 * operations is recorded at once. After {@link #stop} nothing more is recorded. Thread-safe.
 */
final class SessionLog implements Watcher {

    private final HistoryRecorder recorder;
    private final int process;
    private final boolean hideExpiry;
    private final List<Map<String, Object>> held = new ArrayList<>();
    private Op inFlight;
    private boolean stopped;
    private String ended;

    /**
     * @param hideExpiry whether an Expired is kept out of the history (only the deliberately broken client that
     *                   reconnects silently hides it)
     */
    SessionLog(HistoryRecorder recorder, int process, boolean hideExpiry) {
        this.recorder = recorder;
        this.process = process;
        this.hideExpiry = hideExpiry;
    }

    int process() {
        return process;
    }

    synchronized Op invoke(String f, String key) {
        if (stopped) {
            throw new IllegalStateException("process " + process + " records nothing more");
        }
        inFlight = recorder.invoke(process, f, key, null);
        return inFlight;
    }

    /** Completes {@code invoke} with {@code r}, then records the events held behind it. */
    synchronized void complete(Op invoke, Result r) {
        recorder.complete(invoke, r.type(), r.value(), r.error());
        inFlight = null;
        held.forEach(this::record);
        held.clear();
    }

    @Override
    public synchronized void process(WatchedEvent e) {
        if (stopped) {
            return;
        }
        boolean state = e.getType() == Event.EventType.None;
        boolean terminal = state && (e.getState() == Event.KeeperState.Expired
                || e.getState() == Event.KeeperState.Closed);
        if (terminal) {
            ended = e.getState().name();
            notifyAll();
        }
        if (hideExpiry && e.getState() == Event.KeeperState.Expired) {
            return;
        }
        Map<String, Object> v = new LinkedHashMap<>();
        if (state) {
            v.put("state", e.getState().name());
        } else {
            v.put("type", e.getType().name());
            v.put("path", e.getPath());
        }
        if (inFlight != null) {
            v.put("during", inFlight.f());
            held.add(v);
        } else {
            record(v);
        }
    }

    private void record(Map<String, Object> event) {
        Op i = recorder.invoke(process, "event", null, event);
        recorder.complete(i, OpType.OK, event, null);
    }

    /** Whether the client delivered Expired or Closed. */
    synchronized boolean ended() {
        return ended != null;
    }

    /**
     * Waits, at most {@code boundMillis}, until the session ended (Expired or Closed delivered) or {@code settled}
     * says there is nothing more to wait for.
     */
    synchronized void awaitEnd(long boundMillis, BooleanSupplier settled) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMillis);
        while (ended == null && !settled.getAsBoolean()) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return;
            }
            wait(Math.min(left, 50));
        }
    }

    /** Records nothing more (events held behind an operation in flight are dropped with it). */
    synchronized void stop() {
        stopped = true;
        held.clear();
    }
}
