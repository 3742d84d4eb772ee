package io.zkchaos.junit;

import java.time.Duration;
import java.util.Map;

/**
 * What a {@link ChaosTest} method's body gets: where the ensemble is, where to record, and how long to go on. Valid
 * while the method runs; thread-safe.
 *
 * <p>Two ways to run clients:
 * <ul>
 *   <li>{@link #runClients}: {@link #concurrency()} processes, each with its own client, each doing one operation
 *       after another through its {@link ChaosProcess} until the run ends; a process whose operation ended
 *       {@code info} is retired and replaced, as Jepsen does. This is the usual way.</li>
 *   <li>{@link #recorder()}: record from threads of your own, naming the process of each operation.</li>
 * </ul>
 */
public interface ChaosContext {

    /** The whole ensemble as ZooKeeper's client takes it ({@code host:port,host:port,...}), through the faults. */
    String connectString();

    /** Each server by name ({@code n1}, {@code n2}, ...) with its own {@code host:port}, through the faults. */
    Map<String, String> servers();

    /** The session timeout clients should ask for (the servers allow it). */
    Duration sessionTimeout();

    /** How many client processes {@link #runClients} runs at once. */
    int concurrency();

    /** True until the main phase and the recovery after the final heal are over: clients stop then. */
    boolean running();

    /** How long the clients have left (zero once {@link #running()} is false). */
    Duration remaining();

    /** The seed of this run (printed with the run; {@code zkchaos.chaos.seed} or {@link ChaosTest#seed} repeat it). */
    long seed();

    /** Records operations of processes the caller runs itself. */
    ChaosRecorder recorder();

    /**
     * Runs {@link #concurrency()} client processes until {@link #running()} turns false, and returns when all have
     * stopped. Each process opens its own client with {@code clients}, then calls {@link ChaosClient#step} again
     * and again. A step that ends in {@code info} (an exception from inside {@link ChaosProcess#call}) retires the
     * process: its client is closed, and a new process with the next free number (old number + concurrency) opens
     * a new one. So does a step that throws outside an operation (the client's state is unknown). A client that
     * cannot be opened is tried again after 200 ms while time remains, for at most {@link ChaosTest#openTimeout}:
     * a process whose opens have all failed for longer stops the clients and fails the test with the last error, and
     * so does a run in which no client could be opened at all. The failure is an {@link AssertionError}, which a
     * {@code catch (Exception e)} in the body lets through.
     *
     * @throws InterruptedException if the test thread is interrupted (the clients are stopped first)
     */
    void runClients(ChaosClient.Factory clients) throws InterruptedException;
}
