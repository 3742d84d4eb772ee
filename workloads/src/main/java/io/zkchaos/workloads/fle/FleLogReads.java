package io.zkchaos.workloads.fle;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.client.IndeterminateException;
import io.zkchaos.fle.client.LogEntry;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of the fle nodes' committed logs, for the {@code log-prefix} checker: {@code read-log} ok with
 * {@code {"node": "n1", "log": [[zxid, {"op": ...}], ...]}} (see docs/history-conventions.md). Each read is its own
 * process (numbers far above the clients'), and goes through the node's client link like every client call. A node
 * that does not serve (a restarted node does not know yet which of its proposals are committed) rejects the read:
 * {@code fail}; no answer in time is {@code info}.
 *
 * <p>Reads during the run ({@link #every}) let the checker see a node's committed log before a fault and again after
 * it: a later read that lacks what an earlier one had is a committed entry rolled back.
 */
public final class FleLogReads {

    /** Final log reads use process numbers from here up. */
    public static final int FINAL_PROCESS_BASE = 1_100_000;
    /** Log reads during the run use process numbers from here up. */
    public static final int DURING_PROCESS_BASE = 1_200_000;

    private static final Logger LOG = LoggerFactory.getLogger(FleLogReads.class);

    private FleLogReads() {
    }

    /** Reads {@code node}'s committed log once, recorded by {@code process}. */
    public static void readOnce(FleNodes.Node node, Duration timeout, HistoryRecorder recorder, int process) {
        Op invoke = recorder.invoke(process, "read-log", null, null);
        try (FleClient c = new FleClient(node.address(), timeout)) {
            List<LogEntry> log = c.readLog();
            List<Object> entries = new ArrayList<>(log.size());
            for (LogEntry e : log) {
                entries.add(e.asData());
            }
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("node", node.name());
            value.put("log", entries);
            recorder.complete(invoke, OpType.OK, value, null);
        } catch (FleException e) {
            recorder.complete(invoke, e instanceof IndeterminateException ? OpType.INFO : OpType.FAIL, null,
                    node.name() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            recorder.complete(invoke, OpType.INFO, null, node.name() + ": " + e);
        }
    }

    /** How long a final read waits for its node to serve. */
    public static final Duration FINAL_WAIT = Duration.ofSeconds(30);

    /**
     * Reads every node's committed log once, in the target's order, with process numbers from {@code first}, each
     * once its node serves (at most {@link #FINAL_WAIT}; then it is read all the same, and says why not).
     */
    public static void readEveryNode(Target target, HistoryRecorder recorder, int first) throws InterruptedException {
        int process = first;
        for (FleNodes.Node node : FleNodes.of(target)) {
            FleNodes.awaitServing(node, FINAL_WAIT);
            readOnce(node, target.requestTimeout(), recorder, process++);
        }
    }

    /**
     * Reads every node's log every {@code every} on a thread of its own until closed; {@link Periodic#close()}
     * waits for the read in progress, so every invoke is completed when it returns.
     */
    public static Periodic every(Target target, HistoryRecorder recorder, Duration every) {
        Periodic p = new Periodic(target, recorder, every);
        p.thread.start();
        return p;
    }

    /** A running periodic reader. */
    public static final class Periodic implements AutoCloseable {
        private final Thread thread;
        private volatile boolean stop;

        private Periodic(Target target, HistoryRecorder recorder, Duration every) {
            AtomicInteger process = new AtomicInteger(DURING_PROCESS_BASE);
            this.thread = new Thread(() -> {
                try {
                    while (!stop) {
                        TimeUnit.NANOSECONDS.sleep(every.toNanos());
                        for (FleNodes.Node node : FleNodes.of(target)) {
                            if (stop) {
                                return;
                            }
                            readOnce(node, target.requestTimeout(), recorder, process.getAndIncrement());
                        }
                    }
                } catch (InterruptedException e) {
                    // closed while waiting for the next round
                }
            }, "fle-log-reads");
            this.thread.setDaemon(true);
        }

        @Override
        public void close() {
            stop = true;
            thread.interrupt(); // wakes the wait; a read in progress ends within the request timeout
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.warn("interrupted waiting for the log reader to finish");
            }
        }
    }
}
