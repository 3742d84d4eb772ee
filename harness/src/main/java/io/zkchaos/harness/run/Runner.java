package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.nemesis.NemesisDescriptor;
import io.zkchaos.nemesis.NemesisDriver;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.JsonLinesRecorder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.results.report.RunReport;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.WorkloadDescriptor;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs one scenario, as Jepsen does: start the cluster, run the workload's clients while the nemesis acts on its
 * schedule for the main phase, always heal at its end, let the clients work on through the recovery time (so what
 * follows the heal is recorded), do the final reads, stop everything, check, and write the results. Each phase leaves its file in the run directory as soon as it is done (config first, the history as
 * it grows, results after checking), so a run that crashes or is killed still leaves a checkable history.
 *
 * <p>A harness error (the cluster never came up, a port was taken) is not a verdict: it is thrown, with the history
 * recorded so far left on disk.
 */
public final class Runner {


    private final PrintWriter progress;
    private final Duration progressEvery;

    /**
     * @param progress      where to print progress lines (elapsed, operations, the fault in force)
     * @param progressEvery how often
     */
    public Runner(PrintWriter progress, Duration progressEvery) {
        this.progress = progress;
        this.progressEvery = progressEvery;
    }

    public RunOutcome run(RunConfig config) throws InterruptedException {
        long t0 = System.nanoTime();
        ClusterBackend backend = ClusterBackends.require(config.cluster().backend());
        RunStore store = new RunStore(config.outDirectory());
        backend.reapLeftovers(store.root());
        RunDirectory dir = store.create(config.scenario(), Instant.now());
        dir.writeConfig(config);
        say("run " + config.scenario() + " seed " + config.seed() + " in " + dir.path());

        ClusterConfig clusterConfig = ClusterConfig.builder()
                .nodes(config.cluster().nodes())
                .version(config.cluster().zookeeper())
                .runDirectory(dir.path().resolve(RunDirectory.NODES))
                .maxSessionTimeout(max(config.workload().sessionTimeout().multipliedBy(2), Duration.ofSeconds(10)))
                .seed(config.seed())
                .system(config.cluster().systemUnderTest())
                .bugs(config.cluster().bugFlags())
                .build();
        WorkloadDescriptor workloadType = config.workloadDescriptor();
        Workload workload = workloadType.create(config.workload().options());
        long recorded;
        try (Cluster cluster = backend.start(clusterConfig);
             JsonLinesRecorder recorder = JsonLinesRecorder.create(dir.historyFile());
             LeaderObserver observer = observe(cluster, clusterConfig, recorder, dir)) {
            Target target = target(cluster, config);
            say("cluster of " + config.cluster().nodes() + " serves (" + clusterConfig.systemSummary()
                    + "), leader " + cluster.leader().orElse("?"));
            if (!cluster.summary().isEmpty()) {
                say(cluster.summary());
            }
            try {
                workload.setup(target);
                NemesisDescriptor nemesisType = config.nemesis().descriptor();
                NemesisDriver nemesis = new NemesisDriver(
                        nemesisType.on(cluster.nemesisTarget(new Random(config.seed()))),
                        nemesisType.schedule(config.nemesisTiming()), config.seed(), recorder,
                        config.timing().timeLimit());
                ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "progress");
                    t.setDaemon(true);
                    return t;
                });
                long mainStart = System.nanoTime();
                ticker.scheduleAtFixedRate(() -> say(String.format("[%4ds] ops %d  fault: %s",
                                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - mainStart), recorder.size(),
                                nemesis.activeFault() == null ? "none" : nemesis.activeFault())),
                        progressEvery.toMillis(), progressEvery.toMillis(), TimeUnit.MILLISECONDS);
                try {
                    nemesis.start();
                    // Clients work through the recovery time too: the nemesis heals at the end of the main phase,
                    // and what happens after the final heal (a leader again?) is part of the history.
                    workload.run(new RunContext(target, recorder, config.seed(), config.workload().concurrency(),
                            config.timing().timeLimit().plus(config.timing().recover())));
                } finally {
                    ticker.shutdownNow();
                    nemesis.close(); // always heals, even when the workload failed
                    dir.writeNemesis(new NemesisSchedule(config.nemesis().name(), config.seed(), nemesis.actions()));
                }
                say("healed " + config.timing().recover().toSeconds() + " s before the end; final reads");
                awaitQuorum(cluster);
                workload.finalPhase(target, recorder);
            } catch (Exception e) {
                if (e instanceof InterruptedException ie) {
                    throw ie;
                }
                throw new RunFailedException("the run failed before it finished (history so far kept in "
                        + dir.historyFile() + "): " + e.getMessage(), e);
            } finally {
                workload.teardown(target);
            }
            recorded = recorder.size();
        }
        say("cluster stopped; checking " + recorded + " history entries");
        History history = HistoryFiles.read(dir.historyFile());
        CheckResult result = Checkers.runSafely(checker(config), history);
        dir.writeResults(result);
        try { // the report is written last, from the files above only
            say("report: " + RunReport.write(dir));
        } catch (RuntimeException e) {
            say("warning: no report (./zkchaos report " + dir.path() + " tries again): " + e.getMessage());
        }
        return new RunOutcome(result, dir, recorded, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /**
     * Watches who leads (the run's {@code cluster.jsonl}). When the system's own election is under test (the fle
     * nodes), it watches more often and also records every node's leadership in the history
     * ({@link LeadershipRecorder}), for the {@code single-leader} checker.
     */
    private static LeaderObserver observe(Cluster cluster, ClusterConfig config, JsonLinesRecorder recorder,
                                          RunDirectory dir) {
        if (config.system().electionUnderTest()) {
            return LeaderObserver.start(cluster, recorder::elapsedNanos, dir.clusterFile(),
                    LeadershipRecorder.POLL_EVERY, new LeadershipRecorder(recorder, cluster.nodes()));
        }
        return LeaderObserver.start(cluster, recorder::elapsedNanos, dir.clusterFile(), Duration.ofMillis(250));
    }

    /** The composed checker that judges a run: the workload's checkers with the run's settings. */
    static Checker checker(RunConfig config) {
        WorkloadDescriptor w = config.workloadDescriptor();
        return Checkers.compose(w.name(), w.checkers().stream()
                .map(name -> CheckerCatalog.create(name, config.checks())).toList());
    }

    /** The schedule file: the nemesis, its seed, and every action with what it did. */
    public record NemesisSchedule(String nemesis, long seed, java.util.List<NemesisDriver.Action> actions) {
    }

    private static Target target(Cluster cluster, RunConfig config) {
        Map<String, String> servers = new LinkedHashMap<>();
        cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
        return new Target(cluster.connectString(), servers, config.workload().sessionTimeout(),
                config.workload().requestTimeout());
    }

    /** Before the final reads: a quorum should serve again (the reads say what they find either way). */
    private void awaitQuorum(Cluster cluster) {
        try {
            cluster.awaitQuorum(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            say("warning: no quorum 30 s after the heal: " + e.getMessage());
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private void say(String line) {
        progress.println(line);
        progress.flush();
    }
}
