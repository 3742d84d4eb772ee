package io.zkchaos.harness.run;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterFaults;
import io.zkchaos.harness.cluster.FaultRecord;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.gen.FaultStep;
import io.zkchaos.workloads.gen.Gen;
import io.zkchaos.workloads.gen.NemesisGens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a nemesis schedule against a cluster on its own thread and records every action in the history as the
 * nemesis process: an {@code invoke} when the action starts, an {@code info} with what it really did (a
 * {@link FaultRecord}) when it is done, or with the error when it could not act (no leader to aim at). Stopping a
 * fault is recorded as {@code heal}. {@link #close()} always heals everything, whatever the schedule did.
 *
 * <p>Fault choices and timings come from the seed: the schedule is {@link NemesisGens#cycle} over the nemesis's
 * faults, and node choices (a random node, random halves) from a {@link Random} with the same seed.
 */
final class NemesisDriver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NemesisDriver.class);

    /** One action the driver took, for the schedule file. */
    record Action(long atMillis, String step, String fault, FaultRecord did, String error) {
    }

    private final Cluster cluster;
    private final HistoryRecorder recorder;
    private final Gen<FaultStep> schedule;
    private final long seed;
    private final NemesisCatalog.Ctx ctx;
    private final AtomicReference<String> active = new AtomicReference<>();
    private final List<Action> actions = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private final long faultNanos;
    private final java.util.concurrent.CountDownLatch healed = new java.util.concurrent.CountDownLatch(1);
    private boolean finalHealDone;
    private Thread thread;

    NemesisDriver(Cluster cluster, HistoryRecorder recorder, RunConfig config) {
        this.cluster = cluster;
        this.recorder = recorder;
        this.seed = config.seed();
        this.schedule = schedule(config);
        this.faultNanos = config.timeLimit().toNanos();
        this.ctx = new NemesisCatalog.Ctx(new ClusterFaults(cluster, new Random(seed)), cluster);
    }

    /**
     * The fault schedule of a configuration: a cycle over its nemesis's faults, or null for {@code none}. Pure: its
     * cursors started with the configuration's seed give the same steps at the same times.
     */
    static Gen<FaultStep> schedule(RunConfig config) {
        List<String> faults = NemesisCatalog.faultsOf(config.nemesis());
        if (faults.isEmpty()) {
            return null;
        }
        Duration faultFor = config.faultFor();
        if (faults.contains("client-partition")) {
            // Sessions expire only if clients stay cut off past the session timeout.
            Duration needed = config.sessionTimeout().multipliedBy(3).dividedBy(2);
            faultFor = faultFor.compareTo(needed) < 0 ? needed : faultFor;
        }
        return NemesisGens.cycle(faultFor, config.healFor(), faults);
    }

    /**
     * Starts the schedule on a daemon thread. Faults run for the main phase ({@link RunConfig#timeLimit()}); then
     * the thread heals everything while the clients go on working through the recovery time, so liveness after
     * the final heal is observed too. Without faults the thread only heals at the end of the main phase.
     */
    void start() {
        thread = new Thread(this::loop, "nemesis");
        thread.setDaemon(true);
        thread.start();
    }

    /** The fault in force now, or null. */
    String activeFault() {
        return active.get();
    }

    /** Every action so far, in order. */
    synchronized List<Action> actions() {
        return List.copyOf(actions);
    }

    /** Waits until the final heal is done (at the end of the main phase, or at {@link #close()}). */
    void awaitFinalHeal() throws InterruptedException {
        healed.await();
    }

    private void loop() {
        long t0 = System.nanoTime();
        try {
            Gen.Cursor<FaultStep> cursor = schedule == null ? null : schedule.start(seed);
            while (!Thread.currentThread().isInterrupted()) {
                long now = System.nanoTime() - t0;
                if (now >= faultNanos) {
                    break;
                }
                Gen.Next<FaultStep> next = cursor == null ? new Gen.Next.Done<>() : cursor.next(now);
                if (next instanceof Gen.Next.Emit<FaultStep> emit) {
                    apply(emit.value());
                } else {
                    long due = next instanceof Gen.Next.Pending<FaultStep> p ? Math.min(p.atNanos(), faultNanos)
                            : faultNanos;
                    long wait = due - (System.nanoTime() - t0);
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                }
            }
            finalHeal();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void apply(FaultStep step) {
        NemesisCatalog.Fault fault = NemesisCatalog.fault(step.fault());
        if (step.kind() == FaultStep.Kind.START) {
            act("start", fault.name(), fault.name(), fault.start());
            active.set(fault.name());
        } else {
            act("stop", fault.name(), "heal", fault.stop());
            active.set(null);
        }
    }

    private void act(String step, String faultName, String f, java.util.function.Function<NemesisCatalog.Ctx,
            FaultRecord> action) {
        recorder.nemesis(OpType.INVOKE, f, faultName);
        FaultRecord did = null;
        String error = null;
        try {
            did = action.apply(ctx);
        } catch (RuntimeException e) {
            error = e.getMessage() == null ? e.toString() : e.getMessage();
            LOG.info("nemesis {} {} could not act: {}", step, faultName, error);
        }
        recorder.nemesis(OpType.INFO, f, did != null ? did : java.util.Map.of("error", error));
        synchronized (this) {
            actions.add(new Action(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), step, faultName,
                    did, error));
        }
    }

    /**
     * Stops the schedule and heals everything: network cuts and toxics, paused and killed nodes. Recorded as one
     * {@code heal}. Safe to call more than once.
     */
    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
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
        act("final-heal", "all", "heal", c -> {
            FaultRecord net = c.faults().heal();
            FaultRecord resumed = c.faults().resumeAll();
            FaultRecord restarted = c.faults().restartDown();
            List<String> nodes = new ArrayList<>(resumed.nodes());
            nodes.addAll(restarted.nodes());
            List<String> all = nodes.stream().distinct().sorted().toList();
            return new FaultRecord("heal", "healed every link" + (all.isEmpty() ? "" : "; resumed or restarted "
                    + String.join(", ", all)), all, net.groups(), net.grudge());
        });
        active.set(null);
        healed.countDown();
    }
}
