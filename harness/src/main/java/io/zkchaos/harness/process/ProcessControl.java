package io.zkchaos.harness.process;

import io.zkchaos.nemesis.NodeState;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the harness did to a {@link ManagedProcess} last, and the faults it makes on it: the one place where start,
 * SIGKILL, SIGSTOP, SIGCONT and a clean stop become node states, the same for servers and client processes. Every
 * action is idempotent (killing a process that is down does nothing) and has taken effect when it returns: a kill
 * has been reaped, a pause sent. A process that ends by itself is {@link NodeState#DOWN} from then on.
 *
 * <p>A {@link Listener} may be told of every start and end ({@link #listen}): each end says whether the harness's own
 * action ended the process (a kill, a stop, retiring it) or it {@link Cause#ENDED ended by itself}, with its exit code.
 * An end by itself is noticed whenever the state is read ({@link #state()}, and before every action), so whoever wants
 * to learn of it promptly reads the state often (the servers' {@code ServerWatch} does, every 200 ms).
 *
 * <p>Thread-safe: every method is synchronized, so faults on one process are applied one at a time.
 *
 * @param <P> the kind of process, for what is particular to it ({@link #process()})
 */
public final class ProcessControl<P extends ManagedProcess> {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessControl.class);

    /** How long a process may take to end after SIGKILL, or after SIGTERM before it gets SIGKILL. */
    static final Duration EXIT_BOUND = Duration.ofSeconds(10);

    /** Why a process started or ended. */
    public enum Cause {
        /** Its first start. */
        STARTED,
        /** A start after it had ended (a restart, a heal). */
        RESTARTED,
        /** {@link #kill()}: SIGKILL. */
        KILLED,
        /** {@link #stop()}: SIGTERM, then SIGKILL past the bound. */
        STOPPED,
        /** {@link #retire}: killed for good, its owner closing. */
        RETIRED,
        /** It ended without the harness's asking. */
        ENDED;

        /** Whether this is an end (the others: a start). */
        public boolean isEnd() {
            return this != STARTED && this != RESTARTED;
        }
    }

    /**
     * A start or an end of the process.
     *
     * @param cause    why
     * @param exitCode for an end: the exit code ({@link ManagedProcess#exitCode()}: 128 + N when signal N ended it),
     *                 null when unknown; null for a start
     */
    public record Change(Cause cause, Integer exitCode) {
    }

    /**
     * Told of every {@link Change}, on the thread that made or noticed it, while the control's lock is held (so that
     * changes come in the order they happened): it must be quick and must not act on this process. What it throws is
     * logged and does not undo the change.
     */
    @FunctionalInterface
    public interface Listener {
        void changed(ProcessControl<?> control, Change change);
    }

    private final P process;
    private NodeState state = NodeState.DOWN;
    private volatile Listener listener;
    /** Whether it was ever started: a later start is a restart. */
    private boolean startedBefore;
    /** The action under way that may end the process (so that its end is not taken for one by itself); else null. */
    private Cause ending;
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

    /** Tells {@code l} of every start and end from now on (one listener; null: none). */
    public void listen(Listener l) {
        this.listener = l;
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
        tell(new Change(startedBefore ? Cause.RESTARTED : Cause.STARTED, null));
        startedBefore = true;
    }

    /** SIGKILL (it ends a paused process too), then waits until the process is gone; no-op if it is down. */
    public synchronized void kill() {
        kill(Cause.KILLED);
    }

    private void kill(Cause cause) {
        refresh();
        if (state == NodeState.DOWN) {
            return;
        }
        ending = cause;
        try {
            process.signal(Signal.KILL);
            awaitExit("SIGKILL");
        } finally {
            ending = null;
        }
    }

    /** SIGTERM (after SIGCONT if paused), SIGKILL if it has not ended within 10 s; no-op if it is down. */
    public synchronized void stop() {
        refresh();
        if (state == NodeState.DOWN) {
            return;
        }
        ending = Cause.STOPPED;
        try {
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
        } finally {
            ending = null;
        }
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
        kill(Cause.RETIRED);
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

    /**
     * Notices a process that ended (by itself, or by the harness's hand) and tells the listener why. A process that a
     * kill found already ending with another code than SIGKILL's ended by itself (it was on its way out when the
     * signal came: {@link ManagedProcess#signal} does nothing then).
     */
    private void refresh() {
        if (state != NodeState.DOWN && !process.alive()) {
            state = NodeState.DOWN;
            Integer exit = process.exitCode();
            Cause cause = ending == null ? Cause.ENDED : ending;
            if (cause != Cause.STOPPED && cause != Cause.ENDED && exit != null && exit >= 0 && exit != ExitStatus.KILLED) {
                cause = Cause.ENDED;
            }
            tell(new Change(cause, exit));
        }
    }

    private void tell(Change change) {
        Listener l = listener;
        if (l == null) {
            return;
        }
        try {
            l.changed(this, change);
        } catch (RuntimeException e) {
            LOG.warn("telling of {} {}: {}", name(), change, e.toString());
        }
    }
}
