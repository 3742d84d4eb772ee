package io.zkchaos.harness.suite;

import io.zkchaos.harness.cli.Durations;
import io.zkchaos.harness.cluster.SyncMode;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.run.Preload;
import io.zkchaos.harness.run.config.Clients;
import io.zkchaos.harness.run.config.ClusterPart;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.NemesisDescriptor;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.workloads.ZnodeAcls;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The chaos suite's parameters, read from system properties in this one place, and the scenarios and run
 * configurations they make. Each dimension is a comma-separated list; the matrix is their product, in the order
 * system, version, workload, nemesis.
 *
 * <table>
 *   <caption>properties</caption>
 *   <tr><td>{@code zkchaos.chaos.systems}</td><td>systems under test: {@code zookeeper} (default), {@code fle}
 *       (the correct build of the project's own nodes, with their workloads; {@code zkchaos.chaos.system} is an
 *       alias)</td></tr>
 *   <tr><td>{@code zkchaos.chaos.versions}</td><td>ZooKeeper releases; default the harness's (3.9.5)</td></tr>
 *   <tr><td>{@code zkchaos.chaos.workloads}, {@code zkchaos.chaos.nemeses}</td><td>default: all (each system
 *       runs the named workloads it offers)</td></tr>
 *   <tr><td>{@code zkchaos.chaos.time}</td><td>main phase per scenario, default 15s; nightly soaks stretch it</td></tr>
 *   <tr><td>{@code zkchaos.chaos.seed}</td><td>default 20261129</td></tr>
 *   <tr><td>{@code zkchaos.chaos.backend}, {@code zkchaos.chaos.nodes}</td><td>default local, 3 (or 5)</td></tr>
 *   <tr><td>{@code zkchaos.chaos.sync}</td><td>how followers sync: auto (default), diff, snap, snap-on-lag or
 *       trunc ({@code --sync})</td></tr>
 *   <tr><td>{@code zkchaos.chaos.snap-count}</td><td>ZooKeeper's snapCount of every ZooKeeper scenario
 *       ({@code --snap-count}); default ZooKeeper's own</td></tr>
 *   <tr><td>{@code zkchaos.chaos.preload}</td><td>{@code COUNTxBYTES} znodes made before every ZooKeeper scenario's
 *       main phase ({@code --preload}); default none</td></tr>
 *   <tr><td>{@code zkchaos.chaos.acl}</td><td>the ACLs on every ZooKeeper scenario's workload znodes: open or
 *       per-client ({@code --acl}); default open</td></tr>
 *   <tr><td>{@code zkchaos.chaos.churn}</td><td>lanes of session churn in every ZooKeeper scenario
 *       ({@code --churn}); default 0 (none)</td></tr>
 *   <tr><td>{@code zkchaos.chaos.compose}</td><td>up to K faults at once, each of another family
 *       ({@code --compose}), for the nemeses whose faults (as the scenario runs them) span K families; the others run
 *       one fault at a time; default 1</td></tr>
 *   <tr><td>{@code zkchaos.chaos.lanes}</td><td>scenarios run at once, default 2 (each on its own ensemble)</td></tr>
 *   <tr><td>{@code zkchaos.chaos.store}</td><td>where run directories go, default target/chaos-store</td></tr>
 *   <tr><td>{@code zkchaos.chaos.shard}</td><td>{@code K/N}: run share K of N of the matrix, balanced by expected
 *       time (default: all of it)</td></tr>
 *   <tr><td>{@code zkchaos.chaos.times}</td><td>the expected times that balance the shares ({@link ScenarioTimes});
 *       default the checked-in {@code chaos-times.tsv} (test resources)</td></tr>
 * </table>
 *
 * @param systems   the systems under test
 * @param versions  the versions of each
 * @param workloads the workloads
 * @param nemeses   the nemeses
 * @param time      the main phase of every scenario
 * @param seed      the seed of every scenario
 * @param backend   what runs the ensembles
 * @param nodes     ensemble size
 * @param sync      the sync steering of every ensemble
 * @param compose   the most faults at once, for the nemeses that have that many families
 * @param lanes     how many scenarios run at once
 * @param store     the store of the run directories
 * @param shard     which share of the matrix this run runs
 * @param times     each scenario's expected time, which balances the shares
 * @param snapCount ZooKeeper's snapCount in every ZooKeeper scenario, null for ZooKeeper's own
 * @param preload   the znodes made before every ZooKeeper scenario's main phase, null for none
 * @param acls      the ACLs on every ZooKeeper scenario's workload znodes
 * @param churn     lanes of session churn in every ZooKeeper scenario, 0 for none
 */
record ChaosSuite(List<String> systems, List<String> versions, List<String> workloads, List<String> nemeses,
                  Duration time, long seed, String backend, int nodes, SyncMode sync, int compose, int lanes,
                  Path store, Shard shard, ScenarioTimes times, Integer snapCount, Preload preload,
                  ZnodeAcls acls, int churn) {

    /** With ZooKeeper's own snapCount, nothing preloaded, no churn. */
    ChaosSuite(List<String> systems, List<String> versions, List<String> workloads, List<String> nemeses,
               Duration time, long seed, String backend, int nodes, SyncMode sync, int compose, int lanes,
               Path store, Shard shard, ScenarioTimes times) {
        this(systems, versions, workloads, nemeses, time, seed, backend, nodes, sync, compose, lanes, store, shard,
                times, null, null, ZnodeAcls.OPEN, 0);
    }

    /** With open ACLs, without churn. */
    ChaosSuite(List<String> systems, List<String> versions, List<String> workloads, List<String> nemeses,
               Duration time, long seed, String backend, int nodes, SyncMode sync, int compose, int lanes,
               Path store, Shard shard, ScenarioTimes times, Integer snapCount, Preload preload) {
        this(systems, versions, workloads, nemeses, time, seed, backend, nodes, sync, compose, lanes, store, shard,
                times, snapCount, preload, ZnodeAcls.OPEN, 0);
    }

    static final String SHARD_PROPERTY = "zkchaos.chaos.shard";
    static final String TIMES_PROPERTY = "zkchaos.chaos.times";
    /** The checked-in expected times (test resources), for a machine that starts with no ledger. */
    static final String TIMES_RESOURCE = "/chaos-times.tsv";

    /** The systems the harness runs ({@code --system}). */
    static final List<String> SYSTEMS = java.util.Arrays.stream(SystemUnderTest.values()).map(SystemUnderTest::id)
            .toList();

    ChaosSuite {
        for (String s : systems) {
            if (!SYSTEMS.contains(s)) {
                throw new IllegalArgumentException("zkchaos.chaos.systems: unknown system '" + s + "'; known: "
                        + String.join(", ", SYSTEMS));
            }
        }
        for (String w : workloads) {
            if (systems.stream().noneMatch(s -> SystemUnderTest.parse(s).workload(w).isPresent())) {
                throw new IllegalArgumentException("zkchaos.chaos.workloads: unknown workload '" + w + "': no "
                        + "system under test (" + String.join(", ", systems) + ") offers it");
            }
        }
        nemeses.forEach(Nemeses::require);
        if (compose < 1) {
            throw new IllegalArgumentException("zkchaos.chaos.compose must be at least 1, got " + compose);
        }
        if (lanes < 1) {
            throw new IllegalArgumentException("zkchaos.chaos.lanes must be at least 1, got " + lanes);
        }
    }

    /** One scenario of the matrix; its {@code toString()} names the test case in reports and CI dashboards. */
    record Scenario(String system, String version, String workload, String nemesis) {
        @Override
        public String toString() {
            return system + " " + version + ": " + workload + " under " + nemesis;
        }
    }

    static ChaosSuite fromSystemProperties() {
        return new ChaosSuite(
                list("zkchaos.chaos.systems", list("zkchaos.chaos.system", SYSTEMS.subList(0, 1))),
                list("zkchaos.chaos.versions", List.of(ClusterPart.defaults().zookeeper().text())),
                // unfenced-writes shows what goes wrong without fencing (ClientPauseChaosIT): not a promise
                // ZooKeeper makes.
                list("zkchaos.chaos.workloads", java.util.stream.Stream.concat(Workloads.NAMES.stream(),
                        SystemUnderTest.FLE.workloads().stream().map(io.zkchaos.workloads.WorkloadDescriptor::name))
                        .filter(w -> !w.startsWith("unfenced-")).distinct().toList()),
                list("zkchaos.chaos.nemeses", Nemeses.names()),
                Durations.parse(System.getProperty("zkchaos.chaos.time", "15s")),
                Long.getLong("zkchaos.chaos.seed", 20261129L),
                System.getProperty("zkchaos.chaos.backend", ClusterPart.defaults().backend().name()),
                Integer.getInteger("zkchaos.chaos.nodes", ClusterPart.defaults().nodes()),
                SyncMode.parse(System.getProperty("zkchaos.chaos.sync", ClusterPart.defaults().sync().toString())),
                Integer.getInteger("zkchaos.chaos.compose", 1),
                Integer.getInteger("zkchaos.chaos.lanes", 2),
                Path.of(System.getProperty("zkchaos.chaos.store", "target/chaos-store")),
                Shard.parse(SHARD_PROPERTY, System.getProperty(SHARD_PROPERTY)),
                times(System.getProperty(TIMES_PROPERTY, "")),
                Integer.getInteger("zkchaos.chaos.snap-count"),
                System.getProperty("zkchaos.chaos.preload", "").isBlank() ? null
                        : Preload.parse(System.getProperty("zkchaos.chaos.preload")),
                ZnodeAcls.parse(System.getProperty("zkchaos.chaos.acl", ZnodeAcls.OPEN.label())),
                Integer.getInteger("zkchaos.chaos.churn", 0));
    }

    /** The times file the property names, else the checked-in one. */
    static ScenarioTimes times(String file) {
        if (!file.isBlank()) {
            Path path = Path.of(file);
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException(TIMES_PROPERTY + "=" + file + ": no such file (write one with "
                        + "./zkchaos bench suite --times-file FILE STORE...)");
            }
            return ScenarioTimes.read(path);
        }
        try (InputStream in = ChaosSuite.class.getResourceAsStream(TIMES_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(TIMES_RESOURCE + " is missing from the test resources");
            }
            return ScenarioTimes.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    TIMES_RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + TIMES_RESOURCE + ": " + e.getMessage(), e);
        }
    }

    private static List<String> list(String property, List<String> all) {
        String v = System.getProperty(property, "").trim();
        return v.isEmpty() ? all : Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * The matrix, system by system, version by version, workload by workload. The client faults run only for the
     * workloads whose clients can be processes, and those aimed at the leading client only for elections.
     */
    List<Scenario> scenarios() {
        return systems.stream().flatMap(s -> systemVersions(s).stream().flatMap(v -> workloads.stream()
                .filter(w -> SystemUnderTest.parse(s).workload(w).isPresent())
                .filter(w -> speaksTheServers(s, v, w)).flatMap(w -> nemeses.stream()
                        .filter(n -> actsOn(n, SystemUnderTest.parse(s).workload(w).orElseThrow()))
                        .map(n -> new Scenario(s, v, w, n))))).toList();
    }

    /** The election workloads need ZooKeeper 3.5 or later (RunConfig refuses them on 3.4): not in a 3.4 matrix. */
    private static boolean speaksTheServers(String system, String version, String workload) {
        return SystemUnderTest.parse(system) != SystemUnderTest.ZOOKEEPER
                || !Workloads.NEED_ZOOKEEPER_35.containsKey(workload)
                || io.zkchaos.harness.cluster.ZooKeeperVersion.parse(version).map(x -> x.atLeast(3, 5, 0))
                .orElse(true);
    }

    /**
     * This run's share of the matrix ({@link #shard}), in the matrix's order: the whole matrix unless sharded. The
     * shares of every {@code K/N} together are the matrix, each scenario in one.
     */
    List<Scenario> share() {
        return shard.select(scenarios(), Scenario::toString,
                s -> times.seconds(s.system(), s.version(), s.workload(), s.nemesis()));
    }

    /**
     * Whether {@code nemesis} can act on a run of {@code workload}: the client faults need clients that can be
     * processes, and those aimed at the client that leads need a workload that elects one (judged by
     * single-leader); under any other every start could not act, and the run would rightly be unknown.
     */
    private static boolean actsOn(String nemesis, io.zkchaos.workloads.WorkloadDescriptor workload) {
        NemesisDescriptor n = Nemeses.require(nemesis);
        if (!n.needsClientProcesses()) {
            return true;
        }
        return workload.processClients() && (n.faults().stream().noneMatch(f -> f.is(Fault.Trait.ON_LEADING_CLIENT))
                || workload.checkers().contains(io.zkchaos.checkers.CheckerCatalog.SINGLE_LEADER));
    }

    /** ZooKeeper runs in every version named; the fle nodes have one (the project's own build). */
    private List<String> systemVersions(String system) {
        return SystemUnderTest.parse(system) == SystemUnderTest.ZOOKEEPER ? versions : versions.subList(0, 1);
    }

    /**
     * The run of one scenario (with the suite's snapCount, preload, ACLs and churn when it runs ZooKeeper). The
     * nemesis cycle
     * scales with the main phase (held a quarter, healed a fifth of it); the clients work on after the final heal for
     * the whole failover bound, so that heal is judged too. With {@link #compose}, a nemesis whose faults span that
     * many families (as this scenario runs them) holds up to that many at once.
     */
    RunConfig config(Scenario s) {
        RunConfig one = config(s, 1);
        return compose > 1 && one.nemesisDescriptor().families().size() >= compose ? config(s, compose) : one;
    }

    private RunConfig config(Scenario s, int compose) {
        Duration failoverBound = RunConfig.defaultChecks().failoverBound();
        return RunConfig.builder().compose(compose).backend(backend).nodes(nodes).sync(sync).system(s.system()).zookeeper(s.version())
                .workload(s.workload()).nemesis(s.nemesis()).timeLimit(time)
                .faultFor(time.dividedBy(4)).healFor(time.dividedBy(5))
                .recover(failoverBound).failoverBound(failoverBound)
                .clients(Nemeses.require(s.nemesis()).needsClientProcesses() ? Clients.PROCESS
                        : Clients.THREAD)
                .concurrency(5).seed(seed).out(store)
                // the fle nodes take no snapshots and hold no znodes: the storage knobs are ZooKeeper's
                .snapCount(zooKeeper(s) ? snapCount : null).preload(zooKeeper(s) ? preload : null)
                .acls(zooKeeper(s) ? acls : ZnodeAcls.OPEN).churn(zooKeeper(s) ? churn : 0).build()
                // mixed draws from every family whatever the machine; the suite runs where it is, so it leaves out
                // what this machine lacks (libfaketime) explicitly, recorded in each run's config.json
                .leavingOutWhatThisMachineLacks();
    }

    private static boolean zooKeeper(Scenario s) {
        return SystemUnderTest.parse(s.system()) == SystemUnderTest.ZOOKEEPER;
    }
}
