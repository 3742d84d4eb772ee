package io.zkchaos.workloads;

import io.zkchaos.checkers.history.HistoryRecorder;

/**
 * One kind of client work against a ZooKeeper ensemble, recorded as a Jepsen-style history.
 *
 * <p>The run loop calls, in order: {@link #setup}, {@link #run} (while the nemesis acts), then — after the nemesis
 * healed and the cluster had time to recover — {@link #finalPhase}, and always {@link #teardown}.
 *
 * <p>Contracts for every method:
 * <ul>
 *   <li>never block forever: every ZooKeeper call is bounded by {@link Target#requestTimeout()};</li>
 *   <li>every recorded invoke gets exactly one completion before {@link #run} or {@link #finalPhase} returns:
 *       {@code ok} if it happened, {@code fail} only if it certainly did not, {@code info} when unknown
 *       (connection loss, session expiry, timeout, any unexpected error);</li>
 *   <li>a process whose operation ended {@code info} is retired: its session is closed and a new process number
 *       with a new session takes its place (one process = one session).</li>
 * </ul>
 */
public interface Workload {

    /** The name the CLI takes ({@code register}, {@code set}, {@code election}, ...). */
    String name();

    /**
     * Creates what the workload needs (root znodes, keys). Throws if the ensemble cannot be prepared. Idempotent:
     * the run loop calls it again after it threw (a first client may not connect in time on a loaded machine).
     */
    void setup(Target target) throws Exception;

    /**
     * The main phase: runs the clients until {@code ctx} says stop, recording every operation. Returns once every
     * client has stopped and every invoke is completed.
     */
    void run(RunContext ctx) throws InterruptedException;

    /** After the heal: final reads (for example, one per server, each through a client connected to it alone). */
    void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException;

    /** Best effort cleanup; must not throw. */
    void teardown(Target target);
}
