package io.zkchaos.harness.run;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A workload that needs no server: one process writes 1, 2, 3 ... to key {@code k} and reads each back, every 20 ms,
 * for the run's client time; its final phase reads once as the harness does. Its phases go to the backend's
 * timeline. It can be told to throw in its main phase after a while, or to record nothing at all.
 */
final class ScriptedWorkload implements Workload {

    private final List<String> events;
    private final long throwAfterMillis;
    private final boolean silent;

    /** @param throwAfterMillis throw from {@link #run} this long after it began; negative: never */
    ScriptedWorkload(List<String> events, long throwAfterMillis, boolean silent) {
        this.events = events;
        this.throwAfterMillis = throwAfterMillis;
        this.silent = silent;
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public void setup(Target target) {
        events.add("setup");
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        events.add("run");
        long start = System.nanoTime();
        long value = 0;
        while (System.nanoTime() - start < ctx.duration().toNanos()) {
            if (throwAfterMillis >= 0 && System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(throwAfterMillis)) {
                events.add("run threw");
                throw new IllegalStateException("the workload broke");
            }
            if (!silent) {
                value++;
                Op w = ctx.recorder().invoke(0, "write", "k", value);
                ctx.recorder().complete(w, OpType.OK, null, null);
                Op r = ctx.recorder().invoke(0, "read", "k", null);
                ctx.recorder().complete(r, OpType.OK, value, null);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        events.add("run done");
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) {
        events.add("final");
        Op r = recorder.invoke(1_000_000, "final-read", "k", null);
        recorder.complete(r, OpType.OK, Map.of("node", "n1"), null);
    }

    @Override
    public void teardown(Target target) {
        events.add("teardown");
    }
}
