package io.zkchaos.harness.run;

import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.NemesisDriver;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.workloads.WorkloadDescriptor;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs one scenario, as Jepsen does: start the cluster, run the workload's clients while the nemesis acts on its
 * schedule for the main phase, always heal at its end, let the clients work on through the recovery time (so what
 * follows the heal is recorded), do the final reads, stop everything, check, and write the results. Each phase
 * leaves its file in the run directory as soon as it is done (config first, the history as it grows, results after
 * checking), so a run that crashes or is killed still leaves a checkable history. The phases themselves, and their
 * ordering rules, are {@link RunLoop}'s.
 *
 * <p>A harness error (the cluster never came up, a port was taken) is not a verdict: it is thrown, with the history
 * recorded so far left on disk.
 */
public final class Runner {

    private final PrintWriter progress;
    private final Duration progressEvery;
    private final Function<ClusterBackend, ClusterBackend> backends;

    /**
     * @param progress      where to print progress lines (elapsed, operations, the fault in force)
     * @param progressEvery how often
     */
    public Runner(PrintWriter progress, Duration progressEvery) {
        this(progress, progressEvery, Function.identity());
    }

    /**
     * A runner that runs on {@code backends}' answer for the configured backend instead of on it (tests run the loop
     * on an in-memory one).
     */
    Runner(PrintWriter progress, Duration progressEvery, Function<ClusterBackend, ClusterBackend> backends) {
        this.progress = progress;
        this.progressEvery = progressEvery;
        this.backends = backends;
    }

    /** Runs the scenario {@code config} describes, with its built-in workload (the system under test's). */
    public RunOutcome run(RunConfig config) throws InterruptedException {
        return run(config, config.workloadDescriptor());
    }

    /**
     * Runs {@code config} with {@code workloadType} as its workload, judged by the checkers it names: a workload that
     * is not built in (a user's own client code, through the JUnit extension) runs through the same loop. The
     * configuration names it ({@link RunConfig.Builder#customWorkload}).
     *
     * @throws IllegalArgumentException if {@code config} names another workload, or relaxes a requirement it lacks
     */
    public RunOutcome run(RunConfig config, WorkloadDescriptor workloadType) throws InterruptedException {
        if (!config.workload().name().equals(workloadType.name())) {
            throw new IllegalArgumentException("the configuration names workload '" + config.workload().name()
                    + "', the descriptor '" + workloadType.name() + "'");
        }
        RunEvidence.requireKnown(config, workloadType);
        config.requireMachine(); // before anything starts: a draw this machine cannot do is refused, never redrawn
        return new RunLoop(config, workloadType, backend(config), this::say,
                progressEvery).run();
    }

    /** The run's backend: the configured one, with its own settings (the ssh backend's hosts). */
    private ClusterBackend backend(RunConfig config) {
        return backends.apply(config.cluster().backend());
    }

    /** The composed checker that judges a run: the workload's checkers with the run's settings. */
    public static Checker checker(RunConfig config) {
        return checker(config, config.workloadDescriptor());
    }

    static Checker checker(RunConfig config, WorkloadDescriptor w) {
        java.util.List<String> names = new java.util.ArrayList<>(w.checkers());
        if (config.load().churnLanes() > 0) {
            names.add(CheckerCatalog.CHURN_EPHEMERALS); // the churn sessions' promise, beside the workload's
        }
        return Checkers.compose(w.name(), names.stream()
                .map(name -> CheckerCatalog.create(name, config.checks())).toList());
    }

    /**
     * The schedule file: the nemesis, its seed, every action with what it did, and the quorum packets the taps saw
     * per type over the run (empty with direct links).
     */
    public record NemesisSchedule(String nemesis, long seed, java.util.List<NemesisDriver.Action> actions,
                                  Map<String, Long> quorumPackets) {

        /** A run's {@code nemesis.json}, read back into the type that wrote it. */
        public static NemesisSchedule read(RunDirectory dir) {
            return Json.read(dir.nemesisFile(), NemesisSchedule.class);
        }
    }

    private void say(String line) {
        synchronized (progress) {
            progress.println(line);
            progress.flush();
        }
    }
}
