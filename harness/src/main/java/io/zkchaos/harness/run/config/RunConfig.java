package io.zkchaos.harness.run.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.DurationText;
import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.harness.cluster.Capabilities;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SyncMode;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.ZooKeeperVersion;
import io.zkchaos.harness.run.Preload;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultOp;
import io.zkchaos.nemesis.NemesisDescriptor;
import io.zkchaos.nemesis.NemesisTiming;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.results.ConfigFile;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunSettings;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.WorkloadOptions;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.workloads.ZnodeAcls;
import io.zkchaos.workloads.register.RegisterWorkload.ReadMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One scenario run, fully described, composed of its parts: the same configuration and seed give the same operation
 * choices, fault choices and fault timings. Immutable; saved as {@code config.json} ({@link #saved()}) at the start
 * of every run. Each part validates itself and names the field (as the CLI spells it) that is wrong; each part's
 * defaults are in its {@code defaults()} and nowhere else (the CLI shows them from there).
 *
 * @param cluster  what runs the system under test
 * @param workload what the clients do
 * @param nemesis  which faults, how long held, how long healed between
 * @param checks   the settings of the checkers that judge the run (which checkers: the workload's descriptor)
 * @param timing   how long the main phase and the recovery after the final heal last
 * @param seed     the seed of every random choice
 * @param out      the parent directory of the run directories (the store)
 * @param storage  where the servers keep their data and whether they fsync it
 * @param load     what shapes the load beside the workload: preload, ACLs, session churn ({@link LoadPart#NONE} when
 *                 null)
 */
public record RunConfig(ClusterPart cluster, WorkloadPart workload, NemesisPart nemesis, CheckerOptions checks,
                        Timing timing, long seed, String out, StoragePart storage,
                        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = LoadPart.None.class)
                        LoadPart load) {

    public RunConfig {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(nemesis, "nemesis");
        Objects.requireNonNull(checks, "checks");
        Objects.requireNonNull(timing, "timing");
        if (out == null || out.isBlank()) {
            throw new IllegalArgumentException("out must name a directory");
        }
        storage = storage == null ? StoragePart.defaults() : storage;
        load = load == null ? LoadPart.NONE : load;
        if (nemesis.descriptor().requiresLazyFs()) {
            // its faults act on the lazy file system: they imply it (mixed draws them only where it is asked for)
            storage = storage.withLazyfs(true);
        }
        if (cluster.system() != SystemUnderTest.ZOOKEEPER) {
            if (storage.snapCount() != null) {
                throw new IllegalArgumentException("snap-count: the " + cluster.system() + " nodes take no snapshots "
                        + "and roll no logs (each keeps one log, replaced whole by a SNAP sync): ZooKeeper's snapCount "
                        + "has no equivalent there");
            }
            if (load.preload() != null) {
                throw new IllegalArgumentException("preload: the " + cluster.system() + " nodes hold a key-value "
                        + "store, not znodes; --preload " + load.preload() + " is for ZooKeeper");
            }
            if (load.acls() != ZnodeAcls.OPEN) {
                throw new IllegalArgumentException("acl: the " + cluster.system() + " nodes hold a key-value store "
                        + "without ACLs; --acl " + load.acls().label() + " is for ZooKeeper");
            }
            if (load.churn() != null) {
                throw new IllegalArgumentException("churn: the " + cluster.system() + " nodes have no sessions and "
                        + "no ephemerals; --churn is for ZooKeeper");
            }
        }
        if (load.acls() != ZnodeAcls.OPEN && workload.options().root().equals("/")) {
            throw new IllegalArgumentException("acl: --acl " + load.acls().label() + " needs a workload root "
                    + "below / (the final-state check holds every znode under the root to the clients' ACLs, and / "
                    + "also holds the servers' and the harness's own znodes)");
        }
        // What the backend can do for the system, the lazy file system and the nemesis: one check
        // (Capabilities), and every rule of the ensemble by building its configuration the one way it is built.
        Capabilities.requireCluster(cluster.backend(), cluster.system(), storage.lazyfs());
        Capabilities.forBackend(nemesis.descriptor().forStorage(storage.lazyfs()), cluster.backend(),
                cluster.system());
        clusterConfig(cluster, workload, nemesis, storage, seed, null);
        requireClientsSpeakTheServers(cluster, workload);
        if (!nemesisDescriptor(nemesis, workload, cluster, storage).supports(cluster.nodes())) {
            throw new IllegalArgumentException("nemesis '" + nemesis.name() + "' needs at least 3 nodes; nodes is "
                    + cluster.nodes());
        }
        // as this run does the nemesis: without the faults it cannot do, whose families do not count
        nemesisDescriptor(nemesis, workload, cluster, storage).requireCompose(nemesis.compose());
        if (nemesis.schedule() != null) {
            requireScheduleFits(nemesis.schedule(), nemesisDescriptor(nemesis, workload, cluster, storage),
                    timing.timeLimit());
        }
        if (cluster.system() != SystemUnderTest.ZOOKEEPER) {
            // ZooKeeper also runs workloads that are not built in (a JUnit test's own client code): the builder
            // checks built-in names; the fle nodes run only their own.
            cluster.system().requireWorkload(workload.name());
        }
    }

    /** The election workloads on a 3.4 server would elect nobody and read as a broken election: refused, saying why. */
    private static void requireClientsSpeakTheServers(ClusterPart cluster, WorkloadPart workload) {
        String why = Workloads.NEED_ZOOKEEPER_35.get(workload.name());
        if (cluster.system() != SystemUnderTest.ZOOKEEPER || why == null) {
            return;
        }
        if (!cluster.zookeeper().atLeast(3, 5, 0)) {
            throw new IllegalArgumentException("workload '" + workload.name() + "' needs ZooKeeper 3.5 or later: "
                    + why + "; ZooKeeper " + cluster.zookeeper() + " answers 'unknown type 15' and no candidate is "
                    + "ever elected (register, set, watches, sessions, sequential and multi run on 3.4)");
        }
    }

    /**
     * The backend's configuration of this run's ensemble, its servers' files under {@code nodesDirectory}: the one
     * place a run's parts become a {@link ClusterConfig} (which validates every rule of an ensemble).
     */
    public ClusterConfig clusterConfig(Path nodesDirectory) {
        return clusterConfig(cluster, workload, nemesis, storage, seed, nodesDirectory);
    }

    private static ClusterConfig clusterConfig(ClusterPart cluster, WorkloadPart workload, NemesisPart nemesis,
                                               StoragePart storage, long seed, Path nodesDirectory) {
        ClusterConfig.Builder b = ClusterConfig.builder().server(storage.server());
        NemesisTiming timing = new NemesisTiming(nemesis.faultFor(), nemesis.healFor(), workload.sessionTimeout());
        return b.lazyFs(storage.lazyfs())
                .clocks(nemesisDescriptor(nemesis, workload, cluster, storage).movesClocks())
                .nodes(cluster.nodes())
                .version(cluster.zookeeper())
                .sync(cluster.sync())
                .runDirectory(nodesDirectory)
                // Twice the longest fault hold too: the fenced store's session asks for the longest timeout the
                // servers grant, and must outlive a client pause that expires the election session.
                .maxSessionTimeout(longest(longest(workload.sessionTimeout().multipliedBy(2), Duration.ofSeconds(10)),
                        nemesis.descriptor().hold(timing).multipliedBy(2)))
                .seed(seed)
                .system(cluster.system())
                .bugs(cluster.bugs())
                .build();
    }

    private static Duration longest(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** A schedule's faults must be the nemesis's own (as this run does it) and start within the main phase. */
    private static void requireScheduleFits(FaultSchedule schedule, NemesisDescriptor nemesis, Duration timeLimit) {
        Set<String> known = nemesis.faults().stream().map(io.zkchaos.nemesis.Fault::name)
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
        for (String f : schedule.faultNames()) {
            if (!known.contains(f)) {
                throw new IllegalArgumentException("schedule: fault '" + f + "' is not one of nemesis '"
                        + nemesis.name() + "' as this run does it (" + (known.isEmpty() ? "no fault"
                        : String.join(", ", known)) + "); name the nemesis the schedule came from (--nemesis "
                        + schedule.nemesis() + ")");
            }
        }
        for (FaultSchedule.Window w : schedule.faults()) {
            if (w.startMillis() >= timeLimit.toMillis()) {
                throw new IllegalArgumentException("schedule: fault " + w.fault() + " starts at "
                        + DurationText.format(Duration.ofMillis(w.startMillis())) + ", not within the main phase "
                        + "(time-limit " + DurationText.format(timeLimit) + ")");
            }
        }
        nemesis.requireFamiliesApart(schedule);
    }

    /** This run with its faults executed as {@code schedule} says instead of drawn from the seed. */
    public RunConfig withSchedule(FaultSchedule schedule) {
        return new RunConfig(cluster, workload, new NemesisPart(nemesis.name(), nemesis.faultFor(), nemesis.healFor(),
                nemesis.compose(), schedule, nemesis.without()), checks, timing, seed, out, storage, load);
    }

    /** This run with its run directory under {@code store}. */
    public RunConfig withOut(Path store) {
        return new RunConfig(cluster, workload, nemesis, checks, timing, seed, store.toString(), storage, load);
    }

    /**
     * The fault operations of this run: its schedule's, at their times and with their choices, or the nemesis's
     * seeded cycle; empty for no faults.
     */
    public Optional<Gen<FaultOp>> faultOps() {
        if (nemesis.schedule() != null) {
            return Optional.of(nemesis.schedule().gen());
        }
        return nemesisDescriptor().schedule(nemesisTiming(), nemesis.compose());
    }

    /**
     * The configuration a run saved ({@code config.json}, {@link #saved()}), to run it again: every part as the run
     * had it, validated as a new one is (a saved run of a backend or a bug flag that is gone says which).
     *
     * @throws IllegalArgumentException naming the file when it is missing, not a run's configuration, or not valid now
     */
    public static RunConfig read(RunDirectory dir) {
        ConfigFile file;
        try {
            file = dir.readConfig().orElseThrow(() -> new IllegalArgumentException(dir.configFile()
                    + ": no such file (a run configuration expected)"));
        } catch (java.io.UncheckedIOException e) {
            throw new IllegalArgumentException(dir.configFile() + ": not a run configuration: " + e.getMessage(), e);
        }
        if (!(file instanceof RunSettings saved)) {
            throw new IllegalArgumentException(dir.configFile() + ": the configuration of a check of a history, not "
                    + "of a run (only a run can be run again)");
        }
        try {
            return of(saved);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(dir.configFile() + ": cannot be run again: " + e.getMessage(), e);
        }
    }

    /** A saved system's name, typed; files written before the fle nodes existed name none: ZooKeeper. */
    private static SystemUnderTest system(String saved) {
        return saved == null ? SystemUnderTest.ZOOKEEPER : SystemUnderTest.parse(saved);
    }

    private static RunConfig of(RunSettings s) {
        RunSettings.Cluster c = s.cluster();
        RunSettings.Workload w = s.workload();
        return new RunConfig(
                new ClusterPart(ClusterBackends.require(c.backend()), c.nodes(),
                        ZooKeeperVersion.of("zookeeper", c.zookeeper()), c.sync() == null ? null
                        : SyncMode.parse(c.sync()), system(c.system()), ClusterPart.parseBugs(system(c.system()),
                        c.bugs())),
                new WorkloadPart(w.name(), w.concurrency(), Json.MAPPER.convertValue(w.options(),
                        WorkloadOptions.class), w.sessionTimeout(), w.requestTimeout(), w.clients() == null
                        ? Clients.THREAD : Clients.valueOf(w.clients())),
                new NemesisPart(s.nemesis().name(), s.nemesis().faultFor(), s.nemesis().healFor(),
                        s.nemesis().compose(), null, s.nemesis().without().stream().map(Fault.Family::parse)
                        .toList()),
                s.checks() == null ? defaultChecks() : s.checks(),
                new Timing(s.timing().timeLimit(), s.timing().recover(), s.timing().recoveryBound() == null
                        ? Timing.DEFAULT_RECOVERY_BOUND : s.timing().recoveryBound()), s.seed(), s.out(),
                s.storage() == null ? StoragePart.defaults() : new StoragePart(s.storage().lazyfs(),
                        s.storage().forceSync(), s.storage().snapCount()),
                load(s.load()));
    }

    /** A saved load, typed; files with none (and files written before it existed that had none) have none. */
    private static LoadPart load(RunSettings.Load saved) {
        if (saved == null) {
            return LoadPart.NONE;
        }
        return new LoadPart(saved.preload() == null ? null : Preload.parse(saved.preload()),
                saved.acls() == null ? ZnodeAcls.OPEN : ZnodeAcls.parse(saved.acls()), saved.churn());
    }

    /** The workload's descriptor for the system under test: its workload and the checkers that judge it there. */
    public WorkloadDescriptor workloadDescriptor() {
        return cluster.system().requireWorkload(workload.name());
    }

    /**
     * The nemesis as this run does it: without the lazy file system's faults when the run has none, without the
     * client faults when clients are threads, without the faults the backend cannot do for the system ({@code mixed}
     * mixes the others); validated by the constructor.
     */
    public NemesisDescriptor nemesisDescriptor() {
        return nemesisDescriptor(nemesis, workload, cluster, storage);
    }

    /**
     * Refuses this run, before it starts, when it needs what this machine lacks: the lazy file system, or what the
     * faults it draws (or its schedule executes) need here, such as libfaketime ({@link Capabilities#requireHere}).
     * The configuration itself never consults the machine: the same seed and configuration draw the same faults
     * everywhere, or are refused.
     *
     * @throws IllegalArgumentException naming what is missing and how to do without it
     */
    public void requireMachine() {
        Capabilities.requireHere(nemesis.name(), nemesisDescriptor(), nemesis.schedule() == null ? null
                        : nemesis.schedule().faultNames(), Nemeses.require(nemesis.name()).families().size() > 1,
                cluster.backend(), cluster.system(), storage.lazyfs());
    }

    /**
     * This run with the families this machine cannot do left out of its nemesis ({@code --without}, recorded in
     * config.json): for suites that run {@code mixed} on whatever machine they find, explicitly. Itself when nothing
     * is missing, when the run executes a schedule, and for a nemesis of one family (which {@link #requireMachine}
     * refuses where the machine lacks what it needs).
     */
    public RunConfig leavingOutWhatThisMachineLacks() {
        if (nemesis.schedule() != null || Nemeses.require(nemesis.name()).families().size() < 2) {
            return this;
        }
        Set<Fault.Family> missing = Capabilities.familiesMissingHere(nemesisDescriptor(), cluster.backend(),
                cluster.system());
        if (missing.isEmpty()) {
            return this;
        }
        Set<Fault.Family> without = new java.util.TreeSet<>(nemesis.without());
        without.addAll(missing);
        if (without.containsAll(nemesis.descriptor().families())) {
            return this; // nothing left to draw: refused where it runs, naming what is missing
        }
        return new RunConfig(cluster, workload, new NemesisPart(nemesis.name(), nemesis.faultFor(),
                nemesis.healFor(), nemesis.compose(), null, List.copyOf(without)), checks, timing, seed, out, storage,
                load);
    }

    /** The nemesis' faults that this run's clients and backend allow ({@link Capabilities}). */
    private static NemesisDescriptor nemesisDescriptor(NemesisPart nemesis, WorkloadPart workload,
                                                       ClusterPart cluster, StoragePart storage) {
        return Capabilities.forBackend(nemesis.descriptor().forStorage(storage.lazyfs())
                        .forClients(workload.clients() == Clients.PROCESS),
                cluster.backend(), cluster.system());
    }

    /** The checkers' settings of a run: {@link CheckerOptions#forRuns()}, where every default is written. */
    public static CheckerOptions defaultChecks() {
        return CheckerOptions.forRuns();
    }

    /**
     * The scenario's name, also the store's subdirectory: {@code <workload>-<nemesis>} for ZooKeeper;
     * {@code fle-<workload>-<nemesis>} for the fle nodes, {@code fle+<bug>+...-<workload>-<nemesis>} with bugs.
     */
    public String scenario() {
        String system = cluster.system() == SystemUnderTest.ZOOKEEPER ? ""
                : cluster.system() + cluster.bugNames().stream().map(b -> "+" + b).collect(Collectors.joining()) + "-";
        return system + workload.name() + "-" + nemesis.name();
    }

    /**
     * This configuration as {@code config.json} saves it, for the report to read with the same type: every value
     * plain data, so the file keeps its shape when the types here change.
     */
    @SuppressWarnings("unchecked")
    public RunSettings saved() {
        return new RunSettings(scenario(),
                new RunSettings.Cluster(cluster.backend().name(), cluster.nodes(), cluster.zookeeper().text(),
                        cluster.sync().name(), cluster.system().id(), cluster.bugNames(), cluster.hostNames()),
                new RunSettings.Workload(workload.name(), workload.concurrency(),
                        Json.MAPPER.convertValue(workload.options(), Map.class), workload.sessionTimeout(),
                        workload.requestTimeout(), workload.clients().name()),
                new RunSettings.Nemesis(nemesis.name(), nemesis.faultFor(), nemesis.healFor(), nemesis.compose(),
                        nemesis.withoutNames()),
                checks,
                new RunSettings.Timing(timing.timeLimit(), timing.recover(), timing.recoveryBound()), seed, out,
                new RunSettings.Storage(storage.lazyfs(), storage.forceSync(), storage.snapCount(), null),
                load.equals(LoadPart.NONE) ? null : new RunSettings.Load(load.preload() == null ? null
                        : load.preload().toString(), load.acls() == ZnodeAcls.OPEN ? null : load.acls().label(),
                        load.churn()));
    }

    public Path outDirectory() {
        return Path.of(out);
    }

    /** The nemesis cycle's timing. */
    public NemesisTiming nemesisTiming() {
        return new NemesisTiming(nemesis.faultFor(), nemesis.healFor(), workload.sessionTimeout());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Sets single fields of the parts, starting from every part's defaults; {@link #build()} validates. The
     * setters are named as the CLI's options.
     */
    public static final class Builder {
        private ClusterBackend backend = ClusterPart.defaults().backend();
        private int nodes = ClusterPart.defaults().nodes();
        private ZooKeeperVersion zookeeper = ClusterPart.defaults().zookeeper();
        private SyncMode sync = ClusterPart.defaults().sync();
        private String system = ClusterPart.defaults().system().id();
        private List<String> bugs = ClusterPart.defaults().bugNames();
        private String workload = WorkloadPart.defaults().name();
        private boolean customWorkload;
        private int concurrency = WorkloadPart.defaults().concurrency();
        private WorkloadOptions workloadOptions = WorkloadPart.defaults().options();
        private Duration sessionTimeout = WorkloadPart.defaults().sessionTimeout();
        private Duration requestTimeout = WorkloadPart.defaults().requestTimeout();
        private Clients clients = WorkloadPart.defaults().clients();
        private String nemesis = NemesisPart.defaults().name();
        private Duration faultFor = NemesisPart.defaults().faultFor();
        private Duration healFor = NemesisPart.defaults().healFor();
        private CheckerOptions checks = defaultChecks();
        private Duration timeLimit = Timing.defaults().timeLimit();
        private Duration recover = Timing.defaults().recover();
        private Duration recoveryBound = Timing.defaults().recoveryBound();
        private long seed = System.currentTimeMillis();
        private String out = "store";
        private boolean lazyfs = StoragePart.defaults().lazyfs();
        private boolean forceSync = StoragePart.defaults().forceSync();
        private Integer snapCount = StoragePart.defaults().snapCount();
        private Preload preload = LoadPart.defaults().preload();
        private ZnodeAcls acls = LoadPart.defaults().acls();
        private Integer churn = LoadPart.defaults().churn();
        private int compose = NemesisPart.defaults().compose();
        private FaultSchedule schedule;
        private List<Fault.Family> without = List.of();

        /**
         * A backend as listed, by name ({@code --backend}): the ssh backend so named has no hosts (and is refused);
         * give it as {@link #backend(ClusterBackend)} on its hosts.
         *
         * @throws IllegalArgumentException naming an unknown backend
         */
        public Builder backend(String v) {
            return backend(ClusterBackends.require(v));
        }

        /** The backend with its own settings (the ssh backend on its hosts). */
        public Builder backend(ClusterBackend v) {
            backend = v;
            return this;
        }

        public Builder nodes(int v) {
            nodes = v;
            return this;
        }

        /**
         * The ZooKeeper version, as {@code --zookeeper} takes it.
         *
         * @throws IllegalArgumentException naming the field and the text when it is not a version
         */
        public Builder zookeeper(String v) {
            return zookeeper(ZooKeeperVersion.of("zookeeper", v));
        }

        public Builder zookeeper(ZooKeeperVersion v) {
            zookeeper = v;
            return this;
        }

        public Builder sync(SyncMode v) {
            sync = v;
            return this;
        }

        /** {@code zookeeper} or {@code fle}. */
        public Builder system(String v) {
            system = v;
            return this;
        }

        /** The fle nodes' bug flags (names as {@code --bug} takes them). */
        public Builder bugs(List<String> v) {
            bugs = v;
            return this;
        }

        /** A built-in workload ({@link Workloads}). */
        public Builder workload(String v) {
            workload = v;
            customWorkload = false;
            return this;
        }

        /**
         * A workload that is not built in, named {@code v}: the run is given its descriptor
         * ({@link Runner#run(RunConfig, io.zkchaos.workloads.WorkloadDescriptor)}).
         */
        public Builder customWorkload(String v) {
            workload = v;
            customWorkload = true;
            return this;
        }

        public Builder concurrency(int v) {
            concurrency = v;
            return this;
        }

        public Builder workloadOptions(WorkloadOptions v) {
            workloadOptions = v;
            return this;
        }

        public Builder keys(int v) {
            workloadOptions = workloadOptions.withKeys(v);
            return this;
        }

        public Builder rate(double v) {
            workloadOptions = workloadOptions.withRate(v);
            return this;
        }

        public Builder reads(ReadMode v) {
            workloadOptions = workloadOptions.withReads(v);
            return this;
        }

        /** Register readers pinned to one server (a node name or {@code follower}); null: not pinned. */
        public Builder pinReads(String v) {
            workloadOptions = workloadOptions.withPinReads(v);
            return this;
        }

        public Builder sessionTimeout(Duration v) {
            sessionTimeout = v;
            return this;
        }

        public Builder requestTimeout(Duration v) {
            requestTimeout = v;
            return this;
        }

        public Builder clients(Clients v) {
            clients = v;
            return this;
        }

        public Builder nemesis(String v) {
            nemesis = v;
            return this;
        }

        public Builder faultFor(Duration v) {
            faultFor = v;
            return this;
        }

        public Builder healFor(Duration v) {
            healFor = v;
            return this;
        }

        /** The user's own server-log rules ({@code --log-rules}): a file that must be readable; null for none. */
        public Builder logRules(java.nio.file.Path file) {
            if (file != null && !java.nio.file.Files.isReadable(file)) {
                throw new IllegalArgumentException("log-rules: cannot read " + file);
            }
            checks = checks.withLogRules(file == null ? null : file.toAbsolutePath().toString());
            return this;
        }

        /** The availability checker's bound ({@code --availability-bound}); null for the run's default. */
        public Builder availabilityBound(Duration v) {
            checks = checks.withAvailabilityBound(v);
            return this;
        }

        public Builder checks(CheckerOptions v) {
            checks = v;
            return this;
        }

        public Builder strict(boolean v) {
            checks = checks.withStrict(v);
            return this;
        }

        public Builder failoverBound(Duration v) {
            checks = checks.withFailoverBound(v);
            return this;
        }

        /** Evidence requirements the run is not held to ({@code all}: none); checked against the run's at its start. */
        public Builder relax(List<String> ids) {
            checks = checks.withRelax(ids);
            return this;
        }

        public Builder maxOverlap(Duration v) {
            checks = checks.withMaxOverlap(v);
            return this;
        }

        public Builder timeLimit(Duration v) {
            timeLimit = v;
            return this;
        }

        public Builder recoveryBound(Duration v) {
            recoveryBound = v;
            return this;
        }

        public Builder recover(Duration v) {
            recover = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Builder out(Path v) {
            out = v == null ? null : v.toString();
            return this;
        }

        public Builder lazyfs(boolean v) {
            lazyfs = v;
            return this;
        }

        public Builder forceSync(boolean v) {
            forceSync = v;
            return this;
        }

        /** ZooKeeper's {@code snapCount} ({@code --snap-count}); null for ZooKeeper's own. */
        public Builder snapCount(Integer v) {
            snapCount = v;
            return this;
        }

        /** The znodes created before the main phase ({@code --preload}); null for none. */
        public Builder preload(Preload v) {
            preload = v;
            return this;
        }

        /** The ACLs on the workload's znodes ({@code --acl}); open by default. */
        public Builder acls(ZnodeAcls v) {
            acls = v;
            return this;
        }

        /** The most faults in force at once, each of another family ({@code --compose}); 1 by default. */
        public Builder compose(int v) {
            compose = v;
            return this;
        }

        /** Lanes of session churn ({@code --churn}); 0 or null for none. */
        public Builder churn(Integer v) {
            churn = v;
            return this;
        }

        /** The fault families left out of the nemesis ({@code --without}); empty or null for none. */
        public Builder without(List<Fault.Family> v) {
            without = v == null ? List.of() : v;
            return this;
        }

        /** The faults to execute instead of the seeded cycle ({@code --schedule}); null for the cycle. */
        public Builder schedule(FaultSchedule v) {
            schedule = v;
            return this;
        }

        /** @throws IllegalArgumentException naming the field that is wrong */
        public RunConfig build() {
            SystemUnderTest sut = SystemUnderTest.parse(system);
            if (!customWorkload) {
                sut.requireWorkload(workload);
            }
            return new RunConfig(new ClusterPart(backend, nodes, zookeeper, sync, sut, ClusterPart.parseBugs(sut,
                    bugs)),
                    new WorkloadPart(workload, concurrency, workloadOptions, sessionTimeout, requestTimeout,
                            clients),
                    new NemesisPart(nemesis, faultFor, healFor, compose, schedule, without), checks,
                    new Timing(timeLimit, recover, recoveryBound), seed, out,
                    new StoragePart(lazyfs, forceSync, snapCount), new LoadPart(preload, acls, churn));
        }
    }
}
