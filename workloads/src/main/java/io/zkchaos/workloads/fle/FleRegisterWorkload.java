package io.zkchaos.workloads.fle;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.workloads.Client;
import io.zkchaos.workloads.ClientWorkload;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.register.RegisterWorkload;
import io.zkchaos.workloads.register.RegisterWorkload.ReadMode;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code register} against the fle nodes, through their key-value API: the same operations as the ZooKeeper
 * register ({@link RegisterWorkload#mix}: {@code write v}, {@code cas [expected new]}, {@code read} or
 * {@code sync-read} on keys {@code r0 ..}, values unique), recorded the same way, so the same {@code zk-read-model}
 * checker judges it: a plain {@code get} is served by the process's own node (sequentially consistent, like a
 * ZooKeeper read), a {@code syncGet} goes through the leader and the log (linearizable); {@code put} and a real
 * {@code cas} (the nodes compare values) are linearizable.
 *
 * <p>Each process is one client of one node ({@link FleNodes#forProcess}). Outcomes: {@link FleOutcomes}. A fresh
 * ensemble holds no key, so there is nothing to set up: every key starts absent ({@code null}). Besides, the
 * committed log of every node is read every {@link #LOG_READ_EVERY} and at the end ({@link FleLogReads}).
 */
public final class FleRegisterWorkload extends ClientWorkload {

    /** How often every node's committed log is read during the run. */
    public static final Duration LOG_READ_EVERY = Duration.ofSeconds(10);

    private final int keys;
    private final ReadMode readMode;

    public FleRegisterWorkload(int keys, ReadMode readMode) {
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be at least 1, got " + keys);
        }
        this.keys = keys;
        this.readMode = Objects.requireNonNull(readMode, "readMode");
    }

    @Override
    public String name() {
        return "register";
    }

    @Override
    public void setup(Target target) {
        // A new ensemble: every key is absent, the register's initial value.
    }

    @Override
    protected Gen<Invocation> generator() {
        return RegisterWorkload.mix(keys, readMode, 2, 1, 1);
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        try (FleLogReads.Periodic reads = FleLogReads.every(ctx.target(), ctx.recorder(), LOG_READ_EVERY)) {
            super.run(ctx);
        }
    }

    @Override
    protected Client open(int process, Target target) {
        FleClient client = new FleClient(FleNodes.forProcess(target, process).address(), target.requestTimeout());
        return new Client() {
            @Override
            public Result invoke(Invocation op) {
                try {
                    return switch (op.f()) {
                        case "read" -> Result.ok(FleOutcomes.decode(client.get(op.key())));
                        case "sync-read" -> Result.ok(FleOutcomes.decode(client.syncGet(op.key())));
                        case "write" -> {
                            client.put(op.key(), op.value().toString());
                            yield Result.ok(op.value());
                        }
                        case "cas" -> {
                            List<?> args = (List<?>) op.value();
                            client.cas(op.key(), args.get(0).toString(), args.get(1).toString());
                            yield Result.ok(args);
                        }
                        default -> Result.fail("unknown function " + op.f());
                    };
                } catch (FleException e) {
                    return FleOutcomes.of(e);
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
        FleLogReads.readEveryNode(target, recorder, FleLogReads.FINAL_PROCESS_BASE);
    }

    @Override
    public void teardown(Target target) {
        // The nodes' data stays in the run directory for inspection.
    }
}
