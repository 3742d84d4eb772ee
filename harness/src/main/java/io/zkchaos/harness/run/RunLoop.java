package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.JsonLinesRecorder;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.ExerciseText;
import io.zkchaos.checkers.history.History;
import io.zkchaos.harness.clients.ClientProcesses;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.QuorumWait;
import io.zkchaos.checkers.recovery.RecoveryChecker;
import io.zkchaos.harness.run.config.Clients;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.NemesisDescriptor;
import io.zkchaos.nemesis.NemesisDriver;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.frame.TriggerRecord;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.results.ServerEventLog;
import io.zkchaos.results.report.RunReport;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.churn.Churn;
import io.zkchaos.workloads.state.FinalState;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One run, in its named phases ({@link RunPhases}): {@link #open} (the run directory and its configuration),
 * {@code start} (the ensemble), {@link #setup}, {@link #clients} (the clients under the nemesis, through the recovery
 * time; the nemesis always heals at the end of the main phase and again when it is closed), {@link #finalReads}
 * (once a quorum serves again), {@code teardown}, {@code stop}, {@link #check} and {@link #report}. The ordering rules
 * live here, once: every fault is healed before the final reads, and whatever the workload does; the history is on
 * disk as it grows, so a run that fails keeps what it recorded. Not thread-safe: one run, one thread.
 */
final class RunLoop {

    /** The least time setup, final reads and teardown give a call (a connect included). */
    static final Duration UNHURRIED_REQUEST_TIMEOUT = Duration.ofSeconds(15);
    /** How long the workload's setup is tried again. */
    static final Duration SETUP_BOUND = Duration.ofSeconds(30);
    /** How long the preloaded znodes may take to be made ({@code --preload}, before the workload's setup). */
    static final Duration PRELOAD_BOUND = Duration.ofMinutes(5);
    /** How long the final reads wait for a quorum to serve again after the heal. */
    static final Duration QUORUM_AFTER_HEAL = Duration.ofSeconds(30);
    /** The packets that open a follower's sync with its leader (and the snapshot a SNAP streams). */
    private static final List<String> SYNC_PACKETS = List.of("DIFF", "TRUNC", "SNAP");

    private final RunConfig config;
    private final WorkloadDescriptor workloadType;
    private final ClusterBackend backend;
    private final Consumer<String> say;
    private final Duration progressEvery;
    private final RunPhases.Clock phases = new RunPhases.Clock();
    private final long t0 = System.nanoTime();

    private RunDirectory dir;
    private final Map<String, Long> quorumPackets = new HashMap<>();
    private Map<String, Long> bugCodePaths = Map.of();
    private long recorded;
    /** The session churn ({@code --churn}), from the main phase to the final reads; null without. */
    private Churn churn;
    /** Whether real server processes ran ({@link Cluster#realServers()}): then their account is judged. */
    private boolean realServers;
    /** When the nemesis' final heal was over, on the history's clock. */
    private long healedAt;

    RunLoop(RunConfig config, WorkloadDescriptor workloadType, ClusterBackend backend, Consumer<String> say,
            Duration progressEvery) {
        this.config = config;
        this.workloadType = workloadType;
        this.backend = backend;
        this.say = say;
        this.progressEvery = progressEvery;
    }

    /** The whole run, phase after phase. */
    RunOutcome run() throws InterruptedException {
        open();
        ClusterConfig clusterConfig = config.clusterConfig(dir.path().resolve(RunDirectory.NODES));
        Workload workload = workloadType.create(config.workload().options());
        // servers.jsonl outlives the cluster, so that the close's exits are recorded too
        try (ServerEventLog.Appender servers = ServerEventLog.append(dir.serversFile());
             Cluster cluster = backend.start(clusterConfig);
             JsonLinesRecorder recorder = JsonLinesRecorder.create(dir.historyFile());
             LeaderObserver observer = observe(cluster, clusterConfig, recorder)) {
            cluster.servers().record(servers::write, recorder::elapsedNanos);
            realServers = cluster.realServers();
            phases.lap("start");
            Target target = target(cluster);
            // Setup, the final reads and teardown are not the operations under test: their sessions may take longer
            // to connect than a client's request timeout allows (a set run's setup could not connect within 3 s at
            // load average 40, and the run failed before it began).
            Target unhurried = target.withTimeouts(target.sessionTimeout(),
                    longest(target.requestTimeout(), UNHURRIED_REQUEST_TIMEOUT));
            say.accept("cluster of " + config.cluster().nodes() + " serves (" + clusterConfig.systemSummary()
                    + "), leader " + cluster.leader().orElse("?"));
            if (!cluster.summary().isEmpty()) {
                say.accept(cluster.summary());
            }
            try {
                setup(workload, unhurried, cluster);
                clients(cluster, recorder, workload, target);
                finalReads(cluster, recorder, workload, unhurried);
            } catch (Exception e) {
                if (e instanceof InterruptedException ie) {
                    throw ie;
                }
                throw new RunFailedException("the run failed before it finished (history so far kept in "
                        + dir.historyFile() + "): " + e.getMessage(), e);
            } finally {
                if (churn != null) {
                    churn.close(); // no session, relay or thread of it outlives the run
                }
                workload.teardown(unhurried);
                phases.lap("teardown");
            }
            recorded = recorder.size();
            // the fle nodes' counts, asked once more while they run; printed with what the run exercised
            bugCodePaths = observer.bugCodePaths();
        }
        phases.lap("stop");
        CheckResult result = check();
        report();
        RunPhases took = phases.phases();
        say.accept("phases: " + took);
        return new RunOutcome(result, dir, recorded, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), took,
                bugCodePaths);
    }

    /** What a killed harness left is reaped, the run directory made, its configuration written first. */
    private void open() {
        RunStore store = new RunStore(config.outDirectory());
        backend.reapLeftovers(store.root());
        dir = store.create(config.scenario(), Instant.now());
        dir.writeConfig(config.saved());
        say.accept("run " + config.scenario() + " seed " + config.seed() + " in " + dir.path());
    }

    /**
     * The workload's setup, tried again for up to {@link #SETUP_BOUND} while it fails: a fresh ensemble serves its
     * quorum, but on a loaded machine a first client can take longer than the request timeout to connect through
     * the proxy (seen at load 40: "could not connect ... within PT3S"). Setups are idempotent ({@link Workload}).
     * No fault has been made yet, so nothing is lost by waiting. The preloaded znodes ({@link Preload}) come first,
     * so that the workload's znodes are created on a tree of that size.
     */
    private void setup(Workload workload, Target target, Cluster cluster) throws Exception {
        Preload preload = config.load().preload();
        boolean preloaded = preload == null;
        long deadline = System.nanoTime() + SETUP_BOUND.toNanos();
        while (true) {
            try {
                if (!preloaded) {
                    long start = System.nanoTime();
                    Preloader.create(preload, target, config.seed(), PRELOAD_BOUND);
                    preloaded = true;
                    say.accept("preloaded " + preload.describe() + " under " + Preload.PATH + " in "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms (not in the history)");
                }
                if (config.load().churnLanes() > 0) {
                    Churn.setup(target);
                }
                if (cluster.realServers() && zooKeeper(cluster)) {
                    AvailabilityProbe.setup(target);
                }
                workload.setup(target);
                break;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                say.accept("setup failed (" + e.getMessage() + "); trying again");
                TimeUnit.MILLISECONDS.sleep(500);
            }
        }
        cluster.writeBack(); // start-up files on disk, as on servers up for a while (lazy file system)
        phases.lap("setup");
    }

    /**
     * The clients through the main phase and the recovery time, the nemesis on its schedule during the main phase.
     * The nemesis heals at the end of the main phase, and again when closed whatever happened (a workload that
     * threw, an interrupt); its actions go to {@code nemesis.json} either way.
     */
    private void clients(Cluster cluster, JsonLinesRecorder recorder, Workload workload, Target target)
            throws Exception {
        NemesisTarget nemesisTarget = cluster.nemesisTarget(new Random(config.seed()));
        Duration clientTime = config.timing().timeLimit().plus(config.timing().recover());
        Duration mainPhase = config.timing().timeLimit();
        try (ClientProcesses processes = config.workload().clients() == Clients.PROCESS
                ? ClientProcesses.launch(dir.path().resolve(ClientProcesses.DIRECTORY), workloadType.name(),
                        config.workload().options(), target, config.seed(), config.workload().concurrency(),
                        recorder, config.nemesisDescriptor().movesClientClocks()) : null) {
            if (processes != null) {
                nemesisTarget = nemesisTarget.withClients(processes);
                say.accept(config.workload().concurrency() + " client processes started (pids " + processes.pids()
                        + ")");
                // The nemesis acts once the client processes work; the main phase still ends when configured.
                Duration waited = processes.start(clientTime, ClientProcesses.WORKING_BOUND);
                mainPhase = longest(Duration.ZERO, mainPhase.minus(waited));
                say.accept("client processes work (after " + waited.toMillis() + " ms)");
            }
            NemesisDescriptor nemesisType = config.nemesisDescriptor();
            NemesisDriver nemesis = new NemesisDriver(nemesisType.on(nemesisTarget), config.faultOps(),
                    config.seed(), recorder, mainPhase);
            cluster.servers().nemesis(nemesis);
            ClientDeadline clientsEnd = ClientDeadline.after(clientTime);
            RecoveryTime recoveryTime = new RecoveryTime(config.timing().recover(), config.timing().recoveryBound(),
                    () -> QuorumWait.serves(cluster.statuses(), cluster.config()),
                    processes == null ? List.of(clientsEnd::extendBy) : List.of(processes::extend));
            nemesis.onFinalHeal(recoveryTime);
            FaultSchedule given = config.nemesis().schedule();
            if (given != null) {
                say.accept("nemesis: " + given.faults().size() + " fault(s) as the schedule says (nodes by "
                        + given.targets().wireName() + "), not drawn from the seed");
            }
            ScheduledExecutorService ticker = progress(recorder, nemesis);
            AvailabilityProbe availability = null;
            try {
                nemesis.start();
                if (cluster.realServers()) {
                    availability = zooKeeper(cluster) ? AvailabilityProbe.start(target, recorder)
                            : AvailabilityProbe.startFle(target, recorder);
                }
                int lanes = config.load().churnLanes();
                if (lanes > 0) {
                    churn = Churn.start(target, recorder, recorder::elapsedNanos, config.seed(), lanes, mainPhase);
                    say.accept("session churn: " + lanes + " lane(s) under " + Churn.ROOT + " through the main phase");
                }
                // Clients work through the recovery time too: the nemesis heals at the end of the main phase, and
                // what happens after the final heal (a leader again?) is part of the history.
                if (processes != null) {
                    processes.awaitEnd(ClientProcesses.finishGrace(target));
                } else {
                    workload.run(new RunContext(target, recorder, config.seed(), config.workload().concurrency(),
                            clientTime, clientsEnd));
                }
            } finally {
                if (availability != null) {
                    availability.close(); // its writes under way end first: each is in the history, answered or not
                }
                phases.lap("clients");
                ticker.shutdownNow();
                nemesis.close(); // always heals, even when the workload failed
                healedAt = recorder.elapsedNanos();
                recoveryTime.close();
                recoveryTime.describe().ifPresent(say);
                recordNemesis(cluster, nemesis);
            }
        } // client processes closed: any left is killed, its open operations recorded info
        phases.lap("heal");
    }

    /** Prints the elapsed time, the operations so far and the fault in force, every {@link #progressEvery}. */
    private ScheduledExecutorService progress(JsonLinesRecorder recorder, NemesisDriver nemesis) {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress");
            t.setDaemon(true);
            return t;
        });
        long mainStart = System.nanoTime();
        ticker.scheduleAtFixedRate(() -> say.accept(String.format("[%4ds] ops %d  fault: %s",
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - mainStart), recorder.size(),
                        nemesis.activeFaults().isEmpty() ? "none" : String.join(", ", nemesis.activeFaults()))),
                progressEvery.toMillis(), progressEvery.toMillis(), TimeUnit.MILLISECONDS);
        return ticker;
    }

    /**
     * {@code nemesis.json}: the nemesis' actions and the quorum packets the taps saw; the syncs said. And
     * {@code schedule.json}: the schedule the run executed, as {@code --schedule} takes it.
     */
    private void recordNemesis(Cluster cluster, NemesisDriver nemesis) {
        Map<String, Long> packets = cluster.frames().map(f -> f.counts()).orElse(Map.of());
        quorumPackets.putAll(packets);
        dir.writeNemesis(new Runner.NemesisSchedule(config.nemesis().name(), config.seed(), nemesis.actions(),
                packets));
        dir.writeSchedule(executed(nemesis.actions()));
        if (!packets.isEmpty()) {
            say.accept("quorum syncs seen: " + SYNC_PACKETS.stream()
                    .map(t -> t + " " + packets.getOrDefault(t, 0L))
                    .collect(Collectors.joining(", ")) + triggers(nemesis.actions()));
        }
    }

    /** The schedule executed, its nodes found as the run's own schedule said (by role when it had none). */
    private FaultSchedule executed(List<NemesisDriver.Action> actions) {
        FaultSchedule s = FaultSchedule.executed(config.nemesis().name(), actions);
        FaultSchedule given = config.nemesis().schedule();
        return given == null ? s : s.withTargets(given.targets());
    }

    /**
     * After the heal: the quorum wait (a warning when it gives up), then, with a nemesis, the recovery probe
     * ({@link RecoveryProbe}: a write acknowledged, every server serving, within the run's recovery bound, recorded
     * for the {@code recovery} checker), then the workload's final reads.
     */
    private void finalReads(Cluster cluster, JsonLinesRecorder recorder, Workload workload, Target target)
            throws InterruptedException {
        say.accept("clients done (" + config.timing().recover().toSeconds() + " s of recovery time); final reads");
        try {
            cluster.awaitQuorum(QUORUM_AFTER_HEAL);
        } catch (RuntimeException e) {
            say.accept("warning: no quorum " + QUORUM_AFTER_HEAL.toSeconds() + " s after the heal: "
                    + e.getMessage());
        }
        if (probesRecovery()) {
            say.accept("recovery: " + new RecoveryProbe(cluster, recorder, target.requestTimeout(),
                    config.timing().recoveryBound(), workloadType.writes()).run());
        }
        phases.lap("quorum");
        if (churn != null) {
            // before the workload's final reads: the live churn sessions are closed before the trees are read
            churn.finalReads(target, healedAt);
            say.accept("session churn: sessions ended " + churn.ended() + "; " + Churn.ROOT + " read on every server");
        }
        workload.finalPhase(target, recorder);
        if (workloadType.checkers().contains(CheckerCatalog.FINAL_STATE)) {
            say.accept("final state: reading every server's data tree");
            FinalState.read(target, recorder, FinalStateChecker.expiryBound(target.sessionTimeout()),
                    config.workload().options().root());
        }
        phases.lap("final");
    }

    /** The saved history judged by the workload's checkers and by its evidence; results (and evidence) written. */
    private CheckResult check() {
        say.accept("cluster stopped; checking " + recorded + " history entries");
        History history = HistoryFiles.read(dir.historyFile());
        CheckResult checked = Checkers.runSafely(Runner.checker(config, workloadType), history);
        if (probesRecovery()) {
            checked = Checkers.withPart(checked, Checkers.runSafely(new RecoveryChecker(), history));
        }
        for (CheckResult part : realServers ? serversJudge().judge(dir.path(), history) : List.<CheckResult>of()) {
            checked = Checkers.withPart(checked, part);
            say.accept(part.checker() + ": " + part.validity().name().toLowerCase(java.util.Locale.ROOT) + ": "
                    + part.summary());
        }
        CheckResult evidence = RunEvidence.judge(config, workloadType, history, syncs(quorumPackets),
                ClusterLog.leaderChanges(ClusterLog.read(dir.clusterFile())), bugCodePaths,
                RunEvidence.promises(checked));
        CheckResult result = Checkers.withPart(checked, evidence);
        if (evidence.details() instanceof EvidenceReport report) {
            dir.writeEvidence(report);
            say.accept("exercised:");
            ExerciseText.lines(report.exercised()).forEach(line -> say.accept("  " + line));
        }
        if (!evidence.isValid()) {
            say.accept("evidence: " + evidence.summary());
        }
        dir.writeResults(result);
        phases.lap("check");
        return result;
    }

    /** The report, written last, from the run directory's files only. */
    private void report() {
        try {
            say.accept("report: " + RunReport.write(dir));
        } catch (RuntimeException e) {
            say.accept("warning: no report (./zkchaos report " + dir.path() + " tries again): " + e.getMessage());
        }
        phases.lap("report");
    }

    /**
     * Watches who leads (the run's {@code cluster.jsonl}). When the system's own election is under test (the fle
     * nodes), it watches more often and also records every node's leadership in the history
     * ({@link LeadershipRecorder}), for the {@code single-leader} checker.
     */
    private LeaderObserver observe(Cluster cluster, ClusterConfig clusterConfig, JsonLinesRecorder recorder) {
        if (clusterConfig.system().electionUnderTest()) {
            return LeaderObserver.start(cluster, recorder::elapsedNanos, dir.clusterFile(),
                    LeadershipRecorder.POLL_EVERY, new LeadershipRecorder(recorder, cluster.nodes()));
        }
        return LeaderObserver.start(cluster, recorder::elapsedNanos, dir.clusterFile(), Duration.ofMillis(250));
    }

    /** Whether the servers are ZooKeeper's (else the project's own fle nodes). */
    private static boolean zooKeeper(Cluster cluster) {
        return cluster.config().system() == io.zkchaos.harness.cluster.SystemUnderTest.ZOOKEEPER;
    }

    /** The servers' account of this run, judged with its timing and settings. */
    private ServersJudge serversJudge() {
        return ServersJudge.of(config, dir.path(), config.checks());
    }

    /** Whether the run had faults to recover from: then recovery is probed and checked. */
    private boolean probesRecovery() {
        return !config.nemesisDescriptor().isNone();
    }

    private Target target(Cluster cluster) {
        Map<String, String> servers = new LinkedHashMap<>();
        cluster.nodes().forEach(n -> servers.put(n, cluster.connectString(n)));
        return new Target(cluster.connectString(), servers, config.workload().sessionTimeout(),
                config.workload().requestTimeout(), config.load().acls());
    }

    /** The sync kinds among the packets the taps counted (each kind, 0 when unseen); empty without taps. */
    private static Map<String, Long> syncs(Map<String, Long> packets) {
        Map<String, Long> m = new LinkedHashMap<>();
        if (!packets.isEmpty()) {
            SYNC_PACKETS.forEach(t -> m.put(t, packets.getOrDefault(t, 0L)));
        }
        return m;
    }

    /** "; triggers fired 2 of 3" when the run armed protocol triggers. */
    private static String triggers(List<NemesisDriver.Action> actions) {
        List<TriggerRecord> ends = actions.stream()
                .filter(a -> !"trigger".equals(a.step()) && a.did() != null)
                .flatMap(a -> a.did().triggers().stream()).toList();
        if (ends.isEmpty()) {
            return "";
        }
        return "; protocol triggers fired " + ends.stream().filter(TriggerRecord::fired).count() + " of "
                + ends.size() + " armed";
    }

    private static Duration longest(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
