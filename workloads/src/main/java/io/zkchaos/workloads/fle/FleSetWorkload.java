package io.zkchaos.workloads.fle;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.client.IndeterminateException;
import io.zkchaos.workloads.Client;
import io.zkchaos.workloads.ClientWorkload;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code set} against the fle nodes: each {@code add e} is a create of key {@code e-<e>} — a compare-and-set
 * expecting the key absent, the nodes' own create — so ok: it is in the log, fail: certainly not (the node does not
 * serve, or the key existed), info: unknown.
 *
 * <p>Final phase: for every node, one new process reads the node's set through its client link: a
 * {@code syncGet} first (the node catches up with everything committed before it, so a node that is only behind
 * does not look like one that lost a commit — ZooKeeper's set does {@code sync()} the same way), then a plain
 * {@code get} of every element ever invoked from the node's own state, recorded as {@code read} ok
 * {@code {"node": "n1", "values": [...]}} for {@code no-lost-commit}. Then every node's committed log is read for
 * {@code log-prefix}, as during the run (every {@link FleRegisterWorkload#LOG_READ_EVERY}).
 */
public final class FleSetWorkload extends ClientWorkload {

    static final String PREFIX = "e-";
    /** Final set reads use process numbers from here up (as ZooKeeper's set does). */
    public static final int FINAL_PROCESS_BASE = 1_000_000;

    /** The largest element any add was invoked with: what a final read must look up. */
    private final AtomicLong largest = new AtomicLong();

    @Override
    public String name() {
        return "set";
    }

    @Override
    public void setup(Target target) {
        // A new ensemble: the set is empty.
    }

    /** {@code add 1}, {@code add 2}, ...: unique elements in order. */
    @Override
    protected Gen<Invocation> generator() {
        return Gens.from(() -> {
            long[] next = {0};
            return random -> new Invocation("add", null, ++next[0]);
        });
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        try (FleLogReads.Periodic reads = FleLogReads.every(ctx.target(), ctx.recorder(),
                FleRegisterWorkload.LOG_READ_EVERY)) {
            super.run(ctx);
        }
    }

    @Override
    protected Client open(int process, Target target) {
        FleClient client = new FleClient(FleNodes.forProcess(target, process).address(), target.requestTimeout());
        return new Client() {
            @Override
            public Result invoke(Invocation op) {
                if (!op.f().equals("add")) {
                    return Result.fail("unknown function " + op.f());
                }
                long e = (Long) op.value();
                largest.accumulateAndGet(e, Math::max);
                try {
                    client.cas(PREFIX + e, null, Long.toString(e));
                    return Result.ok(e);
                } catch (FleException ex) {
                    return FleOutcomes.of(ex);
                }
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException {
        int process = FINAL_PROCESS_BASE;
        for (FleNodes.Node node : FleNodes.of(target)) {
            FleNodes.awaitServing(node, FleLogReads.FINAL_WAIT);
            readSet(node, target, recorder, process++);
        }
        FleLogReads.readEveryNode(target, recorder, FleLogReads.FINAL_PROCESS_BASE);
    }

    private void readSet(FleNodes.Node node, Target target, HistoryRecorder recorder, int process) {
        Op invoke = recorder.invoke(process, "read", null, null);
        try (FleClient c = new FleClient(node.address(), target.requestTimeout())) {
            c.syncGet(PREFIX + 0); // catch up: everything committed before this point is applied here after it
            List<Long> values = new ArrayList<>();
            for (long e = 1; e <= largest.get(); e++) {
                String v = c.get(PREFIX + e);
                if (v != null) {
                    values.add(Long.parseLong(v));
                }
            }
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("node", node.name());
            value.put("values", values);
            recorder.complete(invoke, OpType.OK, value, null);
        } catch (FleException e) {
            recorder.complete(invoke, e instanceof IndeterminateException ? OpType.INFO : OpType.FAIL, null,
                    "server " + node.name() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            recorder.complete(invoke, OpType.INFO, null, "server " + node.name() + ": " + e);
        }
    }

    @Override
    public void teardown(Target target) {
        // The nodes' data stays in the run directory for inspection.
    }
}
