package io.zkchaos.nemesis;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.OpType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a nemesis schedule on its own thread and records every action in the history as the {@code nemesis}
 * process: an {@code invoke} when the action starts, an {@code info} with what it really did (a {@link FaultRecord})
 * when it is done, or {@code {"error": ..., "outcome": "could-not-act"}} when it could not act (no leader to aim at;
 * the fault threw {@link IllegalStateException}, or {@link UnsupportedOperationException} for what this system cannot
 * do) and {@code "failed"} when it broke otherwise. Stopping a fault is recorded as
 * {@code heal}. At the end of the main phase, and at {@link #close()} whatever happened, everything is healed
 * ({@link Nemesis#healAll()}), once.
 *
 * <p>The schedule is a pure generator started with the run's seed: the same seed gives the same fault operations at
 * the same times (the nodes they hit come from the target's {@link Choices}: seeded, or repeated from the aims of an
 * executed schedule, {@link io.zkchaos.nemesis.schedule.FaultSchedule#gen()}). {@link #actions()} is what it did,
 * from which {@link io.zkchaos.nemesis.schedule.FaultSchedule#executed} makes the schedule a replay executes.
 */
public final class NemesisDriver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NemesisDriver.class);

    /**
     * One action the driver took, for the schedule file. Times are on the schedule's clock: since the driver started
     * (the main phase's beginning).
     *
     * @param atMillis    when it was done
     * @param step        {@code start}, {@code stop}, {@code trigger} (a protocol trigger fired) or {@code final-heal}
     * @param fault       the fault's name ({@code all} for the final heal)
     * @param did         what was really done, or null when it could not act
     * @param error       why it could not act, or null
     * @param beganMillis when it began (a trigger: when it fired)
     */
    public record Action(long atMillis, String step, String fault, FaultRecord did, String error, long beganMillis) {
    }

    /**
     * Told when the final heal begins and when it has ended, on the thread that heals: a run keeps its clients
     * working while the heal goes on, so that their recovery time starts when it is done.
     */
    public interface FinalHealListener {
        void began();

        void ended();
    }

    /** The {@code outcome} of an action that threw: it could not act now (no leader to aim at) or it broke. */
    public static final String COULD_NOT_ACT = "could-not-act";
    public static final String FAILED = "failed";

    private final Nemesis nemesis;
    private final HistoryRecorder recorder;
    private final Gen<FaultOp> schedule;
    private final long seed;
    private final long mainPhaseNanos;
    /** The faults in force now, in start order (more than one with {@code --compose}). */
    private final Set<String> active = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
    private final List<Action> actions = new ArrayList<>();
    /** The fault the thread is applying now (its start, its stop, or {@code final-heal}), while it acts. */
    private final ThreadLocal<String> acting = new ThreadLocal<>();
    /** The schedule's clock starts here: when the driver was made, then again when it starts. */
    private volatile long startNanos = System.nanoTime();
    private boolean finalHealDone;
    private volatile FinalHealListener finalHealListener;
    private Thread thread;
    /**
     * Guards the hand-over between the schedule's end and {@link #close}: once the driver's thread has begun the final
     * heal it is not interrupted (an interrupt cuts short what the heal waits on, such as a container engine's start
     * call, and a node would stay down); once close has begun, the thread leaves the final heal to close.
     */
    private final Object endLock = new Object();
    private boolean healingOnDriverThread;
    private boolean closing;

    /**
     * @param nemesis   what acts
     * @param schedule  the fault operations (empty: no faults, only the final heal)
     * @param seed      the seed the schedule is started with
     * @param recorder  where the actions are recorded
     * @param mainPhase how long faults go on; then everything is healed
     */
    public NemesisDriver(Nemesis nemesis, Optional<Gen<FaultOp>> schedule, long seed, HistoryRecorder recorder,
                         Duration mainPhase) {
        this.nemesis = nemesis;
        this.schedule = schedule.orElse(null);
        this.seed = seed;
        this.recorder = recorder;
        this.mainPhaseNanos = mainPhase.toNanos();
        nemesis.onEvent(this::event);
    }

    /**
     * Records what the nemesis did on its own (a protocol trigger fired at a packet): an {@code invoke}/{@code info}
     * pair of {@code f = "trigger"}, at once, from the thread that reports it.
     */
    private void event(FaultRecord did) {
        recorder.nemesis(OpType.INVOKE, "trigger", did.fault());
        recorder.nemesis(OpType.INFO, "trigger", did);
        synchronized (this) {
            long at = sinceStart();
            actions.add(new Action(at, "trigger", did.fault(), did, null, at));
        }
    }

    /**
     * Starts the schedule on a daemon thread. Faults go on for the main phase; then the thread heals everything
     * (the clients go on working, so what follows the heal is observed too).
     */
    public void start() {
        startNanos = System.nanoTime();
        thread = new Thread(this::loop, "nemesis");
        thread.setDaemon(true);
        thread.start();
    }

    /** Who is told when the final heal begins and ends (one; set before {@link #start()}). */
    public void onFinalHeal(FinalHealListener listener) {
        this.finalHealListener = listener;
    }

    /** The faults in force now (started, and acted), in start order; empty when none is. */
    public List<String> activeFaults() {
        synchronized (active) {
            return List.copyOf(active);
        }
    }

    /**
     * The fault the calling thread is applying now: a fault's name during its start or its stop, {@code final-heal}
     * during the final heal; null when the thread applies none (a protocol trigger firing on a proxy's thread is not
     * told). For what the nemesis' node actions record about themselves.
     */
    public String acting() {
        return acting.get();
    }

    /** Every action so far, in order. */
    public synchronized List<Action> actions() {
        return List.copyOf(actions);
    }

    private void loop() {
        long t0 = startNanos;
        try {
            Gen.Cursor<FaultOp> cursor = schedule == null ? null : schedule.start(seed);
            while (!Thread.currentThread().isInterrupted()) {
                long now = System.nanoTime() - t0;
                if (now >= mainPhaseNanos) {
                    break;
                }
                Gen.Next<FaultOp> next = cursor == null ? new Gen.Next.Done<>() : cursor.next(now);
                if (next instanceof Gen.Next.Emit<FaultOp> emit) {
                    apply(emit.value());
                } else {
                    long due = next instanceof Gen.Next.Pending<FaultOp> p ? Math.min(p.atNanos(), mainPhaseNanos)
                            : mainPhaseNanos;
                    long wait = due - (System.nanoTime() - t0);
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                }
            }
            synchronized (endLock) {
                if (closing) {
                    return; // close heals, on its own thread
                }
                healingOnDriverThread = true;
            }
            finalHeal();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void apply(FaultOp op) {
        if (op.kind() == FaultOp.Kind.START) {
            if (act("start", op.fault(), op.fault(), () -> nemesis.invoke(op))) {
                active.add(op.fault());
            }
        } else {
            act("stop", op.fault(), "heal", () -> nemesis.invoke(op));
            active.remove(op.fault());
        }
    }

    /** Does one action and records it; whether it acted (false: it could not act, or broke). */
    private boolean act(String step, String faultName, String f, Supplier<FaultRecord> action) {
        long began = sinceStart();
        recorder.nemesis(OpType.INVOKE, f, faultName);
        FaultRecord did = null;
        String error = null;
        String outcome = null;
        acting.set("final-heal".equals(step) ? step : faultName);
        try {
            did = action.get();
        } catch (IllegalStateException | UnsupportedOperationException e) {
            // the faults' contract: it cannot act now (no leader to aim at) or on this system (no protocol taps)
            error = message(e);
            outcome = COULD_NOT_ACT;
            LOG.info("nemesis {} {} could not act: {}", step, faultName, error);
        } catch (RuntimeException e) {
            error = message(e);
            outcome = FAILED;
            LOG.warn("nemesis {} {} failed: {}", step, faultName, error, e);
        } finally {
            acting.remove();
        }
        recorder.nemesis(OpType.INFO, f, did != null ? did : Map.of("error", error, "outcome", outcome));
        synchronized (this) {
            actions.add(new Action(sinceStart(), step, faultName, did, error, began));
        }
        return did != null;
    }

    /** Milliseconds on the schedule's clock. */
    private long sinceStart() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static String message(RuntimeException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /**
     * Stops the schedule and heals everything: network cuts and toxics, paused and killed nodes. Recorded as one
     * {@code heal}. Safe to call more than once.
     */
    @Override
    public void close() {
        if (thread != null) {
            synchronized (endLock) {
                closing = true;
                if (!healingOnDriverThread) {
                    thread.interrupt();
                }
            }
            try {
                thread.join(TimeUnit.SECONDS.toMillis(60));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
        finalHeal();
    }

    /** Heals every link, resumes and restarts every node; once. */
    private synchronized void finalHeal() {
        if (finalHealDone) {
            return;
        }
        finalHealDone = true;
        // The heal must happen even on a thread that was interrupted (the run closing while a long fault action,
        // such as a rolling restart, was under way): act with the flag cleared, and set it again afterwards.
        boolean interrupted = Thread.interrupted();
        FinalHealListener listener = finalHealListener;
        try {
            if (listener != null) {
                listener.began();
            }
            act("final-heal", "all", "heal", nemesis::healAll);
        } finally {
            if (listener != null) {
                listener.ended();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        active.clear();
    }
}
