package io.zkchaos.harness.cluster.server;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.FourLetterWords;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.harness.process.JvmProcess;
import io.zkchaos.harness.process.ProcessClock;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What runs on the nodes of an ensemble, and everything about it that differs between systems: the files a node
 * needs, how its JVM is launched, and how it is asked about itself. Everything else — addresses, ports, links,
 * readiness, leader detection — is the backend's ({@link ProcessCluster} and its subclasses), processes and their
 * signals, pid files and reaping are the process layer's ({@code io.zkchaos.harness.process}), and all is the same for
 * every kind, so a ZooKeeper server and an fle node are started, waited for, killed, paused, restarted and reaped
 * exactly alike.
 *
 * <p>A kind describes a node as data — its {@link #files} and its {@link #launch} — so that a backend can put them on
 * this machine ({@link #writeFiles}, {@link #process}: a {@link JvmProcess} of role {@value #ROLE}) or on another host.
 * Kinds: {@link ZooKeeperServers} ({@code QuorumPeerMain} of the resolved version) and {@link FleServers} (the
 * project's own {@code NodeMain}).
 */
public interface ServerKind {

    /** For people and {@code run.properties}: {@code ZooKeeper 3.9.5}, {@code fle nodes (bugs: none)}. */
    String describe();

    /**
     * Every file {@code self} needs (config, private hosts file, ...), by its path relative to the node's directory,
     * with its content. The paths inside them are {@code self}'s ({@link NodeLayout#dir()}: wherever the node lives).
     * The node's data is never among them.
     */
    Map<String, String> files(ClusterConfig config, NodeLayout self, List<NodeLayout> all, PeerRouting routing);

    /** How {@code self}'s JVM is launched; its paths are {@code self}'s. */
    Launch launch(ClusterConfig config, NodeLayout self);

    /**
     * What the node says about itself, asked directly on its client port (not through the fault network). Both
     * kinds answer ZooKeeper's {@code srvr}; the leader is read from these answers the same way for both.
     */
    default NodeStatus status(String node, NodeLayout self, Duration timeout) {
        return FourLetterWords.srvr(node, self.clientAddress(), timeout);
    }

    /**
     * Writes every {@link #files file} of {@code self} under its directory on this machine, with its {@code data/} and
     * {@code tmp/}; idempotent, and the node's data is kept.
     */
    default void writeFiles(ClusterConfig config, NodeLayout self, List<NodeLayout> all, PeerRouting routing) {
        Path dir = self.dir();
        try {
            for (String d : DIRECTORIES) {
                Files.createDirectories(dir.resolve(d));
            }
            for (Map.Entry<String, String> f : files(config, self, all, routing).entrySet()) {
                Path file = dir.resolve(f.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, f.getValue(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the files of " + self.name() + " in " + dir, e);
        }
    }

    /** The node's process on this machine (not started), from its {@link #launch}. */
    default JvmProcess process(ClusterConfig config, NodeLayout n, String runId) {
        Launch l = launch(config, n);
        JvmProcess.Builder b = JvmProcess.builder(n.name(), n.dir()).role(ROLE).runId(runId)
                .jvmOptions(l.jvmOptions()).classpath(l.classpathArgument()).mainClass(l.mainClass()).args(l.args());
        if (config.clocks()) {
            b.environment(ProcessClock.in(n.dir(), "the servers'").environment()); // a movable wall clock (the clock faults)
        }
        return b.build();
    }

    /** The kind {@code config} asks for; ZooKeeper's version is resolved here (it may download). */
    static ServerKind of(ClusterConfig config, ZooKeeperResolver resolver) {
        return config.system() == SystemUnderTest.FLE ? new FleServers(config.bugs())
                : new ZooKeeperServers(resolver.resolve(config.version().text()));
    }

    /** The role of every server's process: its marker, {@code server.pid}, {@code server.log}. */
    String ROLE = "server";

    /** The directories every node has beside its files: its data, and its JVM's temporary files. */
    List<String> DIRECTORIES = List.of("data", "tmp");

    /**
     * How a node's JVM is launched. The markers the {@link io.zkchaos.harness.process.Reaper} checks, and keeping
     * every file in the node's directory, are added by whatever starts it ({@link JvmProcess#commandLine}).
     *
     * @param jvmOptions every option: the ones all kinds share ({@link #jvmOptions}), then the kind's own
     * @param classpath  the jars (or class directories) it runs from, on this machine
     * @param mainClass  its main class
     * @param args       its arguments (its config file)
     */
    record Launch(List<String> jvmOptions, List<Path> classpath, String mainClass, List<String> args) {
        public Launch {
            jvmOptions = List.copyOf(jvmOptions);
            classpath = List.copyOf(classpath);
            args = List.copyOf(args);
        }

        /** The class path for {@code java -cp} on this machine. */
        public String classpathArgument() {
            return classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        }
    }

    /**
     * The JVM options of a server of any kind: the node's name, the configured JVM options, and the node's private
     * hosts file (how it names its peers: see {@link ServerFiles}), then the kind's own {@code options}.
     */
    static List<String> jvmOptions(ClusterConfig config, NodeLayout n, List<String> options) {
        List<String> jvm = new ArrayList<>();
        jvm.add("-Dzkchaos.node=" + n.name());
        jvm.addAll(config.serverJvmOptions());
        jvm.add("-Djdk.net.hosts.file=" + n.dir().resolve("hosts"));
        jvm.addAll(options);
        return jvm;
    }
}
