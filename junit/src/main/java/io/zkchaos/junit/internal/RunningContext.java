package io.zkchaos.junit.internal;

import io.zkchaos.junit.ChaosClient;
import io.zkchaos.junit.ChaosContext;
import io.zkchaos.junit.ChaosRecorder;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.Map;

/**
 * The {@link ChaosContext} of one chaos test. Made when JUnit resolves the method's parameter, before the ensemble
 * exists; bound to the live run when the runner starts the workload's main phase, which is when the method body
 * runs. Asking for the ensemble outside that throws, naming why.
 */
final class RunningContext implements ChaosContext {

    private record Live(Target target, GuardedRecorder recorder, long seed, ClientDeadline deadline) {
    }

    private final int concurrency;
    private final Duration openTimeout;
    private volatile Live live;

    /**
     * @param concurrency how many client processes {@link #runClients} runs
     * @param openTimeout how long one of them may go on failing to open its client before the test fails
     */
    RunningContext(int concurrency, Duration openTimeout) {
        this.concurrency = concurrency;
        this.openTimeout = openTimeout;
    }

    /** The main phase begins: the ensemble serves, the nemesis runs, the clients go on until {@code ctx.deadline()}. */
    void bind(RunContext ctx) {
        live = new Live(ctx.target(), new GuardedRecorder(ctx.recorder()), ctx.seed(), ctx.deadline());
    }

    private Live live() {
        Live l = live;
        if (l == null) {
            throw new IllegalStateException("the ensemble runs only while the @ChaosTest method's body runs");
        }
        return l;
    }

    GuardedRecorder guardedRecorder() {
        return live().recorder();
    }

    /** How the body's operations ended; none when the body never ran. */
    OperationTally tally() {
        Live l = live;
        return l == null ? OperationTally.NONE : l.recorder().tally();
    }

    /** How long a client process may go on failing to open before the test fails. */
    Duration openTimeout() {
        return openTimeout;
    }

    @Override
    public String connectString() {
        return live().target().connectString();
    }

    @Override
    public Map<String, String> servers() {
        return live().target().servers();
    }

    @Override
    public Duration sessionTimeout() {
        return live().target().sessionTimeout();
    }

    /** How long one client call may take (ZooKeeper's request timeout the harness uses); bounds a step. */
    Duration requestTimeout() {
        return live().target().requestTimeout();
    }

    @Override
    public int concurrency() {
        return concurrency;
    }

    @Override
    public boolean running() {
        return !live().deadline().passed();
    }

    @Override
    public Duration remaining() {
        return Duration.ofNanos(live().deadline().remainingNanos());
    }

    @Override
    public long seed() {
        return live().seed();
    }

    @Override
    public ChaosRecorder recorder() {
        return live().recorder();
    }

    @Override
    public void runClients(ChaosClient.Factory clients) throws InterruptedException {
        new ClientLoop(this, clients).run();
    }
}
