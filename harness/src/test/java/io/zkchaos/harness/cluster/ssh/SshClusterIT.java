package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.harness.cli.Main;
import io.zkchaos.harness.cluster.ClusterNotReadyException;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.process.Libfaketime;
import io.zkchaos.harness.process.Reaper;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.harness.testing.RunsAlone;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.ClockFaults;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.faults.PauseFaults;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ssh backend on three namespace hosts ({@link NamespaceHosts}): each fault family made on the hosts and seen in
 * their kernels, files and servers (a clock moved by the hosts' libfaketime in a znode's {@code mtime}, a replaced
 * disk in its directory and the SNAP that refills it); a {@code ./zkchaos run --backend ssh} with partitions, valid
 * and naming its hosts; a start that fails after the hosts were readied; a killed harness's leftovers ended by
 * {@code hosts heal} and by the next start.
 * After each, nothing of the run is left on the hosts. The shared contracts run in {@link SshProxiedClusterChaosIT} and
 * {@link SshPartitionShapesIT}.
 */
@RunsAlone
class SshClusterIT {

    @RegisterExtension
    static final HostsFixture HOSTS = new HostsFixture(3);

    @TempDir
    static Path dir;

    private static final Duration AHEAD = Duration.ofHours(2);
    /** Far below the offset, far above any delay between a write and its stamp on a loaded machine. */
    private static final long SLACK_MS = Duration.ofMinutes(10).toMillis();

    private NamespaceHosts hosts;
    private Process harness;

    @BeforeEach
    void hosts() {
        hosts = HOSTS.hosts();
    }

    @AfterEach
    void endStandIn() throws InterruptedException {
        if (harness != null && harness.isAlive()) {
            harness.destroyForcibly();
            harness.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void threeHostsServeAndEveryFaultFamilyIsMadeOnTheHostsThenNothingIsLeft() throws Exception {
        // the namespace hosts share this machine's file system, and so its libfaketime (the clock faults')
        Prerequisites.require("libfaketime", Libfaketime.candidates().stream()
                .anyMatch(f -> java.nio.file.Files.isReadable(Path.of(f))) ? Optional.empty()
                : Optional.of("libfaketime is not installed (apt-get install libfaketime)"));
        SshCluster cluster = SshCluster.start(ClusterConfig.builder().nodes(3).clocks(true)
                .runDirectory(dir.resolve("faults")).startTimeout(Duration.ofSeconds(120)) // libfaketime's start
                .build(), hosts.settings());
        Runnable leftovers = SshChecks.leftoverCheck(cluster, hosts);
        Path nodes = hosts.remoteDirectory().resolve("runs").resolve(cluster.runId());
        try {
            assertThat(cluster.summary()).startsWith("hosts: n1 h1 (" + hosts.address(1) + "), n2 h2");
            assertThat(cluster.connectString()).isEqualTo(hosts.address(1) + ":2181," + hosts.address(2) + ":2181,"
                    + hosts.address(3) + ":2181");
            NemesisTarget target = cluster.nemesisTarget(new Random(7));

            // A partition: iptables rules on the hosts, exactly as the links say; the majority elects.
            String old = cluster.leader().orElseThrow();
            int oldHost = Integer.parseInt(old.substring(1));
            new NetworkFaults(target, "isolate-leader").isolateLeader();
            assertThat(cluster.firewallDivergences()).as("the hosts' rules vs the links'").isEmpty();
            assertThat(hosts.inHost(oldHost, "iptables", "-w", "-S")).as("rules on the isolated leader's host")
                    .contains("-j REJECT --reject-with tcp-reset").contains("--dport 3888");
            await("the majority elects").atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.leader().filter(l -> !l.equals(old)).isPresent());
            await(old + " stops serving").atMost(Duration.ofSeconds(30)).until(() ->
                    !cluster.status(old).mode().serving());
            new NetworkFaults(target, "heal").heal();
            assertThat(cluster.firewallDivergences()).isEmpty();
            assertThat(hosts.inHost(oldHost, "iptables", "-w", "-S")).doesNotContain("-j REJECT");
            await(old + " follows again").atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.status(old).mode() == Mode.FOLLOWER);

            // A kill: SIGKILL by pid on the host; a restart starts it again on its data.
            String leader = cluster.leader().orElseThrow();
            long pid = cluster.pid(leader);
            new CrashFaults(target, "kill-leader").killLeader();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("killed server " + pid)
                    .isFalse();
            assertThat(cluster.state(leader)).isEqualTo(NodeState.DOWN);
            await("a new leader").atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.leader().filter(l -> !l.equals(leader)).isPresent());
            new CrashFaults(target, "heal").restartDown();
            await(leader + " follows after its restart").atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.status(leader).mode() == Mode.FOLLOWER);

            // A pause: SIGSTOP, then SIGCONT.
            String paused = new PauseFaults(target, "pause-leader").pauseLeader().nodes().get(0);
            assertThat(SshChecks.stopped(cluster.pid(paused))).as(paused + " stopped").isTrue();
            await("a leader while " + paused + " is frozen").atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.leader().filter(l -> !l.equals(paused)).isPresent());
            new PauseFaults(target, "heal").resumeAll();
            assertThat(SshChecks.stopped(cluster.pid(paused))).isFalse();
            await(paused + " follows after it thaws").atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.status(paused).mode() == Mode.FOLLOWER);

            // A clock moved: libfaketime preloaded on the hosts; the leader, 2 h ahead, stamps a znode's mtime so.
            assertThat(cluster.summary()).contains("libfaketime preloaded: n1 /");
            String stamping = cluster.leader().orElseThrow();
            assertThat(nodes.resolve(stamping).resolve("clock")).hasContent("+0.000");
            cluster.setClockOffset(stamping, AHEAD);
            assertThat(nodes.resolve(stamping).resolve("clock")).hasContent("+7200.000");
            assertThat(cluster.clockOffsets()).containsExactly(java.util.Map.entry(stamping, AHEAD));
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                assertThat(Zk.write(zk, "/ahead")).isTrue();
                assertThat(zk.exists("/ahead", false).getMtime() - System.currentTimeMillis())
                        .as("ms a write stamped by a leader 2 h ahead is ahead")
                        .isBetween(AHEAD.toMillis() - SLACK_MS, AHEAD.toMillis() + SLACK_MS);
            }
            new ClockFaults(target, "heal").resetClocks();
            assertThat(cluster.clockOffsets()).isEmpty();
            assertThat(nodes.resolve(stamping).resolve("clock")).hasContent("+0.000");

            // A replaced disk: only myid left on the host; back up, the follower serves the tree it took by SNAP.
            String replaced = cluster.nodes().stream().filter(n -> !n.equals(stamping)).findFirst().orElseThrow();
            Path data = nodes.resolve(replaced).resolve("data");
            assertThat(data.resolve("version-2")).isNotEmptyDirectory();
            cluster.replaceDisk(replaced);
            assertThat(cluster.state(replaced)).isEqualTo(NodeState.DOWN);
            try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(data)) {
                assertThat(left.map(p -> p.getFileName().toString())).containsExactly("myid");
            }
            cluster.start(replaced);
            await(replaced + " follows on its empty disk").atMost(Duration.ofSeconds(60)).until(() ->
                    cluster.status(replaced).mode() == Mode.FOLLOWER);
            try (ZooKeeper onIt = Zk.connect(cluster.connectString(replaced), Duration.ofSeconds(10))) {
                assertThat(onIt.exists("/ahead", false)).as("/ahead on " + replaced).isNotNull();
            }
            // a SNAP of the tree written in this epoch (its counter, the low 32 bits, past 0), not of the empty tree
            // a start in a new epoch may bring
            String log = java.nio.file.Files.readString(cluster.logFile(replaced));
            java.util.regex.Matcher snap = java.util.regex.Pattern.compile(
                    "Getting a snapshot from leader 0x([0-9a-f]+)").matcher(log.substring(log.lastIndexOf("== start")));
            assertThat(snap.find()).as(replaced + " took a snapshot from its leader since its restart").isTrue();
            assertThat(Long.parseUnsignedLong(snap.group(1), 16) & 0xffffffffL).as("the snapshot's zxid counter")
                    .isPositive();

            // A client cut: clients cannot reach n1, the harness still asks it through its host.
            cluster.links().cutClient("n1");
            assertThat(cluster.status("n1").mode().serving()).as("n1 answers srvr through its host").isTrue();
            assertThatThrownBy(() -> {
                try (java.net.Socket s = new java.net.Socket()) {
                    s.connect(new java.net.InetSocketAddress(hosts.address(1), SshCluster.CLIENT_PORT), 5000);
                }
            }).as("a client connecting to n1").isInstanceOf(java.net.ConnectException.class)
                    .hasMessageContaining("refused");
            cluster.links().healClient("n1");

            // Link toxics: what the host's kernel cannot make is refused naming the host; bandwidth where tbf is.
            try {
                cluster.links().clientLink("n2").addToxic(Toxic.latency("slow", Stream.DOWNSTREAM, 50, 0));
                assertThat(hosts.inHost(2, "tc", "qdisc", "show")).contains("netem");
            } catch (UnsupportedOperationException e) {
                assertThat(e).hasMessageContaining("tc netem on n2 (h2, " + hosts.address(2) + ")");
            }
            assertThatThrownBy(() -> cluster.links().clientLink("n2").addToxic(
                    Toxic.latency("up", Stream.UPSTREAM, 50, 0))).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("harness's own machine");
            assertThatThrownBy(() -> cluster.links().peerLinks("n1", "n2").get(0).addToxic(
                    Toxic.slicer("s", Stream.UPSTREAM, 10, 1, 1))).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("only a proxy between the ends can");
            try (ZooKeeper zk = Zk.connect(cluster.connectString("n3"), Duration.ofSeconds(10))) {
                zk.create("/big", new byte[64 * 1024], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                cluster.links().clientLink("n3").addToxic(Toxic.bandwidth("narrow", Stream.DOWNSTREAM, 16));
                assertThat(hosts.inHost(3, "tc", "qdisc", "show")).contains("tbf");
                long t0 = System.nanoTime();
                zk.getData("/big", false, null);
                // A lower bound only: 64 KB at 16 KB/s, less the bucket's 4 KB, cannot come faster than this.
                assertThat((System.nanoTime() - t0) / 1_000_000).as("ms to read 64 KB at 16 KB/s")
                        .isGreaterThanOrEqualTo(3000);
            } catch (UnsupportedOperationException e) {
                assertThat(e).hasMessageContaining("tc tbf on n3");
            }
            cluster.links().heal();
            SshChecks.assertHealed(hosts, cluster.runId());
            assertThat(SshChecks.processesOf(cluster.runId())).hasSize(3);
        } finally {
            cluster.close();
        }
        leftovers.run();
    }

    @Test
    void whatAKilledHarnessLeftIsEndedByHostsHealAndByTheNextStart() throws Exception {
        // hosts heal
        String[] first = startStandIn("killed-1");
        long server = Long.parseLong(first[0]);
        harness.destroyForcibly();
        assertThat(harness.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false))
                .as("the server outlives its SIGKILLed harness").isTrue();
        assertThat(hosts.inHost(1, "iptables", "-w", "-S")).as("its chain is still on h1")
                .contains(HostFirewall.CHAIN_PREFIX + HostFirewall.tag(first[1]));
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("hosts", "heal"));
        args.addAll(hosts.options());
        int status = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(out));
        assertThat(status).as("hosts heal: " + out).isZero();
        assertThat(out.toString()).contains("process " + server + " of run " + first[1])
                .contains("iptables chain " + HostFirewall.CHAIN_PREFIX + HostFirewall.tag(first[1]))
                .contains("run directory ");
        await("server " + server + " ends").atMost(Duration.ofSeconds(10)).until(() -> SshChecks.gone(server));
        SshChecks.assertNoRulesOrShaping(hosts, first[1]);
        assertThat(hosts.remoteDirectory().resolve("runs").resolve(first[1])).doesNotExist();

        // the next start
        String[] second = startStandIn("killed-2");
        long orphan = Long.parseLong(second[0]);
        harness.destroyForcibly();
        assertThat(harness.waitFor(30, TimeUnit.SECONDS)).isTrue();
        try (SshCluster next = SshCluster.start(ClusterConfig.builder().nodes(1).runDirectory(dir.resolve("next"))
                .build(), hosts.settings())) {
            assertThat(SshChecks.gone(orphan)).as("the orphan is ended when the next cluster starts").isTrue();
            assertThat(hosts.inHost(1, "iptables", "-w", "-S"))
                    .doesNotContain(HostFirewall.CHAIN_PREFIX + HostFirewall.tag(second[1]))
                    .contains(HostFirewall.CHAIN_PREFIX + HostFirewall.tag(next.runId()));
            assertThat(next.leader()).contains("n1");
        }
        SshChecks.assertNoRulesOrShaping(hosts, null);
    }

    @Test
    void aSetRunUnderPartitionsOnTheHostsIsValidNamesItsHostsAndLeavesNothing() throws Exception {
        Path store = dir.resolve("store");
        List<String> args = new ArrayList<>(List.of("run", "--backend", "ssh", "--workload", "set", "--nemesis",
                "halves", "--time-limit", "16s", "--fault-for", "4s", "--heal-for", "3s", "--recover", "8s",
                "--concurrency", "3", "--seed", "11", "--out", store.toString()));
        args.addAll(hosts.options());
        StringWriter out = new StringWriter();
        int status = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(out));
        assertThat(status).as("the run's exit status (0: valid):\n" + out).isZero();
        assertThat(out.toString()).contains("hosts: n1 h1 (" + hosts.address(1) + ")");

        RunDirectory run = new RunDirectory(store.resolve("latest").toRealPath());
        assertThat(run.resultsFile()).content().contains("\"valid\" : true");
        assertThat(run.readConfig()).get().isInstanceOfSatisfying(RunSettings.class, s ->
                assertThat(s.cluster().hosts()).containsExactly("h1", "h2", "h3"));
        // The faults were made: every partition the history records, and the hosts' leaders changed under them.
        History h = HistoryFiles.read(run.historyFile());
        List<Op> cuts = h.nemesisOps().stream().filter(o -> o.f().equals("halves") && o.type().isCompletion())
                .toList();
        assertThat(cuts).as("partitions recorded").isNotEmpty().allSatisfy(o ->
                assertThat(o.value().toString()).contains("grudge"));
        assertThat(run.evidenceFile()).content().contains("halves");
        assertThat(h.operations()).filteredOn(o -> o.f().equals("read") && o.isOk()).as("final reads of n1..n3")
                .hasSize(3);
        assertThat(run.reportFile()).content().contains("n1 h1, n2 h2, n3 h3");
        for (int i = 1; i <= 3; i++) {
            assertThat(run.nodeDir("n" + i).resolve("server.log")).as("n%d's log, copied from its host", i)
                    .isNotEmptyFile();
        }
        String runId = SshChecks.runIdOf(run.nodeDir("n1").getParent());
        assertThat(SshChecks.processesOf(runId)).as("processes of the run").isEmpty();
        SshChecks.assertNoRulesOrShaping(hosts, null);
        assertThat(hosts.remoteDirectory().resolve("runs").resolve(runId)).doesNotExist();
    }

    @Test
    void aClusterThatFailsToStartLeavesNothingOnTheHosts() {
        Path runDir = dir.resolve("failed");
        // A server configuration ZooKeeper refuses: every server exits at once, after the hosts got their files,
        // jars and chains.
        assertThatThrownBy(() -> SshCluster.start(ClusterConfig.builder().nodes(3).runDirectory(runDir)
                .serverConfig("tickTime", "not-a-number").build(), hosts.settings()))
                .isInstanceOf(ClusterNotReadyException.class).hasMessageContaining("exited");
        String runId = SshChecks.runIdOf(runDir);
        assertThat(SshChecks.processesOf(runId)).as("processes of the failed start").isEmpty();
        SshChecks.assertNoRulesOrShaping(hosts, null);
        assertThat(hosts.remoteDirectory().resolve("runs").resolve(runId)).doesNotExist();
        assertThat(runDir.resolve("n1").resolve("server.log")).as("n1's log, kept to say why").isNotEmptyFile();
    }

    /** Starts the stand-in harness; returns its server's pid and run id once it serves. */
    private String[] startStandIn(String run) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        harness = new ProcessBuilder(java, "-Xmx96m", "-XX:-UsePerfData",
                "-D" + Reaper.SWEEP_PROPERTY + "=false", "-cp", System.getProperty("java.class.path"),
                SshHarnessMain.class.getName(), dir.resolve(run).toString(), hosts.hostsFile().toString(),
                hosts.sshConfig().toString(), hosts.knownHosts().toString(), hosts.remoteDirectory().toString())
                .redirectErrorStream(true).start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(harness.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = lines.readLine()) != null; ) {
            if (line.startsWith("SERVER ")) {
                Thread drain = new Thread(() -> {
                    try {
                        lines.transferTo(Writer.nullWriter());
                    } catch (IOException ignored) {
                        // the stand-in ended
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return line.substring(7).trim().split(" ");
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the stand-in harness ended without a server:\n" + seen);
    }
}
