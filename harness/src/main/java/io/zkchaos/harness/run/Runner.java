package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.harness.cluster.local.Reaper;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.JsonLinesRecorder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(Runner.class);

    /** The least time setup, final reads and teardown give a call (a connect included). */
    static final Duration UNHURRIED_REQUEST_TIMEOUT = Duration.ofSeconds(15);

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
        RunStore store = new RunStore(config.outDirectory());
        reapLeftovers(store.root());
        RunDirectory dir = store.create(config.scenario(), Instant.now());
        dir.writeConfig(config);
        say("run " + config.scenario() + " seed " + config.seed() + " in " + dir.path());

        ClusterConfig clusterConfig = ClusterConfig.builder()
                .nodes(config.nodes())
                .version(config.zookeeper())
                .runDirectory(dir.path().resolve(RunDirectory.NODES))
                .maxSessionTimeout(max(config.sessionTimeout().multipliedBy(2), Duration.ofSeconds(10)))
                .seed(config.seed())
                .build();
        Workload workload = WorkloadCatalog.create(config);
        long recorded;
        try (Cluster cluster = LocalCluster.start(clusterConfig);
             JsonLinesRecorder recorder = JsonLinesRecorder.create(dir.historyFile())) {
            Target target = target(cluster, config);
            // Setup, the final reads and teardown are not the operations under test: their sessions may take longer
            // to connect than a client's request timeout allows (a set run's setup could not connect within 3 s at
            // load average 40, and the run failed before it began).
            Target unhurried = new Target(target.connectString(), target.servers(), target.sessionTimeout(),
                    max(config.requestTimeout(), UNHURRIED_REQUEST_TIMEOUT));
            say("cluster of " + config.nodes() + " serves (ZooKeeper " + config.zookeeper() + "), leader "
                    + cluster.leader().orElse("?"));
            try {
                workload.setup(unhurried);
                NemesisDriver nemesis = new NemesisDriver(cluster, recorder, config);
                NemesisDriver n = nemesis;
                ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "progress");
                    t.setDaemon(true);
                    return t;
                });
                long mainStart = System.nanoTime();
                ticker.scheduleAtFixedRate(() -> say(String.format("[%4ds] ops %d  fault: %s",
                                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - mainStart), recorder.size(),
                                n.activeFault() == null ? "none" : n.activeFault())),
                        progressEvery.toMillis(), progressEvery.toMillis(), TimeUnit.MILLISECONDS);
                try {
                    nemesis.start();
                    // Clients work through the recovery time too: the nemesis heals at the end of the main phase,
                    // and what happens after the final heal (a leader again?) is part of the history.
                    workload.run(new RunContext(target, recorder, config.seed(), config.concurrency(),
                            config.timeLimit().plus(config.recover())));
                } finally {
                    ticker.shutdownNow();
                    nemesis.close(); // always heals, even when the workload failed
                    dir.writeNemesis(new NemesisSchedule(config.nemesis(), config.seed(), nemesis.actions()));
                }
                say("healed " + config.recover().toSeconds() + " s before the end; final reads");
                awaitQuorum(cluster);
                workload.finalPhase(unhurried, recorder);
            } catch (Exception e) {
                if (e instanceof InterruptedException ie) {
                    throw ie;
                }
                throw new RunFailedException("the run failed before it finished (history so far kept in "
                        + dir.historyFile() + "): " + e.getMessage(), e);
            } finally {
                workload.teardown(unhurried);
            }
            recorded = recorder.size();
        }
        say("cluster stopped; checking " + recorded + " history entries");
        History history = HistoryFiles.read(dir.historyFile());
        CheckResult result = Checkers.runSafely(WorkloadCatalog.checker(config), history);
        dir.writeResults(result);
        return new RunOutcome(result, dir, recorded, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** The schedule file: the nemesis, its seed, and every action with what it did. */
    public record NemesisSchedule(String nemesis, long seed, java.util.List<NemesisDriver.Action> actions) {
    }

    private static Target target(Cluster cluster, RunConfig config) {
        Map<String, String> servers = new LinkedHashMap<>();
        cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
        return new Target(cluster.connectString(), servers, config.sessionTimeout(), config.requestTimeout());
    }

    /** Before the final reads: a quorum should serve again (the reads say what they find either way). */
    private void awaitQuorum(Cluster cluster) {
        try {
            cluster.awaitQuorum(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            say("warning: no quorum 30 s after the heal: " + e.getMessage());
        }
    }

    /** Ends servers left behind by a harness that was killed, in every run of the store. */
    private static void reapLeftovers(Path storeRoot) {
        if (!Files.isDirectory(storeRoot)) {
            return;
        }
        try (Stream<Path> scenarios = Files.list(storeRoot)) {
            for (Path scenario : scenarios.filter(Files::isDirectory).toList()) {
                try (Stream<Path> runs = Files.list(scenario)) {
                    runs.filter(p -> Files.isDirectory(p) && !Files.isSymbolicLink(p)).forEach(Reaper::reap);
                }
            }
        } catch (IOException e) {
            LOG.warn("could not scan {} for leftovers: {}", storeRoot, e.toString());
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
