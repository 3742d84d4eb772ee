package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.SystemUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What runs on the nodes of a local ensemble, and everything about it that differs between systems: the files a
 * node needs, its command line, and how it is asked about itself. Everything else — addresses, ports, the fault
 * proxy and its links, processes and their signals, readiness, leader detection, pid files and reaping — is
 * {@link LocalCluster}'s and the same for every kind, so a ZooKeeper server and an fle node are started, waited for,
 * killed, paused, restarted and reaped exactly alike.
 *
 * <p>Kinds: {@link ZooKeeperServers} ({@code QuorumPeerMain} of the resolved version) and {@link FleServers} (the
 * project's own {@code NodeMain}).
 */
interface ServerKind {

    /** For people and {@code run.properties}: {@code ZooKeeper 3.9.5}, {@code fle nodes (bugs: none)}. */
    String describe();

    /**
     * Writes every file {@code self} needs under its directory (config, private hosts file, ...); idempotent, and
     * the node's data is kept.
     */
    void writeFiles(ClusterConfig config, NodeLayout self, List<NodeLayout> all, PeerRouting routing);

    /** The node's full command line. */
    List<String> command(ClusterConfig config, NodeLayout self, String runId, Owner owner);

    /**
     * What the node says about itself, asked directly on its client port (not through the fault network). Both
     * kinds answer ZooKeeper's {@code srvr}; the leader is read from these answers the same way for both.
     */
    default NodeStatus status(String node, NodeLayout self, Duration timeout) {
        return FourLetterWords.srvr(node, self.clientAddress(), timeout);
    }

    /** The kind {@code config} asks for; ZooKeeper's version is resolved here (it may download). */
    static ServerKind of(ClusterConfig config, ZooKeeperResolver resolver) {
        return config.system() == SystemUnderTest.FLE ? new FleServers(config.bugs())
                : new ZooKeeperServers(resolver.resolve(config.version()));
    }

    /** The main class of every kind: what {@link Reaper#sweep} recognises a server by. */
    List<String> MAIN_CLASSES = List.of(ZooKeeperServers.MAIN_CLASS, FleServers.MAIN_CLASS);

    /**
     * The start every server's command line shares: the JVM, the run and owner markers the {@link Reaper} checks,
     * the node's name, the configured JVM options, nothing written outside the node's directory (no hsperfdata in
     * /tmp, temp files in {@code tmp/}), and the node's private hosts file (how it names its peers: see
     * {@link ServerFiles}).
     */
    static List<String> jvm(ClusterConfig config, NodeLayout n, String runId, Owner owner) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add(Reaper.RUN_MARKER + runId);
        cmd.add(Reaper.OWNER_MARKER + owner);
        cmd.add("-Dzkchaos.node=" + n.name());
        cmd.addAll(config.serverJvmOptions());
        cmd.add("-XX:-UsePerfData");
        cmd.add("-Djava.io.tmpdir=" + n.dir().resolve("tmp"));
        cmd.add("-Djdk.net.hosts.file=" + n.dir().resolve("hosts"));
        return cmd;
    }
}
