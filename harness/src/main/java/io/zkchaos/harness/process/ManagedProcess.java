package io.zkchaos.harness.process;

import java.time.Duration;

/**
 * A process the harness starts and owns, wherever it runs: what {@link ProcessControl} needs to kill, pause, resume,
 * stop and restart it. Each {@link #start()} begins a new incarnation of the same process (same name, same files);
 * the methods speak of the incarnation that runs now.
 *
 * <p>{@link JvmProcess} is the JVM on this machine (ZooKeeper servers, the fle nodes, client processes); a process
 * on another host would implement the same over a remote shell ({@link Signal#command} is the command to send).
 * Implementations are thread-safe.
 */
public interface ManagedProcess {

    /** A name for people and error messages ({@code n1}, {@code c0}). */
    String name();

    /**
     * Starts a new incarnation. Called only when none runs ({@link #alive()} is false).
     *
     * @throws java.io.UncheckedIOException naming the command when it cannot be started
     */
    void start();

    /** The pid of the running incarnation, or -1 when none runs. */
    long pid();

    /**
     * Whether an incarnation runs (a frozen one too). Noticing that it has ended records its {@link #exitCode()} and
     * removes what marks it as running (its pid file).
     */
    boolean alive();

    /**
     * Sends {@code signal} to the running incarnation. {@link Signal#KILL} and {@link Signal#TERM} to one that has just
     * ended do nothing (it is gone, as they ask).
     *
     * @throws IllegalStateException if the signal could not be sent, or none runs to stop or continue
     */
    void signal(Signal signal);

    /**
     * Waits up to {@code bound} until the running incarnation has ended.
     *
     * @return whether none runs now
     */
    boolean awaitExit(Duration bound) throws InterruptedException;

    /** The exit code of the incarnation that ended last, or null (none ended, or one runs). */
    Integer exitCode();

    /** The last {@code lines} lines of the process's log (every incarnation's), for error messages. */
    String logTail(int lines);
}
