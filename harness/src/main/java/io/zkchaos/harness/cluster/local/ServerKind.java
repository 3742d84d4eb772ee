package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.harness.process.JvmProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What runs on the nodes of a local ensemble, and everything about it that differs between systems: the files a
 * node needs, its command line, and how it is asked about itself. Everything else — addresses, ports, the fault
 * proxy and its links, readiness, leader detection — is {@link LocalCluster}'s, processes and their signals, pid
 * files and reaping are the process layer's ({@code io.zkchaos.harness.process}), and all is the same for every kind, so a ZooKeeper server and an fle node are started, waited for,
 * killed, paused, restarted and reaped exactly alike: each is a {@link JvmProcess} of role {@value #ROLE}.
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

    /** The node's process (not started): its {@link #server} options, class path, main class and arguments. */
    JvmProcess process(ClusterConfig config, NodeLayout self, String runId);

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

    /** The role of every server's process: its marker, {@code server.pid}, {@code server.log}. */
    String ROLE = "server";

    /**
     * The process every kind's server starts from: role {@value #ROLE} in the node's directory, with the JVM options
     * every server shares — the node's name, the configured JVM options, and the node's private hosts file (how it
     * names its peers: see {@link ServerFiles}) — then the kind's own {@code options}. The markers the {@link
     * io.zkchaos.harness.process.Reaper} checks, and keeping every file in the node's directory, are {@link
     * JvmProcess}'s.
     */
    static JvmProcess.Builder server(ClusterConfig config, NodeLayout n, String runId, List<String> options) {
        List<String> jvm = new ArrayList<>();
        jvm.add("-Dzkchaos.node=" + n.name());
        jvm.addAll(config.serverJvmOptions());
        jvm.add("-Djdk.net.hosts.file=" + n.dir().resolve("hosts"));
        jvm.addAll(options);
        JvmProcess.Builder b = JvmProcess.builder(n.name(), n.dir()).role(ROLE).runId(runId).jvmOptions(jvm);
        if (config.clocks()) {
            b.environment(ServerClock.in(n.dir()).environment()); // a movable wall clock (the clock faults)
        }
        return b;
    }
}
