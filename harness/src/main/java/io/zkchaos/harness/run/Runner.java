package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.ExerciseText;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.clients.ClientProcesses;
import io.zkchaos.nemesis.NemesisDescriptor;
import io.zkchaos.nemesis.NemesisDriver;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.JsonLinesRecorder;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.results.report.RunReport;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.state.FinalState;
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

    /** Runs the scenario {@code config} describes, with its built-in workload (the system under test's). */
    public RunOutcome run(RunConfig config) throws InterruptedException {
        return run(config, config.workloadDescriptor());
    }

    /**
     * Runs {@code config} with {@code workloadType} as its workload, judged by the checkers it names: a workload that
     * is not built in (a user's own client code, through the JUnit extension) runs through the same loop. The
     * configuration names it ({@link RunConfig.Builder#customWorkload}).
     *
     * @throws IllegalArgumentException if {@code config} names another workload
     */
    public RunOutcome run(RunConfig config, WorkloadDescriptor workloadType) throws InterruptedException {
        if (!config.workload().name().equals(workloadType.name())) {
            throw new IllegalArgumentException("the configuration names workload '" + config.workload().name()
                    + "', the descriptor '" + workloadType.name() + "'");
        }
        RunEvidence.requireKnown(config, workloadType);
        long t0 = System.nanoTime();
        RunPhases.Clock phases = new RunPhases.Clock();
        ClusterBackend backend = config.cluster().openBackend();
        RunStore store = new RunStore(config.outDirectory());
        backend.reapLeftovers(store.root());
        RunDirectory dir = store.create(config.scenario(), Instant.now());
        dir.writeConfig(config);
        say("run " + config.scenario() + " seed " + config.seed() + " in " + dir.path());

        ClusterConfig.Builder clusterBuilder = ClusterConfig.builder();
        if (!config.storage().forceSync()) {
            clusterBuilder.serverConfig("forceSync", "no");
        }
        ClusterConfig clusterConfig = clusterBuilder
                .lazyFs(config.storage().lazyfs())
                .nodes(config.cluster().nodes())
                .version(config.cluster().zookeeper())
                .sync(config.cluster().sync())
                .runDirectory(dir.path().resolve(RunDirectory.NODES))
                // Twice the longest fault hold too: the fenced store's session asks for the longest timeout the
                // servers grant, and must outlive a client pause that expires the election session.
                .maxSessionTimeout(max(max(config.workload().sessionTimeout().multipliedBy(2), Duration.ofSeconds(10)),
                        config.nemesisDescriptor().hold(config.nemesisTiming()).multipliedBy(2)))
                .seed(config.seed())
                .system(config.cluster().systemUnderTest())
                .bugs(config.cluster().bugFlags())
                .build();
        Workload workload = workloadType.create(config.workload().options());
        long recorded;
        Map<String, Long> quorumPackets = new java.util.HashMap<>();
        Map<String, Long> bugCodePaths;
        try (Cluster cluster = backend.start(clusterConfig);
             JsonLinesRecorder recorder = JsonLinesRecorder.create(dir.historyFile());
             LeaderObserver observer = observe(cluster, clusterConfig, recorder, dir)) {
            phases.lap("start");
            Target target = target(cluster, config);
            // Setup, the final reads and teardown are not the operations under test: their sessions may take longer
            // to connect than a client's request timeout allows (a set run's setup could not connect within 3 s at
            // load average 40, and the run failed before it began).
            Target unhurried = new Target(target.connectString(), target.servers(), target.sessionTimeout(),
                    max(target.requestTimeout(), UNHURRIED_REQUEST_TIMEOUT));
            say("cluster of " + config.cluster().nodes() + " serves (" + clusterConfig.systemSummary()
                    + "), leader " + cluster.leader().orElse("?"));
            if (!cluster.summary().isEmpty()) {
                say(cluster.summary());
            }
            ClientProcesses processes = null;
            try {
                setup(workload, unhurried);
                cluster.writeBack(); // start-up files on disk, as on servers up for a while (lazy file system)
                phases.lap("setup");
                NemesisTarget nemesisTarget = cluster.nemesisTarget(new Random(config.seed()));
                if (config.workload().clients() == RunConfig.Clients.PROCESS) {
                    processes = ClientProcesses.launch(dir.path().resolve(ClientProcesses.DIRECTORY),
                            workloadType.name(), config.workload().options(), target, config.seed(),
                            config.workload().concurrency(), recorder);
                    nemesisTarget = nemesisTarget.withClients(processes);
                    say(config.workload().concurrency() + " client processes started (pids " + processes.pids()
                            + ")");
                }
                Duration clientTime = config.timing().timeLimit().plus(config.timing().recover());
                Duration mainPhase = config.timing().timeLimit();
                if (processes != null) {
                    // The nemesis acts once the client processes work; the main phase still ends when configured.
                    Duration waited = processes.start(clientTime, ClientProcesses.WORKING_BOUND);
                    mainPhase = max(Duration.ZERO, mainPhase.minus(waited));
                    say("client processes work (after " + waited.toMillis() + " ms)");
                }
                NemesisDescriptor nemesisType = config.nemesisDescriptor();
                NemesisDriver nemesis = new NemesisDriver(nemesisType.on(nemesisTarget),
                        nemesisType.schedule(config.nemesisTiming()), config.seed(), recorder, mainPhase);
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
                    if (processes != null) {
                        processes.awaitEnd(ClientProcesses.finishGrace(target));
                    } else {
                        workload.run(new RunContext(target, recorder, config.seed(), config.workload().concurrency(),
                                clientTime));
                    }
                } finally {
                    phases.lap("clients");
                    ticker.shutdownNow();
                    nemesis.close(); // always heals, even when the workload failed
                    Map<String, Long> packets = cluster.frames().map(f -> f.counts()).orElse(Map.of());
                    quorumPackets.putAll(packets);
                    dir.writeNemesis(new NemesisSchedule(config.nemesis().name(), config.seed(), nemesis.actions(),
                            packets));
                    if (!packets.isEmpty()) {
                        say("quorum syncs seen: " + SYNC_PACKETS.stream()
                                .map(t -> t + " " + packets.getOrDefault(t, 0L))
                                .collect(java.util.stream.Collectors.joining(", ")) + triggers(nemesis.actions()));
                    }
                }
                phases.lap("heal");
                say("healed " + config.timing().recover().toSeconds() + " s before the end; final reads");
                awaitQuorum(cluster);
                phases.lap("quorum");
                workload.finalPhase(unhurried, recorder);
                if (workloadType.checkers().contains(CheckerCatalog.FINAL_STATE)) {
                    say("final state: reading every server's data tree");
                    FinalState.read(unhurried, recorder);
                }
                phases.lap("final");
            } catch (Exception e) {
                if (e instanceof InterruptedException ie) {
                    throw ie;
                }
                throw new RunFailedException("the run failed before it finished (history so far kept in "
                        + dir.historyFile() + "): " + e.getMessage(), e);
            } finally {
                if (processes != null) {
                    processes.close(); // kills any client process left (its open operations recorded info)
                }
                workload.teardown(unhurried);
                phases.lap("teardown");
            }
            recorded = recorder.size();
            // the fle nodes' counts, asked once more while they run; printed with what the run exercised
            bugCodePaths = observer.bugCodePaths();
        }
        phases.lap("stop");
        say("cluster stopped; checking " + recorded + " history entries");
        History history = HistoryFiles.read(dir.historyFile());
        CheckResult checked = Checkers.runSafely(checker(config, workloadType), history);
        CheckResult evidence = RunEvidence.judge(config, workloadType, history, syncs(quorumPackets),
                ClusterLog.leaderChanges(ClusterLog.read(dir.clusterFile())), bugCodePaths);
        CheckResult result = Checkers.withPart(checked, evidence);
        if (evidence.details() instanceof EvidenceReport report) {
            dir.writeEvidence(report);
            say("exercised:");
            ExerciseText.lines(report.exercised()).forEach(line -> say("  " + line));
        }
        if (!evidence.isValid()) {
            say("evidence: " + evidence.summary());
        }
        dir.writeResults(result);
        phases.lap("check");
        try { // the report is written last, from the files above only
            say("report: " + RunReport.write(dir));
        } catch (RuntimeException e) {
            say("warning: no report (./zkchaos report " + dir.path() + " tries again): " + e.getMessage());
        }
        phases.lap("report");
        RunPhases took = phases.phases();
        say("phases: " + took);
        return new RunOutcome(result, dir, recorded, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), took,
                bugCodePaths);
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
        return checker(config, config.workloadDescriptor());
    }

    private static Checker checker(RunConfig config, WorkloadDescriptor w) {
        return Checkers.compose(w.name(), w.checkers().stream()
                .map(name -> CheckerCatalog.create(name, config.checks())).toList());
    }

    /** The sync kinds among the packets the taps counted (each kind, 0 when unseen); empty without taps. */
    private static Map<String, Long> syncs(Map<String, Long> packets) {
        Map<String, Long> m = new LinkedHashMap<>();
        if (!packets.isEmpty()) {
            SYNC_PACKETS.forEach(t -> m.put(t, packets.getOrDefault(t, 0L)));
        }
        return m;
    }

    /** The packets that open a follower's sync with its leader (and the snapshot a SNAP streams). */
    private static final java.util.List<String> SYNC_PACKETS = java.util.List.of("DIFF", "TRUNC", "SNAP");

    /** "; triggers fired 2 of 3" when the run armed protocol triggers. */
    private static String triggers(java.util.List<NemesisDriver.Action> actions) {
        java.util.List<io.zkchaos.nemesis.frame.TriggerRecord> ends = actions.stream()
                .filter(a -> !"trigger".equals(a.step()) && a.did() != null)
                .flatMap(a -> a.did().triggers().stream()).toList();
        if (ends.isEmpty()) {
            return "";
        }
        return "; protocol triggers fired " + ends.stream().filter(io.zkchaos.nemesis.frame.TriggerRecord::fired)
                .count() + " of " + ends.size() + " armed";
    }

    /**
     * The schedule file: the nemesis, its seed, every action with what it did, and the quorum packets the taps saw
     * per type over the run (empty with direct links).
     */
    public record NemesisSchedule(String nemesis, long seed, java.util.List<NemesisDriver.Action> actions,
                                  Map<String, Long> quorumPackets) {
    }

    private static Target target(Cluster cluster, RunConfig config) {
        Map<String, String> servers = new LinkedHashMap<>();
        cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
        return new Target(cluster.connectString(), servers, config.workload().sessionTimeout(),
                config.workload().requestTimeout());
    }

    /**
     * The workload's setup, tried again for up to {@link #SETUP_BOUND} while it fails: a fresh ensemble serves its
     * quorum, but on a loaded machine a first client can take longer than the request timeout to connect through
     * the proxy (seen at load 40: "could not connect ... within PT3S"). Setups are idempotent ({@link Workload}).
     * No fault has been made yet, so nothing is lost by waiting.
     */
    private void setup(Workload workload, Target target) throws Exception {
        long deadline = System.nanoTime() + SETUP_BOUND.toNanos();
        while (true) {
            try {
                workload.setup(target);
                return;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                say("setup failed (" + e.getMessage() + "); trying again");
                TimeUnit.MILLISECONDS.sleep(500);
            }
        }
    }

    /** How long the workload's setup is tried again. */
    static final Duration SETUP_BOUND = Duration.ofSeconds(30);

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
