package io.zkchaos.harness.run.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SyncMode;
import io.zkchaos.harness.cluster.ZooKeeperVersion;
import io.zkchaos.harness.cluster.server.ServerFiles;
import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.harness.run.Preload;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultOp;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.workloads.WorkloadOptions;
import io.zkchaos.workloads.ZnodeAcls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunConfigTest {

    @Test
    void namesTheFieldThatIsWrong() {
        assertThatThrownBy(() -> RunConfig.builder().workload("bogus").build())
                .hasMessageContaining("unknown workload 'bogus'").hasMessageContaining("register, set, election");
        assertThatThrownBy(() -> RunConfig.builder().nemesis("chaos-monkey").build())
                .hasMessageContaining("unknown nemesis 'chaos-monkey'").hasMessageContaining("kill-leader");
        assertThatThrownBy(() -> RunConfig.builder().backend("kubernetes").build())
                .hasMessageContaining("unknown backend 'kubernetes'; known: local");
        assertThatThrownBy(() -> RunConfig.builder().nodes(4).build()).hasMessageContaining("nodes must be 3 or 5");
        assertThatThrownBy(() -> RunConfig.builder().nodes(1).nemesis("halves").build())
                .hasMessageContaining("needs at least 3 nodes");
        assertThatThrownBy(() -> RunConfig.builder().timeLimit(Duration.ZERO).build())
                .hasMessageContaining("time-limit");
        assertThatThrownBy(() -> RunConfig.builder().concurrency(0).build()).hasMessageContaining("concurrency");
        assertThatThrownBy(() -> RunConfig.builder().keys(0).build()).hasMessageContaining("keys must be 1..1000");
        assertThatThrownBy(() -> RunConfig.builder().failoverBound(Duration.ZERO).build())
                .hasMessageContaining("failover-bound");
        assertThatThrownBy(() -> RunConfig.builder().out(null).build()).hasMessageContaining("out");
    }

    @Test
    void clientFaultsNeedClientProcessesAndOnlySomeWorkloadsHaveThem() {
        assertThatThrownBy(() -> RunConfig.builder().workload("election").nemesis("pause-leader-client").build())
                .hasMessage("nemesis 'pause-leader-client' acts on client processes, but the clients run as threads "
                        + "of the harness: run them as processes (--clients process)");
        assertThatThrownBy(() -> RunConfig.builder().workload("register").clients(Clients.PROCESS).build())
                .hasMessage("clients can be processes only for election, election-curator, election-naive, "
                        + "fenced-writes, fenced-writes-curator, unfenced-writes, sessions; workload 'register' runs "
                        + "its clients as threads (clients thread)");
        RunConfig processes = RunConfig.builder().workload("fenced-writes").clients(Clients.PROCESS)
                .nemesis("mixed").build();
        assertThat(processes.nemesisDescriptor().faults()).anyMatch(f -> f.needsClientProcesses());
        RunConfig threads = RunConfig.builder().workload("fenced-writes").nemesis("mixed").build();
        assertThat(threads.nemesisDescriptor().faults()).isNotEmpty().noneMatch(f -> f.needsClientProcesses());
        // The client faults need no peers: a smoke run on one node can freeze its clients.
        assertThat(RunConfig.builder().workload("election").clients(Clients.PROCESS)
                .nemesis("pause-leader-client").nodes(1).build().scenario())
                .isEqualTo("election-pause-leader-client");
    }

    @Test
    void aWorkloadThatIsNotBuiltInIsNamedAsTheRunIsGivenIt() {
        RunConfig c = RunConfig.builder().customWorkload("counter").nemesis("kill-leader").build();
        assertThat(c.scenario()).isEqualTo("counter-kill-leader");
        assertThatThrownBy(() -> c.workload().descriptor()).hasMessageContaining("unknown workload 'counter'");
        assertThatThrownBy(() -> RunConfig.builder().customWorkload("My Counter").build())
                .hasMessageContaining("lower-case letters, digits and dashes");
        // naming a built-in workload again checks it against the registry
        assertThatThrownBy(() -> RunConfig.builder().customWorkload("counter").workload("counter").build())
                .hasMessageContaining("unknown workload 'counter'");
    }

    @Test
    void theSystemAndItsBugsAreCheckedAgainstEachOtherAndTheWorkload() {
        assertThatThrownBy(() -> RunConfig.builder().system("etcd").build())
                .hasMessageContaining("unknown system 'etcd'; known: zookeeper, fle");
        assertThatThrownBy(() -> RunConfig.builder().bugs(List.of("ack-before-durable")).build())
                .hasMessageContaining("only the fle nodes have bug flags (--system fle)");
        assertThatThrownBy(() -> RunConfig.builder().system("fle").bugs(List.of("typo")).build())
                .hasMessageContaining("unknown bug 'typo': known bugs are elect-without-zxid, no-epoch-fencing, "
                        + "ack-before-durable, commit-before-quorum, no-finalize-wait, mix-election-epochs");
        assertThatThrownBy(() -> RunConfig.builder().system("fle").workload("election").build())
                .hasMessageContaining("unknown workload 'election' for system fle; it offers: register, set");
        assertThatThrownBy(() -> RunConfig.builder().system("fle").backend("docker").build())
                .hasMessage("system: the docker backend runs zookeeper only, not fle (it runs on --backend local or ssh)");
        RunConfig fle = RunConfig.builder().system("FLE").bugs(List.of("no_finalize_wait", "ack-before-durable"))
                .workload("set").nemesis("kill-all").build();
        assertThat(fle.cluster().system()).isEqualTo(io.zkchaos.harness.cluster.SystemUnderTest.FLE);
        assertThat(fle.cluster().bugNames()).as("parsed, in a stable order")
                .containsExactly("ack-before-durable", "no-finalize-wait");
        assertThat(fle.scenario()).isEqualTo("fle+ack-before-durable+no-finalize-wait-set-kill-all");
        assertThat(RunConfig.builder().system("fle").workload("register").build().scenario())
                .isEqualTo("fle-register-none");
    }

    @Test
    void theFleWorkloadsAreJudgedByTheirOwnCheckersToo() {
        assertThat(Runner.checker(RunConfig.builder().system("fle").workload("set").build()).check(
                io.zkchaos.checkers.history.History.of(List.of())).parts())
                .extracting(CheckResult::checker).containsExactly("no-lost-commit", "log-prefix", "single-leader");
        assertThat(Runner.checker(RunConfig.builder().system("fle").workload("register").build()).check(
                io.zkchaos.checkers.history.History.of(List.of())).parts())
                .extracting(CheckResult::checker).containsExactly("zk-read-model", "log-prefix", "single-leader");
    }

    @Test
    void theScenarioIsWorkloadAndNemesis() {
        assertThat(RunConfig.builder().workload("set").nemesis("kill-leader").build().scenario())
                .isEqualTo("set-kill-leader");
    }

    @Test
    void everyDefaultComesFromItsPart() {
        RunConfig c = RunConfig.builder().seed(1).build();
        assertThat(c.cluster()).isEqualTo(ClusterPart.defaults());
        assertThat(c.workload()).isEqualTo(WorkloadPart.defaults());
        assertThat(c.workload().options()).isEqualTo(WorkloadOptions.defaults());
        assertThat(c.nemesis()).isEqualTo(NemesisPart.defaults());
        assertThat(c.timing()).isEqualTo(Timing.defaults());
        assertThat(c.checks()).isEqualTo(RunConfig.defaultChecks());
        // The register workload's key count had two defaults once (3 and 5); there is one now.
        assertThat(c.workload().options().keys()).isEqualTo(3);
    }

    @Test
    void theSavedConfigurationShowsEachPartAndIsReadBackAsWritten(@TempDir Path tmp) throws Exception {
        RunConfig c = RunConfig.builder().workload("election").nemesis("mixed").seed(5).out(Path.of("/tmp/s"))
                .failoverBound(Duration.ofSeconds(12)).build();
        RunDirectory dir = new RunDirectory(tmp);
        dir.writeConfig(c.saved());
        JsonNode tree = Json.MAPPER.readTree(dir.configFile().toFile());
        assertThat(tree.fieldNames()).toIterable().containsExactly("command", "scenario", "cluster", "workload",
                "nemesis", "checks", "timing", "seed", "out", "storage");
        assertThat(tree.path("command").asText()).isEqualTo("run");
        assertThat(tree.path("scenario").asText()).isEqualTo("election-mixed");
        assertThat(tree.path("workload").path("name").asText()).isEqualTo("election");
        assertThat(tree.path("workload").path("options").path("holdMin").asText()).isEqualTo("PT0.3S");
        assertThat(tree.path("cluster").path("backend").asText()).isEqualTo("local");
        assertThat(tree.path("nemesis").path("name").asText()).isEqualTo("mixed");
        assertThat(tree.path("checks").path("failoverBound").asText()).isEqualTo("PT12S");
        // Each part is saved as the configuration's own types write it, so files saved before are read alike.
        JsonNode own = Json.MAPPER.valueToTree(c);
        own.fieldNames().forEachRemaining(part -> assertThat(tree.get(part)).as(part).isEqualTo(own.get(part)));

        assertThat(dir.readConfig()).contains(c.saved());
    }

    @Test
    void storageDefaultsToTheMachinesFileSystemAndTheFaultsThatDropUnsyncedWritesImplyTheLazyOne() {
        assertThat(RunConfig.builder().build().storage()).isEqualTo(new StoragePart(false, true));
        RunConfig power = RunConfig.builder().nemesis("kill-all-lose-unfsynced").forceSync(false).build();
        assertThat(power.storage()).isEqualTo(new StoragePart(true, false));
        assertThat(RunConfig.builder().nemesis("kill-lose-unfsynced").build().storage().lazyfs()).isTrue();
        for (String disk : List.of("disk-eio-write", "disk-eio-fsync", "disk-full", "disk-slow-fsync",
                "kill-tear-unfsynced", "kill-all-tear-unfsynced")) {
            assertThat(RunConfig.builder().nemesis(disk).build().storage().lazyfs()).as(disk).isTrue();
            assertThatThrownBy(() -> RunConfig.builder().backend("docker").nemesis(disk).build()).as(disk)
                    .hasMessageStartingWith("lazyfs: the docker backend cannot");
        }
        assertThat(RunConfig.builder().nemesis("mixed").build().storage().lazyfs()).isFalse();
        // mixed draws the disk faults and power failures only on a run that asked for the lazy file system
        assertThat(RunConfig.builder().nemesis("mixed").build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).doesNotContain("disk-eio-fsync", "kill-all-lose-unfsynced");
        assertThat(RunConfig.builder().nemesis("mixed").lazyfs(true).build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).contains("disk-eio-fsync", "disk-full", "kill-all-lose-unfsynced");
        assertThat(RunConfig.builder().backend("docker").nemesis("mixed").build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).doesNotContain("disk-eio-fsync");
        assertThatThrownBy(() -> RunConfig.builder().backend("docker").lazyfs(true).build())
                .hasMessage("lazyfs: the docker backend cannot put the data directories on the lazy file system");
        assertThatThrownBy(() -> RunConfig.builder().backend("docker").nemesis("kill-lose-unfsynced").build())
                .hasMessageStartingWith("lazyfs: the docker backend cannot");
    }

    @Test
    void whatAFaultNeedsIsCheckedAgainstWhatTheBackendCanDoForTheSystem() {
        // the fle nodes speak their own protocol: no taps, so no fault at a protocol moment
        assertThatThrownBy(() -> RunConfig.builder().system("fle").workload("set").nemesis("cut-during-sync")
                .build()).hasMessage("nemesis: the local backend running fle cannot do 'cut-during-sync': "
                + "cut-during-sync needs a backend that taps the quorum links for faults at a protocol moment");
        // mixed keeps what it can do there
        RunConfig mixedOnFle = RunConfig.builder().system("fle").workload("set").nemesis("mixed").build();
        assertThat(mixedOnFle.nemesisDescriptor().faults()).extracting(f -> f.name()).isNotEmpty()
                .contains("kill-leader", "isolate-leader")
                .doesNotContain("cut-during-sync", "stall-during-snapshot", "crash-during-sync");
        RunConfig mixedOnDocker = RunConfig.builder().backend("docker").nemesis("mixed").build();
        assertThat(mixedOnDocker.nemesisDescriptor().faults()).extracting(f -> f.name())
                .doesNotContain("crash-during-sync");
        assertThat(RunConfig.builder().nemesis("mixed").build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).contains("crash-during-sync");
    }

    @Test
    void aClockNemesisStartsTheServersWithMovableClocksWhereTheBackendCanAndIsRefusedWhereItCannot() {
        assertThatThrownBy(() -> RunConfig.builder().backend("docker").nemesis("clock-skew").build())
                .hasMessage("nemesis: the docker backend running zookeeper cannot do 'clock-skew': clock-skew needs a "
                        + "backend that moves a server's wall clock (its containers run on the host's clock, with "
                        + "nothing preloaded)");
        assertThat(RunConfig.builder().backend("docker").nemesis("mixed").build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).doesNotContain("clock-skew", "clock-bump", "clock-strobe");
        assertThat(RunConfig.builder().backend("docker").nemesis("mixed").build()
                .clusterConfig(Path.of("/tmp/zkc-nodes")).clocks()).isFalse();
        assertThat(RunConfig.builder().nemesis("kill-random").build().clusterConfig(Path.of("/tmp/zkc-nodes"))
                .clocks()).as("servers on the machine's clock unless a fault moves it").isFalse();
        if (new io.zkchaos.harness.cluster.local.LocalBackend().capabilities(
                io.zkchaos.harness.cluster.SystemUnderTest.ZOOKEEPER).contains(
                io.zkchaos.harness.cluster.Capability.CLOCKS)) {
            assertThat(RunConfig.builder().nemesis("clock-strobe").build().clusterConfig(Path.of("/tmp/zkc-nodes"))
                    .clocks()).isTrue();
            assertThat(RunConfig.builder().nemesis("mixed").build().clusterConfig(Path.of("/tmp/zkc-nodes"))
                    .clocks()).isTrue();
        }
    }

    /** Runs {@code body} with {@code -Dzkchaos.libfaketime} set to {@code path} (null: as the machine has it). */
    private static <T> T withLibfaketime(String path, java.util.function.Supplier<T> body) {
        String was = System.getProperty(ProcessClock.LIBRARY_PROPERTY);
        if (path == null) {
            System.clearProperty(ProcessClock.LIBRARY_PROPERTY);
        } else {
            System.setProperty(ProcessClock.LIBRARY_PROPERTY, path);
        }
        try {
            return body.get();
        } finally {
            if (was == null) {
                System.clearProperty(ProcessClock.LIBRARY_PROPERTY);
            } else {
                System.setProperty(ProcessClock.LIBRARY_PROPERTY, was);
            }
        }
    }

    private static List<Gens.Timed<FaultOp>> draw(RunConfig c) {
        return Gens.preview(c.faultOps().orElseThrow(), c.seed(), 200);
    }

    @Test
    void theSeedAloneFixesTheDrawWhateverTheMachineHas() {
        java.util.function.Supplier<RunConfig> mixed = () -> RunConfig.builder().workload("register")
                .nemesis("mixed").seed(3).build();
        List<Gens.Timed<FaultOp>> without = withLibfaketime("/nonexistent", () -> draw(mixed.get()));
        List<Gens.Timed<FaultOp>> with = withLibfaketime(null, () -> draw(mixed.get()));
        assertThat(without).hasSize(200).isEqualTo(with);
        assertThat(without).extracting(t -> t.value().fault()).as("clock faults drawn with no libfaketime too")
                .anyMatch(f -> f.startsWith("clock-"));
        // the client processes' clocks and the lazy file system's faults alike: decided by the configuration
        java.util.function.Supplier<RunConfig> processes = () -> RunConfig.builder().workload("election")
                .clients(Clients.PROCESS).nemesis("mixed").lazyfs(true).seed(3).build();
        assertThat(withLibfaketime("/nonexistent", () -> draw(processes.get())))
                .isEqualTo(withLibfaketime(null, () -> draw(processes.get())));
        // the same seed with the same families left out gives one schedule too, without them
        java.util.function.Supplier<RunConfig> noClock = () -> RunConfig.builder().workload("register")
                .nemesis("mixed").without(List.of(Fault.Family.CLOCK)).seed(3).build();
        List<Gens.Timed<FaultOp>> a = withLibfaketime("/nonexistent", () -> draw(noClock.get()));
        assertThat(a).isEqualTo(withLibfaketime(null, () -> draw(noClock.get())));
        assertThat(a).extracting(t -> t.value().fault()).noneMatch(f -> f.startsWith("clock-"));
        assertThat(a).isNotEqualTo(with);
    }

    @Test
    void aRunWhoseDrawNeedsLibfaketimeIsRefusedWhereItIsMissingNamingItAndTheWayWithout(@TempDir Path tmp) {
        RunConfig mixed = RunConfig.builder().workload("register").nemesis("mixed").seed(3).out(tmp).build();
        withLibfaketime("/nonexistent", () -> {
            assertThatThrownBy(mixed::requireMachine).hasMessage("nemesis mixed draws clock faults (clock-skew, "
                    + "clock-bump, clock-strobe), which need libfaketime (not found at /nonexistent, which "
                    + "-Dzkchaos.libfaketime names); install it or leave the family out with --without clock");
            assertThatThrownBy(() -> new Runner(new java.io.PrintWriter(java.io.Writer.nullWriter()),
                    Duration.ofSeconds(5)).run(mixed)).as("refused before it starts")
                    .hasMessageStartingWith("nemesis mixed draws clock faults");
            assertThat(tmp.toFile().list()).as("nothing started, nothing written").isEmpty();
            // a nemesis of one family: nothing to leave out
            assertThatThrownBy(() -> RunConfig.builder().nemesis("clock-skew").build().requireMachine())
                    .hasMessage("nemesis clock-skew draws clock faults (clock-skew), which need libfaketime (not "
                            + "found at /nonexistent, which -Dzkchaos.libfaketime names); install it");
            // the client processes' clocks: libfaketime on this machine whatever the backend
            assertThatThrownBy(() -> RunConfig.builder().backend("docker").workload("election")
                    .clients(Clients.PROCESS).nemesis("mixed").build().requireMachine())
                    .hasMessage("nemesis mixed draws client faults (client-clock-skew, client-clock-bump), which "
                            + "need libfaketime on this machine for the client processes (not found at /nonexistent, "
                            + "which -Dzkchaos.libfaketime names); install it or leave the family out with --without "
                            + "client");
            // left out explicitly, the run goes ahead; and a schedule is held to the faults it executes
            RunConfig.builder().nemesis("mixed").without(List.of(Fault.Family.CLOCK)).build().requireMachine();
            RunConfig.builder().nemesis("mixed").timeLimit(Duration.ofSeconds(20)).schedule(new FaultSchedule("mixed",
                    null, List.of(FaultSchedule.Window.of("halves", 1000, 2000)))).build().requireMachine();
            assertThatThrownBy(() -> RunConfig.builder().nemesis("mixed").timeLimit(Duration.ofSeconds(20))
                    .schedule(new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("clock-bump", 1000,
                            5000)))).build().requireMachine())
                    .hasMessageStartingWith("the schedule of nemesis mixed executes clock faults (clock-bump), "
                            + "which need libfaketime").hasMessageEndingWith("; install it");
            // a suite leaves the family out itself, explicitly and recorded
            RunConfig left = mixed.leavingOutWhatThisMachineLacks();
            assertThat(left.nemesis().without()).containsExactly(Fault.Family.CLOCK);
            assertThat(left.saved().nemesis().without()).containsExactly("clock");
            left.requireMachine();
            assertThat(RunConfig.builder().nemesis("clock-skew").build().leavingOutWhatThisMachineLacks()
                    .nemesis().without()).as("one family: refused, not emptied").isEmpty();
            return null;
        });
        if (ProcessClock.library().isPresent()) {
            mixed.requireMachine();
            assertThat(mixed.leavingOutWhatThisMachineLacks()).isSameAs(mixed);
        }
    }

    @Test
    void familiesLeftOutAreRecordedReadBackAndCheckedAndOldFilesHaveNone(@TempDir Path tmp) throws Exception {
        RunConfig c = RunConfig.builder().workload("register").nemesis("mixed")
                .without(List.of(Fault.Family.DISK, Fault.Family.CLOCK, Fault.Family.CLOCK)).seed(3).out(tmp).build();
        assertThat(c.nemesis().without()).as("sorted, once each").containsExactly(Fault.Family.CLOCK,
                Fault.Family.DISK);
        assertThat(c.nemesisDescriptor().families()).doesNotContain(Fault.Family.CLOCK, Fault.Family.DISK)
                .contains(Fault.Family.NETWORK, Fault.Family.CRASH, Fault.Family.PAUSE);
        RunDirectory dir = new RunDirectory(tmp.resolve("run"));
        java.nio.file.Files.createDirectories(dir.path());
        dir.writeConfig(c.saved());
        JsonNode tree = Json.MAPPER.readTree(dir.configFile().toFile());
        assertThat(tree.path("nemesis").path("without")).hasToString("[\"clock\",\"disk\"]");
        RunConfig back = RunConfig.read(dir);
        assertThat(back.nemesis().without()).containsExactly(Fault.Family.CLOCK, Fault.Family.DISK);
        assertThat(draw(back)).isEqualTo(draw(c));

        // a file written before --without existed: no field, every family, as any run without it
        RunConfig all = RunConfig.builder().workload("register").nemesis("mixed").seed(3).out(tmp).build();
        dir.writeConfig(all.saved());
        assertThat(Json.MAPPER.readTree(dir.configFile().toFile()).path("nemesis").has("without")).isFalse();
        RunConfig old = RunConfig.read(dir);
        assertThat(old.nemesis().without()).isEmpty();
        assertThat(draw(old)).isEqualTo(draw(all));
        assertThat(old.withSchedule(new FaultSchedule("mixed", null, List.of(FaultSchedule.Window.of("halves",
                1000, 2000)))).nemesis().without()).isEmpty();
        assertThat(c.withSchedule(null).nemesis().without()).as("a replay keeps the families")
                .containsExactly(Fault.Family.CLOCK, Fault.Family.DISK);

        assertThatThrownBy(() -> RunConfig.builder().nemesis("kill-leader").without(List.of(Fault.Family.CLOCK))
                .build()).hasMessage("without: nemesis 'kill-leader' has no clock faults to leave out (its families: "
                + "crash)");
        assertThatThrownBy(() -> RunConfig.builder().nemesis("mixed").without(List.of(Fault.Family.values()))
                .build()).hasMessage("without: leaving out network, crash, pause, clock, disk, client leaves nemesis "
                + "'mixed' no fault (for a run without faults: --nemesis none)");
        assertThatThrownBy(() -> Fault.Family.parse("clocks")).hasMessage("unknown fault family 'clocks'; known: "
                + "network, crash, pause, clock, disk, client");
    }

    @Test
    void theRunsClusterConfigurationIsMadeInOnePlace() {
        RunConfig c = RunConfig.builder().nodes(5).zookeeper("3.8.4").sync(SyncMode.SNAP).forceSync(false)
                .sessionTimeout(Duration.ofSeconds(6)).seed(9).build();
        ClusterConfig cc = c.clusterConfig(Path.of("/tmp/zkc-nodes"));
        assertThat(cc.nodes()).isEqualTo(5);
        assertThat(cc.version().text()).isEqualTo("3.8.4");
        assertThat(cc.sync()).isEqualTo(SyncMode.SNAP);
        assertThat(ServerFiles.serverSettings(cc.server())).containsEntry("forceSync", "no");
        assertThat(cc.maxSessionTimeout()).as("twice the fault hold").isEqualTo(Duration.ofSeconds(20));
        assertThat(cc.seed()).isEqualTo(9);
        assertThat(cc.runDirectory()).isEqualTo(Path.of("/tmp/zkc-nodes"));
        assertThat(RunConfig.builder().build().cluster().zookeeper().text()).isEqualTo(ZooKeeperVersion.DEFAULT.text());
    }

    @Test
    void snapCountReachesEveryServersZooCfgAndIsAtLeastTwo() {
        RunConfig c = RunConfig.builder().snapCount(100).build();
        assertThat(c.storage().snapCount()).isEqualTo(100);
        assertThat(ServerFiles.serverSettings(c.clusterConfig(Path.of("/tmp/zkc-nodes")).server()))
                .containsEntry("snapCount", "100");
        assertThat(ServerFiles.serverSettings(RunConfig.builder().build().clusterConfig(Path.of("/tmp/zkc-nodes"))
                .server()))
                .as("ZooKeeper's own unless asked").doesNotContainKey("snapCount");
        assertThat(RunConfig.builder().snapCount(2).build().storage().snapCount()).isEqualTo(2);
        assertThatThrownBy(() -> RunConfig.builder().snapCount(1).build())
                .hasMessageStartingWith("snap-count must be at least 2").hasMessageEndingWith("got 1");
        assertThatThrownBy(() -> RunConfig.builder().system("fle").workload("set").snapCount(100).build())
                .hasMessageStartingWith("snap-count: the fle nodes take no snapshots and roll no logs");
        // the lazy file system implied by a power-failure nemesis keeps the rest of the storage part
        assertThat(RunConfig.builder().nemesis("kill-lose-unfsynced").snapCount(50).build().storage())
                .isEqualTo(new StoragePart(true, true, 50));
    }

    @Test
    void aPreloadIsCountTimesBytesWithinBounds() {
        assertThat(Preload.parse("2000x4096")).isEqualTo(new Preload(2000, 4096));
        assertThat(Preload.parse(" 10X0 ")).isEqualTo(new Preload(10, 0));
        assertThat(new Preload(2000, 4096)).hasToString("2000x4096");
        assertThat(new Preload(2000, 4096).describe()).isEqualTo("2000 znodes of 4096 bytes (7.8 MiB)");
        assertThatThrownBy(() -> Preload.parse("2000")).hasMessage("preload must be COUNTxBYTES (e.g. 2000x4096), "
                + "got '2000'");
        assertThatThrownBy(() -> Preload.parse("ax1")).hasMessageContaining("with whole numbers");
        assertThatThrownBy(() -> Preload.parse("0x10")).hasMessage("preload: COUNT must be 1..1000000, got 0");
        assertThatThrownBy(() -> Preload.parse("1x2000000")).hasMessageStartingWith("preload: BYTES must be "
                + "0..1000000");
        assertThatThrownBy(() -> Preload.parse("40000x1000")).hasMessage("preload: 40000 x 1000 bytes is 38 MiB; "
                + "at most 32 MiB in all (every server holds the tree in a 128 MB heap)");
        assertThatThrownBy(() -> RunConfig.builder().system("fle").workload("set").preload(new Preload(1, 1))
                .build()).hasMessage("preload: the fle nodes hold a key-value store, not znodes; --preload 1x1 is "
                + "for ZooKeeper");
    }

    @Test
    void perClientAclsAreSavedAndReadBackAndOpenKeepsTheOlderShape(@TempDir Path dir) throws Exception {
        RunConfig c = RunConfig.builder().workload("set").acls(ZnodeAcls.PER_CLIENT).seed(3).out(dir).build();
        io.zkchaos.results.RunDirectory run = new io.zkchaos.results.RunDirectory(dir.resolve("run"));
        run.writeConfig(c.saved());
        assertThat(Json.MAPPER.readTree(run.configFile().toFile()).path("load").path("acls").asText())
                .isEqualTo("per-client");
        assertThat(RunConfig.read(run)).isEqualTo(c);
        assertThat(RunConfig.read(run).load().acls()).isEqualTo(ZnodeAcls.PER_CLIENT);
        assertThat(RunConfig.builder().build().load().acls()).isEqualTo(ZnodeAcls.OPEN);
    }

    @Test
    void perClientAclsAreRefusedWhereTheyCannotBeChecked() {
        assertThatThrownBy(() -> RunConfig.builder().system("fle").workload("set").acls(ZnodeAcls.PER_CLIENT)
                .build()).hasMessage("acl: the fle nodes hold a key-value store without ACLs; --acl per-client is "
                + "for ZooKeeper");
        assertThatThrownBy(() -> RunConfig.builder().workload("set").acls(ZnodeAcls.PER_CLIENT)
                .workloadOptions(io.zkchaos.workloads.WorkloadOptions.defaults().withRoot("/")).build())
                .hasMessageStartingWith("acl: --acl per-client needs a workload root below /");
    }

    @Test
    void snapCountAndPreloadAreSavedAndReadBack(@TempDir Path dir) throws Exception {
        RunConfig c = RunConfig.builder().workload("set").nemesis("replace-disk").snapCount(100)
                .preload(new Preload(2000, 4096)).seed(3).out(dir).build();
        io.zkchaos.results.RunDirectory run = new io.zkchaos.results.RunDirectory(dir.resolve("run"));
        run.writeConfig(c.saved());
        JsonNode storage = Json.MAPPER.readTree(run.configFile().toFile()).path("storage");
        assertThat(storage.path("snapCount").asInt()).isEqualTo(100);
        assertThat(Json.MAPPER.readTree(run.configFile().toFile()).path("load").path("preload").asText())
                .isEqualTo("2000x4096");
        assertThat(RunConfig.read(run)).isEqualTo(c);
        // a configuration without them keeps the file's older shape
        RunConfig plain = RunConfig.builder().seed(3).out(dir).build();
        run.writeConfig(plain.saved());
        assertThat(Json.MAPPER.readTree(run.configFile().toFile()).path("storage").fieldNames()).toIterable()
                .containsExactly("lazyfs", "forceSync");
        assertThat(Json.MAPPER.readTree(run.configFile().toFile()).has("load")).as("no load, no key").isFalse();
        assertThat(RunConfig.read(run)).isEqualTo(plain);
    }

    @Test
    void churnIsSavedReadBackAndJudgedByItsChecker(@TempDir Path dir) throws Exception {
        RunConfig c = RunConfig.builder().workload("set").nemesis("kill-leader").churn(4).seed(3).out(dir).build();
        assertThat(c.load().churnLanes()).isEqualTo(4);
        io.zkchaos.results.RunDirectory run = new io.zkchaos.results.RunDirectory(dir.resolve("run"));
        run.writeConfig(c.saved());
        assertThat(Json.MAPPER.readTree(run.configFile().toFile()).path("load").path("churn").asInt()).isEqualTo(4);
        assertThat(RunConfig.read(run)).isEqualTo(c);
        assertThat(Runner.checker(c).name()).isEqualTo("set");
        assertThat(Runner.checker(c).check(io.zkchaos.checkers.history.History.of(java.util.List.of())).parts())
                .extracting(io.zkchaos.checkers.CheckResult::checker).contains("churn-ephemerals");
        RunConfig none = RunConfig.builder().workload("set").churn(0).build();
        assertThat(none.load().churn()).as("0 is none, and config.json keeps its shape").isNull();
        assertThat(Runner.checker(none).check(io.zkchaos.checkers.history.History.of(java.util.List.of())).parts())
                .extracting(io.zkchaos.checkers.CheckResult::checker).doesNotContain("churn-ephemerals");
        assertThatThrownBy(() -> RunConfig.builder().churn(-1).build())
                .hasMessage("churn must be 0..64 lanes of short sessions, got -1");
        assertThatThrownBy(() -> RunConfig.builder().system("fle").workload("set").churn(2).build())
                .hasMessage("churn: the fle nodes have no sessions and no ephemerals; --churn is for ZooKeeper");
    }

    @Test
    void theElectionWorkloadsAreRefusedOnZooKeeper34NamingWhy() {
        for (String w : List.of("election", "election-naive", "election-curator", "fenced-writes",
                "fenced-writes-curator", "unfenced-writes")) {
            assertThatThrownBy(() -> RunConfig.builder().workload(w).zookeeper("3.4.14").build()).as(w)
                    .hasMessageStartingWith("workload '" + w + "' needs ZooKeeper 3.5 or later: ")
                    .hasMessageContaining("ZooKeeper 3.4.14 answers 'unknown type 15'");
            assertThat(RunConfig.builder().workload(w).zookeeper("3.5.10").build().workload().name()).isEqualTo(w);
        }
        assertThatThrownBy(() -> RunConfig.builder().workload("election-curator").zookeeper("3.4.14").build())
                .hasMessageContaining("Curator 5 speaks ZooKeeper 3.5's protocol");
        for (String w : List.of("register", "set", "watches", "sessions", "sequential", "multi")) {
            assertThat(RunConfig.builder().workload(w).zookeeper("3.4.14").build().workload().name()).isEqualTo(w);
        }
    }

    @Test
    void aRecoveryBoundIsSavedAndReadBack(@TempDir Path dir) {
        RunConfig c = RunConfig.builder().recoveryBound(java.time.Duration.ofSeconds(90)).seed(3).out(dir).build();
        io.zkchaos.results.RunDirectory run = new io.zkchaos.results.RunDirectory(dir.resolve("run"));
        run.writeConfig(c.saved());
        assertThat(RunConfig.read(run).timing().recoveryBound()).isEqualTo(java.time.Duration.ofSeconds(90));
        assertThat(RunConfig.read(run)).isEqualTo(c);
    }

    @Test
    void aReplacedDiskIsRefusedWhereTheBackendCannotEmptyADataDirectory() {
        assertThat(RunConfig.builder().nemesis("replace-disk").build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).containsExactly("replace-disk");
        assertThat(RunConfig.builder().nemesis("mixed").build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).contains("replace-disk");
        assertThatThrownBy(() -> RunConfig.builder().backend("docker").nemesis("replace-disk").build())
                .hasMessage("nemesis: the docker backend running zookeeper cannot do 'replace-disk': replace-disk "
                        + "needs a backend that empties a server's data directory (a killed server's data directory "
                        + "is inside its stopped container, where no command runs)");
        assertThat(RunConfig.builder().backend("docker").nemesis("mixed").build().nemesisDescriptor().faults())
                .extracting(f -> f.name()).doesNotContain("replace-disk");
        assertThatThrownBy(() -> RunConfig.builder().system("fle").workload("set").nemesis("replace-disk").build())
                .hasMessageEndingWith("replace-disk needs a backend that empties a server's data directory (only "
                        + "ZooKeeper servers' data directories are emptied, not the fle nodes')");
    }

    @Test
    void theRunIsJudgedByTheWorkloadsCheckersWithTheRunsSettings() {
        Checker fenced = Runner.checker(RunConfig.builder().workload("fenced-writes").build());
        CheckResult r = fenced.check(io.zkchaos.checkers.history.History.of(java.util.List.of()));
        assertThat(r.parts()).extracting(CheckResult::checker).containsExactly("single-leader", "fenced-writes",
                "final-state");
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(Runner.checker(RunConfig.builder().workload("register").build()).check(
                io.zkchaos.checkers.history.History.of(java.util.List.of())).parts())
                .extracting(CheckResult::checker).containsExactly("zk-read-model", "final-state");
    }

    @Test
    void aSavedConfigurationReadsBackAsTheRunItDescribes(@org.junit.jupiter.api.io.TempDir Path dir) {
        io.zkchaos.nemesis.schedule.FaultSchedule schedule = new io.zkchaos.nemesis.schedule.FaultSchedule("mixed",
                null, List.of(io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("kill-leader", 2000, 4000)));
        RunConfig c = RunConfig.builder().system("fle").bugs(List.of("commit-before-quorum")).workload("set")
                .nemesis("mixed").seed(5).out(dir).keys(4).failoverBound(Duration.ofSeconds(12)).relax(List.of("all"))
                .schedule(schedule).build();
        io.zkchaos.results.RunDirectory run = new io.zkchaos.results.RunDirectory(dir.resolve("run"));
        run.writeConfig(c.saved());
        assertThat(RunConfig.read(run)).as("config.json has no schedule: schedule.json has what ran")
                .isEqualTo(c.withSchedule(null));
        assertThatThrownBy(() -> RunConfig.read(new io.zkchaos.results.RunDirectory(dir.resolve("none"))))
                .hasMessageContaining("config.json: no such file (a run configuration expected)");
        io.zkchaos.results.RunDirectory check = new io.zkchaos.results.RunDirectory(dir.resolve("check"));
        check.writeConfig(new io.zkchaos.results.CheckSettings("a history", "history.jsonl",
                "linearizable", "register", c.checks()));
        assertThatThrownBy(() -> RunConfig.read(check)).hasMessageContaining("the configuration of a check");
    }

    @Test
    void composeIsSavedReadBackAndAtMostTheFamiliesOfTheNemesisAsTheRunDoesIt(@TempDir Path dir) throws Exception {
        RunConfig c = RunConfig.builder().workload("set").nemesis("mixed").compose(3).seed(5).out(dir).build();
        io.zkchaos.results.RunDirectory run = new io.zkchaos.results.RunDirectory(dir.resolve("run"));
        run.writeConfig(c.saved());
        assertThat(Json.MAPPER.readTree(run.configFile().toFile()).path("nemesis").path("compose").asInt())
                .isEqualTo(3);
        assertThat(RunConfig.read(run).nemesis().compose()).as("a replay composes as the run did").isEqualTo(3);
        assertThat(RunConfig.builder().workload("set").nemesis("mixed").build().nemesis().compose()).isEqualTo(1);
        // the client faults are left out when clients are threads: their family does not count
        int families = c.nemesisDescriptor().families().size();
        assertThatThrownBy(() -> RunConfig.builder().workload("set").nemesis("mixed").compose(families + 1).build())
                .hasMessageStartingWith("--compose " + (families + 1) + " asks for up to " + (families + 1)
                        + " faults at once, each of another family, but nemesis 'mixed' has faults of " + families
                        + " families");
        assertThatThrownBy(() -> RunConfig.builder().nemesis("kill-leader").compose(2).build())
                .hasMessageContaining("nemesis 'kill-leader' has faults of 1 family (crash)");
        assertThatThrownBy(() -> RunConfig.builder().nemesis("mixed").compose(0).build())
                .hasMessage("compose must be at least 1 (faults in force at once), got 0");
        // a schedule may overlap faults of different families, never two of one
        var ok = new io.zkchaos.nemesis.schedule.FaultSchedule("mixed", null, List.of(
                io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("halves", 1000, 5000),
                io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("kill-leader", 2000, 4000)));
        assertThat(RunConfig.builder().nemesis("mixed").schedule(ok).build().faultOps()).isPresent();
        assertThatThrownBy(() -> RunConfig.builder().nemesis("mixed").schedule(ok.withFaults(List.of(
                io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("halves", 1000, 5000),
                io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("bridge", 2000, 4000)))).build())
                .hasMessageContaining("both are network faults");
    }

    @Test
    void aScheduleMustHoldTheNemesissOwnFaultsWithinTheMainPhase() {
        var w = io.zkchaos.nemesis.schedule.FaultSchedule.Window.of("kill-leader", 2000, 4000);
        var schedule = new io.zkchaos.nemesis.schedule.FaultSchedule("mixed", null, List.of(w));
        assertThat(RunConfig.builder().nemesis("mixed").schedule(schedule).build().faultOps()).isPresent();
        assertThatThrownBy(() -> RunConfig.builder().nemesis("halves").schedule(schedule).build())
                .hasMessage("schedule: fault 'kill-leader' is not one of nemesis 'halves' as this run does it "
                        + "(halves); name the nemesis the schedule came from (--nemesis mixed)");
        assertThatThrownBy(() -> RunConfig.builder().nemesis("mixed").schedule(schedule)
                .timeLimit(Duration.ofSeconds(2)).build())
                .hasMessage("schedule: fault kill-leader starts at 2s, not within the main phase (time-limit 2s)");
    }
}
