package io.zkchaos.harness.process;

import io.zkchaos.nemesis.NodeState;
import java.time.Duration;

/**
 * What the harness did to a {@link ManagedProcess} last, and the faults it makes on it: the one place where start,
 * SIGKILL, SIGSTOP, SIGCONT and a clean stop become node states, the same for servers and client processes. Every
 * action is idempotent (killing a process that is down does nothing) and has taken effect when it returns: a kill
 * has been reaped, a pause sent. A process that ends by itself is {@link NodeState#DOWN} from then on.
 *
 * <p>Thread-safe: every method is synchronized, so faults on one process are applied one at a time.
 *
 * @param <P> the kind of process, for what is particular to it ({@link #process()})
 */
public final class ProcessControl<P extends ManagedProcess> {

    /** How long a process may take to end after SIGKILL, or after SIGTERM before it gets SIGKILL. */
    static final Duration EXIT_BOUND = Duration.ofSeconds(10);

    private final P process;
    private NodeState state = NodeState.DOWN;
    /** Set when its owner closes (why, for the error): a start that comes later (a nemesis still running) must not spawn it again. */
    private String retired;

    public ProcessControl(P process) {
        this.process = process;
    }

    /** The process itself. */
    public P process() {
        return process;
    }

    public String name() {
        return process.name();
    }

    /** What the harness did to the process last ({@link NodeState#DOWN} once it ended by itself). */
    public synchronized NodeState state() {
        refresh();
        return state;
    }

    /**
     * Starts the process if it is down.
     *
     * @throws IllegalStateException once {@link #retire retired}
     */
    public synchronized void start() {
        if (retired != null) {
            throw new IllegalStateException("cannot start " + name() + ": " + retired);
        }
        refresh();
        if (state != NodeState.DOWN) {
            return;
        }
        process.start();
        state = NodeState.RUNNING;
    }

    /** SIGKILL (it ends a paused process too), then waits until the process is gone; no-op if it is down. */
    public synchronized void kill() {
        refresh();
        if (state == NodeState.DOWN) {
            return;
        }
        process.signal(Signal.KILL);
        awaitExit("SIGKILL");
    }

    /** SIGTERM (after SIGCONT if paused), SIGKILL if it has not ended within 10 s; no-op if it is down. */
    public synchronized void stop() {
        refresh();
        if (state == NodeState.DOWN) {
            return;
        }
        if (state == NodeState.PAUSED) {
            process.signal(Signal.CONT);
        }
        process.signal(Signal.TERM);
        try {
            if (process.awaitExit(EXIT_BOUND)) {
                refresh();
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.signal(Signal.KILL);
        awaitExit("SIGTERM and SIGKILL");
    }

    /** SIGSTOP a running process; no-op otherwise. */
    public synchronized void pause() {
        refresh();
        if (state != NodeState.RUNNING) {
            return;
        }
        process.signal(Signal.STOP);
        state = NodeState.PAUSED;
    }

    /** SIGCONT a paused process; no-op otherwise. */
    public synchronized void resume() {
        refresh();
        if (state != NodeState.PAUSED) {
            return;
        }
        process.signal(Signal.CONT);
        state = NodeState.RUNNING;
    }

    /**
     * Kills the process for good: a {@link #start()} after this fails, saying {@code why}. Called when its owner
     * closes; a start in progress (a nemesis restarting the node while a shutdown hook closes the cluster) finishes
     * first and its process is killed with the rest.
     */
    public synchronized void retire(String why) {
        retired = why;
        kill();
    }

    /**
     * Waits until the process is gone after a SIGKILL. Not cut short by an interrupt (the flag is kept for the caller):
     * a kill that was sent is seen through, so that the state says DOWN once this returns. Cut short, a process still
     * dying would read RUNNING, and a heal that starts every node that is down would pass it by (seen: a rolling restart
     * interrupted at the end of a run left its node down after the final heal).
     */
    private void awaitExit(String after) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + EXIT_BOUND.toNanos();
        try {
            while (true) {
                try {
                    long left = deadline - System.nanoTime();
                    if (!process.awaitExit(Duration.ofNanos(Math.max(0, left)))) {
                        throw new IllegalStateException(name() + " (pid " + process.pid() + ") still alive "
                                + EXIT_BOUND.toSeconds() + " s after " + after);
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        refresh();
    }

    /** Notices a process that ended (by itself, or by the harness's hand). */
    private void refresh() {
        if (state != NodeState.DOWN && !process.alive()) {
            state = NodeState.DOWN;
        }
    }
}
